"""What each game system adds downstream of its engine (``replay.plugin.ReplaySystem``): the ``replay`` part of each
plug-in of the one registry (``engine.systems``), imported and checked when this layer first reads them.

The shared layers look a system's parts up here by name and use only the protocols. A system's statistics are
checked against the core's and each other's when the catalogue is made (``replay.analytics.catalogue``).
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.systems import BrokenPlugin, Layer
from replay.plugin import Analytics, Explanations, Labels, RecordSyntax, ReplaySystem, TerminalPicture, Views


class UnknownReplaySystem(KeyError):
    """No replay parts for a system of that name."""


def check_parts(part: object, name: str, earlier: Mapping[str, ReplaySystem] | None = None) -> ReplaySystem:
    """``part`` as the replay part of the system ``name``: BrokenPlugin if it is not a ``ReplaySystem``, names
    another system, or one of its parts does not implement its protocol."""
    if not isinstance(part, ReplaySystem):
        raise BrokenPlugin(f"{name}: {part!r} does not implement replay.plugin.ReplaySystem")
    if part.name != name:
        raise BrokenPlugin(f"{name}: its replay parts are named {part.name!r}")
    parts: dict[str, tuple[object, type]] = {
        "views": (part.views, Views), "explanations": (part.explanations, Explanations),
        "records": (part.records, RecordSyntax), "terminal": (part.terminal, TerminalPicture),
    }
    optional: dict[str, tuple[object, type]] = {"labels": (part.labels, Labels),
                                                "analytics": (part.analytics, Analytics)}
    parts |= {key: value for key, value in optional.items() if value[0] is not None}
    for key, (implementation, protocol) in parts.items():
        if not isinstance(implementation, protocol):
            raise BrokenPlugin(f"{name}: its {key} part does not implement replay.plugin.{protocol.__name__}")
    return part


_LAYER: Layer[ReplaySystem] = Layer("replay", check_parts, UnknownReplaySystem,
                                    "no replay parts for game system {name!r} (known: {known})")
find_plugin = _LAYER.find  # the replay parts of the system ``name``, or None
get_plugin = _LAYER.get  # the replay parts of the system ``name``; UnknownReplaySystem naming the known ones
plugins = _LAYER.parts  # the replay parts of every registered system that has them, in name order
plugin_names = _LAYER.names  # the names of the systems with replay parts, sorted


__all__ = ["UnknownReplaySystem", "check_parts", "find_plugin", "get_plugin", "plugin_names", "plugins"]
