"""What a game system adds to the HTTP API and the command line: one object per system, registered in ``api.systems``.

The routes and commands never import a system's folder and never test a system's name: they look a system's API
parts up by name (``api.systems.get_plugin``) and use only these protocols. The engine's part of a system is
``engine.system.GameSystem``, the record's ``replay.plugin.ReplaySystem``; this is what HTTP and the CLI need on
top:

- ``setup``: the typed body of ``POST /games`` for this system, a subclass of ``GameSetup`` whose ``system`` field
  is ``Literal["<name>"]``. The app joins every registered system's model into one union keyed on ``system``
  (``api.systems.game_in``) when it is created, so the OpenAPI document states each system's players, variant
  and position exactly, and a bad body is answered with the fields of its own system.
- ``cli``: the options a system adds to commands (``CommandLine``): the variant of ``warlog tournament create``,
  what a player brings to ``warlog tournament register``. ``ModelOptions`` derives them from the setup model.

Seats are the engine's (``p1`` ... ``p6``, ``engine.system.MAX_SEATS``): ``GameSetup`` checks that the players are
``p1``, ``p2``, ... in seating order; how many a setup may have is the system's ``seat_counts``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, Field, StrictBool, StrictInt, model_validator
from pydantic.fields import FieldInfo

from api.models import Request, SeatId, Slug
from api.options import Number
from engine.system import seat_id

# -- the setup model ------------------------------------------------------------------------------------------


class SeatPlayer(Request):
    """One player of a setup: the seat and the name shown. A system's player model adds what a player brings
    (an army, where the system has them)."""

    id: SeatId = Field(description="the seat: p1, p2, ... in seating order", examples=["p1"])
    name: str = Field("", max_length=100, description="the name shown (default: the seat id)", examples=["Alice"])


class GameSetup(Request):
    """The fields every system's ``POST /games`` body has. A system's model narrows ``system`` to its name and
    types ``players`` (and adds ``variant``, ``position``, ... as its rules take them)."""

    system: str
    players: Sequence[SeatPlayer]  # a system's model narrows it (list[PlayerIn])
    seed: StrictInt | None = Field(  # strict: JSON true is not seed 1
        None, ge=0, le=2**63 - 1,
        description="leave it out: the server draws the game's seed (63 random bits), the secret every shuffled deck "
        "and rolled die follows from. A seed of your own only with insecure_seed: true (tests, bots, replaying a "
        "known game): anyone who knows or guesses it knows every hidden card and die",
    )
    insecure_seed: StrictBool = Field(
        False, description="true: accept the seed given (the game's GET shows seed_chosen: true to every player)",
    )
    tournament: Slug | None = Field(None, description="the tournament this game belongs to, if any")
    catalogue: str | None = Field(
        None, min_length=1, max_length=64, examples=["c-0123456789abcdef0123456789abcdef"],
        description="the id of a stored catalogue of this system's game data (GET /catalogues; docs/catalogues.md) "
        "the game plays; left out: the system's default catalogue. unknown_catalogue: no such catalogue is stored, "
        "or it is another system's; catalogue_not_supported: the system plays its built-in data only",
    )

    @model_validator(mode="after")
    def _seats_in_order(self) -> GameSetup:
        ids = [player.id for player in self.players]
        expected = [seat_id(i) for i in range(len(ids))]
        if ids != expected:
            raise ValueError(f"players are {', '.join(expected)} in seating order, not {', '.join(ids)}")
        return self

    @model_validator(mode="after")
    def _seed_chosen_knowingly(self) -> GameSetup:
        # A sealed game's hidden cards and dice all follow from its seed: a small or known one is searched from
        # the public moves (issue 28 item 20). The server draws it unless the caller says it knows the risk.
        if self.seed is not None and not self.insecure_seed:
            raise ValueError(
                "seed: leave it out and the server draws the game's seed, the secret every hidden card and die "
                "follows from; a seed of your own is accepted only with \"insecure_seed\": true (tests, bots, "
                "replaying a known game), and the game then shows seed_chosen: true"
            )
        if self.insecure_seed and self.seed is None:
            raise ValueError("insecure_seed: true goes with a seed of your own; without one, leave both out")
        return self

    @property
    def seed_chosen(self) -> bool:
        """The caller chose the seed (``insecure_seed``): recorded with the game and shown by its GET."""
        return self.seed is not None

    def engine_setup(self) -> dict[str, Any]:
        """The setup as the engine's ``start`` takes it: the fields given (unset defaults are the engine's),
        each player named (its seat id when no name is given)."""
        setup = self.model_dump(exclude_unset=True, exclude_none=True, exclude={"insecure_seed"})
        setup["system"] = self.system
        for player in setup["players"]:
            player["name"] = player.get("name") or player["id"]
        return setup


def setup_system(model: type[GameSetup]) -> str | None:
    """The system name a setup model is keyed on (its ``system: Literal["name"]``), or None."""
    field = model.model_fields.get("system")
    if field is None or typing.get_origin(field.annotation) is not Literal:
        return None
    names = typing.get_args(field.annotation)
    return names[0] if len(names) == 1 and isinstance(names[0], str) else None


# -- the command line -----------------------------------------------------------------------------------------

# A command is named as it is typed (``api.cli.command_name``).
TOURNAMENT_CREATE = "tournament create"  # the variant of every game of the tournament -> {"variant": {...}}
TOURNAMENT_REGISTER = "tournament register"  # what one player brings -> {"army": ...}
COMMANDS = (TOURNAMENT_CREATE, TOURNAMENT_REGISTER)
# The options the commands themselves have: a system's options may not take these.
RESERVED_OPTIONS = frozenset(
    {"--db", "--name", "--rounds", "--system", "--variant", "--seats", "--json", "--help", "-h"}
)


@runtime_checkable
class CommandLine(Protocol):
    """The options a system adds to a command of ``COMMANDS``. Each option belongs to one system: the registry
    refuses an option string that another system (or the command itself, ``RESERVED_OPTIONS``) already has."""

    def add_options(self, parser: argparse._ActionsContainer, command: str) -> None:
        """Add this system's options for ``command`` (an argument group of the command's parser). Their values
        must be absent from the parsed namespace unless given (``default=argparse.SUPPRESS``)."""
        ...

    def options(self, args: argparse.Namespace, command: str) -> dict[str, Any]:
        """The setup fields the options given for ``command`` make: ``{"variant": {...}}`` for tournament create,
        the player's fields (``{"army": ...}``) for tournament register; ``{}`` when none was given."""
        ...


@runtime_checkable
class ApiSystem(Protocol):
    @property
    def name(self) -> str: ...  # the engine system's name
    @property
    def setup(self) -> type[GameSetup]: ...  # POST /games for this system: system is Literal[name]
    @property
    def cli(self) -> CommandLine: ...
    @property
    def web(self) -> WebParts | None: ...  # its drawing in the browser pages (None: the state as a table)


@dataclass(frozen=True)
class WebParts:
    """A system's drawing for the browser pages (docs/web.md): a folder of ES modules and their assets, served as
    they are at ``/static/systems/<system>/``. ``board`` is the module (in that folder) the replay page imports to
    draw a state; the contract it honours is docs/web.md's "A system's drawing". ``stats`` (optional) is the module
    the statistics page imports to draw the system's own statistics (docs/web.md, "A system's statistics"); without
    it they are shown as tables."""

    folder: Path
    board: str = "board.js"
    stats: str | None = None
    # JSON documents the drawing reads, made from the system's own data (its catalogue) when the app starts:
    # file name -> a function returning the JSON value, served at /static/systems/<system>/<name>, so the drawing
    # never holds a copy of data the engine owns.
    data: Mapping[str, Callable[[], Any]] = dataclasses.field(default_factory=dict)


LABELS = "labels.json"  # the WebParts.data document of a system's display labels (docs/web.md)
ADJUDICATED = {"concession": "Concession", "adjudicated": "Adjudicated"}  # the end reasons every system has


def display_labels(system: str, armies: Iterable[str], end_reasons: Mapping[str, str],
                   colours: Mapping[str, str] | None = None) -> Callable[[], dict[str, Any]]:
    """A system's ``labels.json`` (``WebParts.data``): how the pages name the system (``system``), its armies
    (the labels of ``metadata.armies``: ``orcs`` -> ``Orcs``) and its end reasons (``end_of_war`` -> ``The end of
    the war``), so no page shows a code. ``end_reasons``: the system's own; concession and adjudication are added.
    ``colours``: each seat's colour as the system's drawing paints it (seat -> CSS colour), so a list draws a
    seat as its board does (a board may paint p1 red); without it the pages' seat palette (p1 blue, p2 red)."""

    def labels() -> dict[str, Any]:
        named = {army: army.replace("-", " ").replace("_", " ").capitalize() for army in armies}
        return {"system": system, "armies": named, "end_reasons": {**end_reasons, **ADJUDICATED},
                "colours": dict(colours or {})}

    return labels


@dataclass(frozen=True)
class ApiParts:
    """A system's API parts, bundled (satisfies ``ApiSystem``)."""

    name: str
    setup: type[GameSetup]
    cli: CommandLine
    web: WebParts | None = None


# -- options derived from the setup model ---------------------------------------------------------------------


def _field_model(model: type[BaseModel], name: str) -> type[BaseModel] | None:
    """The pydantic model a field of ``model`` holds (``variant: VariantIn``; ``players: list[PlayerIn]``)."""
    field = model.model_fields.get(name)
    if field is None:
        return None
    candidates = [field.annotation]
    while candidates:
        annotation = candidates.pop()
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            return annotation
        candidates.extend(typing.get_args(annotation))
    return None


def whole_number(field: FieldInfo) -> Number | None:
    """The argparse ``type`` of an int field (``int``, ``Annotated[int, ...]``, optional or not): a ``Number`` with
    the field's bounds (``ge``/``le``, ``gt``/``lt``), so a value out of them is a usage error on the command line;
    None for a field that is not a whole number (a union of int and text takes text)."""
    low: int | None = None
    high: int | None = None
    found = False
    candidates: list[tuple[Any, list[Any]]] = [(field.annotation, list(field.metadata))]
    while candidates:
        annotation, metadata = candidates.pop()
        if typing.get_origin(annotation) is Annotated:
            inner, *extra = typing.get_args(annotation)
            candidates.append((inner, metadata + [m for e in extra for m in getattr(e, "metadata", [e])]))
        elif annotation is int:
            found = True
            for bound in metadata:
                low = getattr(bound, "ge", None) if getattr(bound, "ge", None) is not None else low
                low = bound.gt + 1 if getattr(bound, "gt", None) is not None else low
                high = getattr(bound, "le", None) if getattr(bound, "le", None) is not None else high
                high = bound.lt - 1 if getattr(bound, "lt", None) is not None else high
        else:
            choices = [a for a in typing.get_args(annotation) if a is not type(None)]
            if len(choices) == 1:  # optional: ``int | None``
                candidates.append((choices[0], metadata))
    return Number(low, high) if found else None


def option_type(field: FieldInfo, shorthand: Callable[[str], Any] | None = None) -> Any:
    """An argparse ``type`` for a field: a bounded whole number, or text: a JSON list/object, else the field's
    ``shorthand`` (a system's short form, e.g. an army as a comma list), else a comma list or a word."""
    number = whole_number(field)
    if number is not None:
        return number

    def text(value: str) -> Any:
        value = value.strip()
        if value.startswith(("[", "{")):
            try:
                return json.loads(value)
            except json.JSONDecodeError as error:
                raise argparse.ArgumentTypeError(f"not JSON: {error}") from None
        if shorthand is not None:
            return shorthand(value)
        return [part.strip() for part in value.split(",")] if "," in value else value

    return text


def _choices(annotation: Any) -> tuple[Any, ...] | None:
    """The values of a ``Literal`` field, optional or not (``Literal["a", "b"] | None``); None for another field."""
    if typing.get_origin(annotation) is Literal:
        return typing.get_args(annotation)
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    if len(args) == 1 and typing.get_origin(args[0]) is Literal:
        return typing.get_args(args[0])
    return None


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")


class ModelOptions:
    """``CommandLine`` derived from a setup model: one option per field of its ``variant`` model (for tournament
    create) and per field of its player model other than ``id`` and ``name`` (for tournament register); a bool
    field is ``--x`` / ``--no-x``, a ``Literal`` field (optional or not) has its values as choices, an int field
    takes a whole number within the field's bounds, any other JSON, the field's ``shorthand`` or a comma list or a
    word. The help is the field's description.

    Option strings are shared by every system's commands: ``prefix`` goes before every option of the system
    (``prefix="hs-"``: ``--hs-map``, ``--hs-army``, ``--no-hs-x``) where another system has ``--mode`` or
    ``--army`` already; ``flags`` names one field's option otherwise than ``--<prefix>field-name``.
    ``shorthand`` maps a field to how its text is read when it is not JSON (e.g. an army as ``card,card``)."""

    def __init__(self, system: str, setup: type[GameSetup], flags: Mapping[str, str] | None = None,
                 prefix: str = "", shorthand: Mapping[str, Callable[[str], Any]] | None = None) -> None:
        self.system = system
        self.flags = dict(flags or {})
        self.prefix = prefix
        self.shorthand = dict(shorthand or {})
        self.fields: dict[str, dict[str, FieldInfo]] = {}
        variant = _field_model(setup, "variant")
        player = _field_model(setup, "players")
        self.fields[TOURNAMENT_CREATE] = dict(variant.model_fields) if variant else {}
        self.fields[TOURNAMENT_REGISTER] = {
            name: field for name, field in (player.model_fields if player else {}).items() if name not in ("id", "name")
        }

    def _dest(self, command: str, name: str) -> str:
        return f"{self.system}:{command}:{name}"

    def _flag(self, name: str) -> str:
        return self.flags.get(name) or _flag(self.prefix + name)

    def add_options(self, parser: argparse._ActionsContainer, command: str) -> None:
        for name, field in self.fields.get(command, {}).items():
            dest = self._dest(command, name)
            help_text = field.description or name
            choices = _choices(field.annotation)
            if field.annotation is bool:
                parser.add_argument(self._flag(name), dest=dest, action=argparse.BooleanOptionalAction,
                                    default=argparse.SUPPRESS, help=help_text)
            elif choices:
                parser.add_argument(self._flag(name), dest=dest, choices=choices, default=argparse.SUPPRESS,
                                    help=help_text)
            else:
                parser.add_argument(self._flag(name), dest=dest, type=option_type(field, self.shorthand.get(name)),
                                    metavar=name.upper(), default=argparse.SUPPRESS, help=help_text)

    def options(self, args: argparse.Namespace, command: str) -> dict[str, Any]:
        given = {name: getattr(args, self._dest(command, name)) for name in self.fields.get(command, {})
                 if hasattr(args, self._dest(command, name))}
        if command == TOURNAMENT_CREATE:
            return {"variant": given} if given else {}
        return given


class _Scratch(argparse.ArgumentParser):
    def error(self, message: str) -> typing.NoReturn:
        raise ValueError(message)


def options_giving(cli: CommandLine, command: str, fields: dict[str, Any]) -> list[str] | None:
    """The options of ``command`` that give these setup fields (``{"variant": {"teams": True}}`` ->
    ``["--team-rules"]``), found by trying each option of ``cli`` on a scratch parser; None if one is not an
    option's. Error messages name the setup's JSON; the command line adds this."""
    scratch = _Scratch(add_help=False)
    cli.add_options(scratch, command)
    wanted = fields.get("variant", {}) if command == TOURNAMENT_CREATE else fields
    if not isinstance(wanted, dict) or not wanted:
        return None
    found: list[str] = []
    for name, value in wanted.items():
        text = value if isinstance(value, str) else json.dumps(value)
        tries = [[option] if isinstance(value, bool) else [option, text]
                 for action in scratch._actions for option in action.option_strings]
        for argv in tries:
            try:
                given = cli.options(scratch.parse_args(argv), command)
            except ValueError:
                continue
            if (given.get("variant") if command == TOURNAMENT_CREATE else given) == {name: value}:
                found += argv
                break
        else:
            return None
    return found


def option_strings(cli: CommandLine, command: str) -> list[str]:
    """Every option string ``cli`` adds to ``command`` (read from a scratch parser)."""
    scratch = argparse.ArgumentParser(add_help=False)
    cli.add_options(scratch, command)
    return [s for action in scratch._actions for s in action.option_strings]


__all__ = [
    "COMMANDS",
    "RESERVED_OPTIONS",
    "TOURNAMENT_CREATE",
    "TOURNAMENT_REGISTER",
    "ApiParts",
    "ApiSystem",
    "CommandLine",
    "GameSetup",
    "ModelOptions",
    "SeatPlayer",
    "option_strings",
    "setup_system",
]
