"""The event base class.

Every event is a frozen msgspec Struct tagged by the field ``type``. A tag, once published, never changes:
old logs must decode forever. When an event's shape changes, bump its ``version`` class variable and register an
upcaster for the old version in the system's codec (see ``events.codec``).
"""

from __future__ import annotations

from typing import ClassVar

import msgspec


class Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True):
    """Base of every event. Subclasses set ``tag="..."`` (past tense, never changed) and may bump ``version``."""

    version: ClassVar[int] = 1

    @classmethod
    def tag_name(cls) -> str:
        tag = cls.__struct_config__.tag
        assert isinstance(tag, str), f"{cls.__name__} has no string tag"
        return tag
