"""HeroScape as installed: the plug-in its ``warlog.systems`` entry point names (pyproject.toml), its part in
each layer (engine.systems.SystemPlugin; the replay and API parts imported when their layer first reads them)."""

from engine.heroscape import SYSTEM
from engine.systems import SystemPlugin

PLUGIN = SystemPlugin(name=SYSTEM.name, engine=SYSTEM, replay="replay.heroscape:PLUGIN",
                      api="api.heroscape:PLUGIN")
