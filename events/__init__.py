"""What happened: immutable event schemas, the recorded envelope and the codecs.

Standard library and msgspec only: no I/O, no clock, no randomness (see docs/architecture.md).
"""

from events.base import ADJUDICATION_REASONS, CORRECTION, RESULT_REASONS, Adjudication, Event
from events.codec import Codec, UnknownEventType, Upcaster
from events.envelope import Recorded

__all__ = ["ADJUDICATION_REASONS", "CORRECTION", "RESULT_REASONS", "Adjudication", "Event", "Codec", "Recorded",
           "UnknownEventType", "Upcaster"]
