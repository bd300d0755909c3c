"""One encoder/decoder pair per event union, for JSON and msgpack, with upcasting of old event versions.

A ``Codec`` is built once per game system at module level::

    CODEC = Codec(LordsOfWarEvent, upcasters={("placed", 1): upcast_placed_v1})

Payloads stored with the current version of their type decode straight into typed Structs (the fast path).
Payloads written by an older schema are decoded to plain data, passed through the chain of upcasters for their
tag (v1 -> v2 -> ... -> current) and only then converted, so the engine only ever sees current shapes.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Mapping
from typing import Any, Generic, TypeVar, cast

import msgspec

from events.base import Event

E = TypeVar("E")

# An upcaster turns the plain-data form of an event at version N into its form at version N+1.
Upcaster = Callable[[dict[str, Any]], dict[str, Any]]


class UnknownEventType(ValueError):
    """A payload names a tag this codec does not know, or a version it cannot upcast."""


def _members(union: Any) -> tuple[type[Event], ...]:
    args = typing.get_args(union)
    members = args if args else (union,)
    for member in members:
        if not (isinstance(member, type) and issubclass(member, Event)):
            raise TypeError(f"{member!r} is not an Event subclass")
    return tuple(members)


class Codec(Generic[E]):
    """Encodes and decodes one tagged union of events, JSON and msgpack, with upcasting."""

    def __init__(self, union: Any, upcasters: Mapping[tuple[str, int], Upcaster] | None = None) -> None:
        self.union = union
        self.types: dict[str, type[Event]] = {m.tag_name(): m for m in _members(union)}
        self.upcasters = dict(upcasters or {})
        for (tag, version), _ in self.upcasters.items():
            if tag not in self.types:
                raise UnknownEventType(f"upcaster registered for unknown event type {tag!r}")
            if version >= self.types[tag].version:
                raise ValueError(f"upcaster for {tag!r} v{version} is not older than the current version")
        self._json_encoder = msgspec.json.Encoder()
        self._msgpack_encoder = msgspec.msgpack.Encoder()
        self._json_decoder: msgspec.json.Decoder[E] = msgspec.json.Decoder(union)
        self._msgpack_decoder: msgspec.msgpack.Decoder[E] = msgspec.msgpack.Decoder(union)
        self._json_plain = msgspec.json.Decoder(dict[str, Any])
        self._msgpack_plain = msgspec.msgpack.Decoder(dict[str, Any])

    # -- versions -------------------------------------------------------------------------------------
    def version_of(self, event: Event | str) -> int:
        """The current schema version of an event (or of a tag)."""
        tag = event if isinstance(event, str) else type(event).tag_name()
        try:
            return self.types[tag].version
        except KeyError:
            raise UnknownEventType(f"unknown event type {tag!r}") from None

    def upcast(self, data: dict[str, Any], version: int) -> dict[str, Any]:
        """Bring the plain-data form of an event written at ``version`` up to its current version."""
        tag = data.get("type")
        if tag not in self.types:
            raise UnknownEventType(f"unknown event type {tag!r}")
        current = self.types[tag].version
        if version > current:
            raise UnknownEventType(f"{tag!r} v{version} is newer than this software knows (v{current})")
        while version < current:
            step = self.upcasters.get((tag, version))
            if step is None:
                raise UnknownEventType(f"no upcaster for {tag!r} from v{version}")
            data = step(dict(data))
            data["type"] = tag
            version += 1
        return data

    # -- JSON -----------------------------------------------------------------------------------------
    def encode_json(self, event: Event) -> bytes:
        return self._json_encoder.encode(event)

    def decode_json(self, payload: bytes | str, version: int | None = None) -> E:
        """Decode one JSON event; ``version`` is the schema version it was written with (None = current)."""
        if version is None:
            return self._json_decoder.decode(payload)
        plain = self._json_plain.decode(payload)
        if version == self.version_of(str(plain.get("type"))):
            return cast(E, msgspec.convert(plain, self.union))
        return cast(E, msgspec.convert(self.upcast(plain, version), self.union))

    def decode_stored(self, tag: str, version: int, payload: bytes | str) -> E:
        """Decode a stored JSON row whose tag and schema version are known: typed fast path when current."""
        if version == self.version_of(tag):
            return self._json_decoder.decode(payload)
        return self.decode_json(payload, version)

    # -- msgpack --------------------------------------------------------------------------------------
    def encode_msgpack(self, event: Event) -> bytes:
        return self._msgpack_encoder.encode(event)

    def decode_msgpack(self, payload: bytes, version: int | None = None) -> E:
        if version is None:
            return self._msgpack_decoder.decode(payload)
        plain = self._msgpack_plain.decode(payload)
        if version == self.version_of(str(plain.get("type"))):
            return cast(E, msgspec.convert(plain, self.union))
        return cast(E, msgspec.convert(self.upcast(plain, version), self.union))

    # -- plain data (for the API layer) ---------------------------------------------------------------
    def to_builtins(self, event: Event) -> dict[str, Any]:
        return cast(dict[str, Any], msgspec.to_builtins(event))

    def from_builtins(self, data: Mapping[str, Any]) -> E:
        return cast(E, msgspec.convert(dict(data), self.union))
