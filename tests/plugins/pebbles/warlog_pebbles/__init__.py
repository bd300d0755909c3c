"""pebbles as installed: the plug-in its ``warlog.systems`` entry point names (this package's pyproject.toml), its
part in each layer of warlog (``engine.systems.SystemPlugin``): the rules (``rules``), the replay parts
(``replay_parts``) and the API parts (``api_parts``), the last two imported when their layer first reads them.

A system distributed apart from warlog looks like this package: nothing in warlog names it; installing it registers
it (docs/adding-a-system.md).
"""

from engine.systems import SystemPlugin
from warlog_pebbles.rules import NAME, PEBBLES

PLUGIN = SystemPlugin(name=NAME, engine=PEBBLES, replay="warlog_pebbles.replay_parts:PLUGIN",
                      api="warlog_pebbles.api_parts:PLUGIN")

__all__ = ["PLUGIN"]
