"""The codec: JSON and msgpack round trips, and upcasting of events written by an older schema."""

from __future__ import annotations

from typing import ClassVar

import msgspec
import pytest

from events import Codec, Event, UnknownEventType


class Moved(Event, frozen=True, tag="moved"):
    """Test event at version 2: v1 had a single ``square`` field, v2 split it into ``origin`` and ``target``."""

    version: ClassVar[int] = 2
    player: str
    origin: str
    target: str


class Passed(Event, frozen=True, tag="passed"):
    player: str


def upcast_moved_v1(data: dict) -> dict:
    square = data.pop("square")
    data["origin"] = square
    data["target"] = square
    return data


CODEC: Codec[Moved | Passed] = Codec(Moved | Passed, upcasters={("moved", 1): upcast_moved_v1})


def test_codec_json_round_trip():
    event = Moved(player="p1", origin="C3", target="D4")
    assert CODEC.decode_json(CODEC.encode_json(event)) == event
    assert b'"type":"moved"' in CODEC.encode_json(event)


def test_codec_msgpack_round_trip():
    event = Passed(player="p2")
    assert CODEC.decode_msgpack(CODEC.encode_msgpack(event)) == event


def test_codec_reads_v1_event_written_by_older_schema():
    # Exactly what the v1 schema wrote to disk.
    old_payload = b'{"type":"moved","player":"p1","square":"C3"}'
    assert CODEC.decode_stored("moved", 1, old_payload) == Moved(player="p1", origin="C3", target="C3")
    assert CODEC.decode_msgpack(msgspec.msgpack.encode(msgspec.json.decode(old_payload)), 1) == Moved(
        player="p1", origin="C3", target="C3"
    )


def test_codec_current_version_takes_fast_path():
    payload = CODEC.encode_json(Moved(player="p1", origin="A1", target="B2"))
    assert CODEC.decode_stored("moved", 2, payload) == Moved(player="p1", origin="A1", target="B2")


def test_codec_rejects_unknown_tag_and_future_version():
    with pytest.raises(msgspec.ValidationError):
        CODEC.decode_json(b'{"type":"exploded"}')
    with pytest.raises(UnknownEventType):
        CODEC.decode_json(b'{"type":"moved","player":"p1","origin":"a","target":"b"}', version=3)
    with pytest.raises(UnknownEventType):
        CODEC.version_of("exploded")


def test_codec_rejects_upcaster_for_current_version():
    with pytest.raises(ValueError):
        Codec(Moved | Passed, upcasters={("moved", 2): upcast_moved_v1})


def test_event_is_frozen():
    event = Passed(player="p1")
    with pytest.raises(AttributeError):
        event.player = "p2"  # type: ignore[misc]
