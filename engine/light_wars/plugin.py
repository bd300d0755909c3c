"""Light Wars as installed: the plug-in its ``warlog.systems`` entry point names (pyproject.toml), its part in
each layer (engine.systems.SystemPlugin; the replay and API parts imported when their layer first reads them)."""

from engine.light_wars import SYSTEM
from engine.systems import SystemPlugin

PLUGIN = SystemPlugin(name=SYSTEM.name, engine=SYSTEM, replay="replay.light_wars:PLUGIN",
                      api="api.light_wars:PLUGIN")
