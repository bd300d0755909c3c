"""Lords of War as installed: the plug-in its ``warlog.systems`` entry point names (pyproject.toml), its part in
each layer (engine.systems.SystemPlugin; the replay and API parts imported when their layer first reads them)."""

from engine.lords_of_war import SYSTEM
from engine.systems import SystemPlugin

PLUGIN = SystemPlugin(name=SYSTEM.name, engine=SYSTEM, replay="replay.lords_of_war:PLUGIN",
                      api="api.lords_of_war:PLUGIN")
