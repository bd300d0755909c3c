"""Catalogues (issue 30): a system's game data as one JSON document a user may bring (cards, armies, decks, maps).

The framework every system's ``engine.system.Catalogues`` capability shares:

- ``CatalogueProblem``: one thing wrong with a document, at its JSON path in the issue's form (``cards[12].chi``),
  naming the rule it breaks (``rule`` None: the document's shape, as its JSON Schema says).
- ``CatalogueError``: a refused document, with every problem.
- ``catalogue_id``: the content address of a document, ``c-`` and 32 hex digits of the sha256 of its canonical JSON
  (msgspec, keys sorted, no whitespace): the same document gives the same id on every machine, and any change gives
  another id (a catalogue is immutable: a change is a new catalogue).
- ``shape_problems``: every place a document does not fit a system's JSON Schema (the subset the systems write:
  ``type``, ``const``, ``enum``, ``properties``, ``required``, ``additionalProperties``, ``propertyNames``,
  ``items``, ``prefixItems``, ``minItems``/``maxItems``, ``minimum``/``maximum``, ``minLength``/``maxLength``,
  ``pattern``, ``$ref`` into ``$defs``), so the schema a client reads (``GET /schemas/{system}/catalogue``) is the
  one the server checks.
- Size limits: ``MAX_CATALOGUE_BYTES`` of canonical JSON and ``MAX_CATALOGUE_ENTRIES`` list items in all
  (``size_problem``); a system's schema may tighten them with ``maxItems``.
- ``game_catalogue``: what every system's setup does with ``setup["catalogue"]`` (the document the API resolved
  from the catalogue id a game names): check it again and give back the document and its id, or None for the
  system's default (a game on the default records no catalogue: its ``game_started`` is unchanged).
"""

from __future__ import annotations

import copy
import functools
import hashlib
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

import msgspec

from engine.errors import SetupError

MAX_CATALOGUE_BYTES = 2 * 1024 * 1024  # of canonical JSON
MAX_CATALOGUE_ENTRIES = 20_000  # list items in the whole document (cards, deck entries, hexes, ...)
CATALOGUE_ID = re.compile(r"^c-[0-9a-f]{32}$")
JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"

_ENCODER = msgspec.json.Encoder(order="sorted")


class CatalogueProblem(msgspec.Struct, frozen=True):
    """One thing wrong with a catalogue: where (``cards[12].defence``; ``""`` for the whole document), what, and the
    rule it breaks (``"§2"``; None when the document does not have the schema's shape)."""

    path: str
    message: str
    rule: str | None = None


class CatalogueError(Exception):
    """A catalogue refused: every problem found, shape errors first."""

    def __init__(self, problems: tuple[CatalogueProblem, ...]) -> None:
        self.problems = problems
        first = problems[0] if problems else CatalogueProblem("", "no problem given")
        where = f"{first.path}: " if first.path else ""
        rule = f" ({first.rule})" if first.rule else ""
        more = f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""
        super().__init__(f"{where}{first.message}{rule}{more}")


class CatalogueTooLarge(CatalogueError):
    """A catalogue over a size limit (``size_problem``): refused before its content is read."""


def canonical(document: Any) -> bytes:
    """The canonical JSON of a document: keys sorted, no whitespace."""
    return _ENCODER.encode(document)


def catalogue_id(document: Any) -> str:
    """The content address of ``document``: ``c-`` + 32 hex digits of the sha256 of its canonical JSON."""
    return "c-" + hashlib.sha256(canonical(document)).hexdigest()[:32]


def entries(document: Any) -> int:
    """How many list items the document holds, at every depth."""
    count = 0
    stack = [document]
    while stack:
        value = stack.pop()
        if isinstance(value, list):
            count += len(value)
            stack.extend(value)
        elif isinstance(value, dict):
            stack.extend(value.values())
    return count


def size_problem(document: Any, max_bytes: int = MAX_CATALOGUE_BYTES,
                 max_entries: int = MAX_CATALOGUE_ENTRIES) -> CatalogueProblem | None:
    """The size limit ``document`` exceeds, or None."""
    size = len(canonical(document))
    if size > max_bytes:
        return CatalogueProblem("", f"the catalogue is {size} bytes of JSON; the limit is {max_bytes}", "size")
    count = entries(document)
    if count > max_entries:
        return CatalogueProblem("", f"the catalogue has {count} list entries; the limit is {max_entries}", "size")
    return None


# -- the shape: a JSON Schema subset ------------------------------------------------------------------------------

_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,), "array": (list,), "string": (str,), "integer": (int,), "number": (int, float),
    "boolean": (bool,), "null": (type(None),),
}


def child(path: str, key: str | int) -> str:
    """The JSON path of ``key`` under ``path``: ``cards`` + 12 -> ``cards[12]``, ``cards[12]`` + ``defence`` ->
    ``cards[12].defence``."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def shape_problems(schema: Mapping[str, Any], document: Any) -> tuple[CatalogueProblem, ...]:
    """Every place ``document`` does not fit ``schema`` (this module's JSON Schema subset), in document order."""
    return tuple(_check(schema, schema, document, ""))


def _is(value: Any, kind: str) -> bool:
    if isinstance(value, bool) and kind in ("integer", "number"):
        return False
    return isinstance(value, _TYPES[kind])


def _check(root: Mapping[str, Any], schema: Mapping[str, Any], value: Any, path: str) -> Iterator[CatalogueProblem]:
    if "$ref" in schema:
        name = str(schema["$ref"]).removeprefix("#/$defs/")
        schema = root["$defs"][name]
    kind = schema.get("type")
    if kind is not None and not _is(value, kind):
        yield CatalogueProblem(path, f"must be {'an' if kind[0] in 'aeiou' else 'a'} {kind}")
        return
    if "const" in schema and value != schema["const"]:
        yield CatalogueProblem(path, f"must be {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        yield CatalogueProblem(path, f"must be one of {', '.join(map(str, schema['enum']))}")
    if _is(value, "number"):
        if "minimum" in schema and value < schema["minimum"]:
            yield CatalogueProblem(path, f"must be >= {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            yield CatalogueProblem(path, f"must be <= {schema['maximum']}")
    if isinstance(value, str):
        if len(value) < schema.get("minLength", 0):
            yield CatalogueProblem(path, f"must have at least {schema['minLength']} characters")
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            yield CatalogueProblem(path, f"must have at most {schema['maxLength']} characters")
        if "pattern" in schema and not re.search(schema["pattern"], value):
            yield CatalogueProblem(path, f"must match {schema['pattern']}")
    if isinstance(value, list):
        yield from _check_array(root, schema, value, path)
    if isinstance(value, dict):
        yield from _check_object(root, schema, value, path)


def _check_array(root: Mapping[str, Any], schema: Mapping[str, Any], value: list[Any],
                 path: str) -> Iterator[CatalogueProblem]:
    if len(value) < schema.get("minItems", 0):
        yield CatalogueProblem(path, f"must have at least {schema['minItems']} entries")
    if "maxItems" in schema and len(value) > schema["maxItems"]:
        yield CatalogueProblem(path, f"must have at most {schema['maxItems']} entries")
        return  # an over-long list: its entries are not read
    prefix = schema.get("prefixItems", ())
    for i, item in enumerate(value):
        item_schema = prefix[i] if i < len(prefix) else schema.get("items")
        if item_schema is not None:
            yield from _check(root, item_schema, item, child(path, i))


def _check_object(root: Mapping[str, Any], schema: Mapping[str, Any], value: dict[str, Any],
                  path: str) -> Iterator[CatalogueProblem]:
    properties: Mapping[str, Any] = schema.get("properties", {})
    for name in schema.get("required", ()):
        if name not in value:
            yield CatalogueProblem(child(path, name), "is required")
    names = schema.get("propertyNames")
    extra = schema.get("additionalProperties", True)
    for key, item in value.items():
        if names is not None:
            yield from (CatalogueProblem(child(path, key), f"is not a known key: {p.message}")
                        for p in _check(root, names, key, child(path, key)))
        if key in properties:
            yield from _check(root, properties[key], item, child(path, key))
        elif extra is False:
            yield CatalogueProblem(child(path, key), "is not a field of this catalogue")
        elif isinstance(extra, Mapping):
            yield from _check(root, extra, item, child(path, key))


@dataclass(frozen=True, slots=True)
class CatalogueRules:
    """A system's ``engine.system.Catalogues`` from its three parts: the JSON Schema of its document, its built-in
    data as a document, and its rule checks (run on a document of the schema's shape only: they read it as the
    schema says). ``problems`` gives the shape errors when there are any, else the rules broken."""

    document_schema: Mapping[str, Any]
    built_in: Callable[[], dict[str, Any]]
    rule_problems: Callable[[Any], Iterable[CatalogueProblem]]
    # optional: the names of a playable document's armies (decks), what a setup's ``players[i].army`` names; a
    # system that gives it plays its demo games on a catalogue (``warlog demo --catalogue``, ``army_names``)
    armies_of: Callable[[Any], Sequence[str]] | None = None
    # optional: the ids of a playable document's maps, what a setup's ``variant.map`` names; a system whose sample
    # setups name a map gives it, so ``setup_on_catalogue`` moves them onto the catalogue's maps (``map_names``)
    maps_of: Callable[[Any], Sequence[str]] | None = None

    def schema(self) -> dict[str, Any]:
        return copy.deepcopy(dict(self.document_schema))

    def default(self) -> dict[str, Any]:
        return self.built_in()

    def problems(self, document: Any) -> tuple[CatalogueProblem, ...]:
        shape = shape_problems(self.document_schema, document)
        return shape or tuple(self.rule_problems(document))

    def army_names(self, document: Any) -> tuple[str, ...] | None:
        """The armies a setup may name in a playable ``document``, in its order; None when the system does not
        say (``armies_of``)."""
        return None if self.armies_of is None else tuple(self.armies_of(document))

    def map_names(self, document: Any) -> tuple[str, ...] | None:
        """The maps a setup's variant may name in a playable ``document``, in its order; None when the system does
        not say (``maps_of``)."""
        return None if self.maps_of is None else tuple(self.maps_of(document))


def setup_on_catalogue(setup: Mapping[str, Any], index: int, armies: Sequence[str], catalogue: Any,
                       maps: Sequence[str] = ()) -> dict[str, Any]:
    """A sample setup (``SelfPlay.sample_setup``) moved onto a catalogue: ``setup["catalogue"]`` = ``catalogue``
    (the document, for the engine; its id, for ``POST /games``), each army the players name replaced by one of
    ``armies`` (the catalogue's, ``army_names``) in turn from ``index``, the same army twice staying the same (a
    mirror match, a team's shared army), each seat named after its army; and the map its variant names (a built-in
    map's id) by one of ``maps`` (the catalogue's, ``map_names``) in turn from ``index``, its start zones with it (a
    variant naming no map, or no ``maps`` given, is left as it is: the game plays the catalogue's first map)."""
    chosen: dict[str, str] = {}
    players = []
    for player in setup.get("players") or ():
        army = player.get("army")
        if isinstance(army, str):
            if army not in chosen:
                chosen[army] = armies[(index + len(chosen)) % len(armies)]
            player = {**player, "army": chosen[army], "name": f"{chosen[army].title()} bot"}
        players.append(player)
    moved: dict[str, Any] = {**setup, "players": players, "catalogue": catalogue}
    variant = setup.get("variant")
    if maps and isinstance(variant, Mapping) and isinstance(variant.get("map"), str):
        moved["variant"] = {**variant, "map": maps[index % len(maps)]}
    return moved


def army_names(catalogues: object, document: Any) -> tuple[str, ...] | None:
    """The armies of a playable catalogue document, for a system capability that tells them (``CatalogueRules``
    with ``armies_of``); None otherwise."""
    names = getattr(catalogues, "army_names", None)
    return names(document) if callable(names) else None


def map_names(catalogues: object, document: Any) -> tuple[str, ...]:
    """The maps of a playable catalogue document, for a system capability that tells them (``CatalogueRules`` with
    ``maps_of``); none otherwise (its setups name no map, or the system has none)."""
    names = getattr(catalogues, "map_names", None)
    found = names(document) if callable(names) else None
    return tuple(found or ())


def document_properties(system: str) -> dict[str, Any]:
    """The properties every catalogue document has (a system's schema adds its data): the system it is for, its
    ``name`` and ``version`` labels, and where its data comes from (``about``)."""
    return {
        "system": {"const": system},
        "name": {"type": "string", "minLength": 1, "maxLength": 80, "description": "a label, not the identity"},
        "version": {"type": "string", "minLength": 1, "maxLength": 40, "description": "a label"},
        "about": {"type": "string", "maxLength": 2000, "description": "where the data comes from"},
    }


def document_schema(system: str, title: str, description: str, lists: Mapping[str, tuple[str, int]],
                    defs: Mapping[str, Any]) -> dict[str, Any]:
    """A system's catalogue JSON Schema: an object of the common ``document_properties`` and the system's ``lists``
    (each a name -> (the ``$defs`` entry of its items, its most entries), at least one entry each), nothing else."""
    return {
        "$schema": JSON_SCHEMA_DIALECT,
        "$id": f"https://warlog.example/schemas/{system}/catalogue",
        "title": title,
        "description": description,
        "type": "object",
        "required": ["system", "name", "version", *lists],
        "additionalProperties": False,
        "properties": {
            **document_properties(system),
            **{name: {"type": "array", "minItems": 1, "maxItems": most, "items": {"$ref": f"#/$defs/{item}"}}
               for name, (item, most) in lists.items()},
        },
        "$defs": dict(defs),
    }


def repeated(entries: Iterable[Mapping[str, Any]], path: str, key: str, what: str) -> Iterator[CatalogueProblem]:
    """A problem for each entry of the list at ``path`` whose ``key`` an earlier entry has already (ids and names
    are unique in a catalogue): ``decks[3].name: deck 'crab' is already decks[0]'s name``."""
    first: dict[Any, int] = {}
    for i, entry in enumerate(entries):
        value = entry[key]
        if value in first:
            yield CatalogueProblem(child(child(path, i), key),
                                   f"{what} {value!r} is already {child(path, first[value])}'s {key}")
        first.setdefault(value, i)


class Named(Protocol):
    @property
    def name(self) -> str: ...


C = TypeVar("C", bound=Named)
D = TypeVar("D")


def _card_id(instance: str) -> str:
    return instance.split(".")[1]


class CardBook(Generic[C, D]):
    """A game's cards and decks, parsed from its catalogue (a system's card table): what its rules, bots and views
    read a card from (``card(instance)``, cached: a game's instance names repeat). One per catalogue content, shared
    by reference by every state of the games that play it and never copied; ``id`` is the catalogue's (None: the
    system's built-in data). ``card_id`` reads the card id out of an instance name (``p1.archer.3`` -> ``archer``)."""

    __slots__ = ("card", "cards", "decks", "id")

    def __init__(self, id: str | None, cards: dict[str, C], decks: dict[str, D],
                 card_id: Callable[[str], str] = _card_id) -> None:
        self.id = id
        self.cards = cards
        self.decks = decks

        @functools.lru_cache(maxsize=16384)
        def card(instance: str) -> C:
            return cards[card_id(instance)]

        self.card: Callable[[str], C] = card

    # A book is a value that never changes: copies are the book itself, and two books of the same catalogue (the
    # same content id) are equal; the built-in data's book (id None) is equal to itself only.
    def __copy__(self) -> CardBook[C, D]:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> CardBook[C, D]:
        return self

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CardBook):
            return NotImplemented
        return self is other or (self.id is not None and self.id == other.id)

    def __hash__(self) -> int:
        return hash(self.id) if self.id is not None else id(self)

    def name(self, instance: str | None, hidden: str = "a hidden card") -> str:
        """What a text calls an instance: its card's name; ``hidden`` for None (a card hidden from the view); the
        instance itself when it names no card of the book."""
        if instance is None:
            return hidden
        try:
            return self.card(instance).name
        except (KeyError, IndexError):
            return instance


_KNOWN: dict[str, CardBook[Any, Any]] = {}  # the books parsed in this process, by catalogue id (at most 64)


def known_book(key: str) -> CardBook[Any, Any] | None:
    """The book of catalogue ``key`` if this process has parsed it (any system's: an id hashes its system too)."""
    return _KNOWN.get(key)


def encode_book(value: Any) -> Any:
    """An ``enc_hook`` for msgspec: a state's ``CardBook`` is stored as its catalogue's id (a snapshot holds no
    cards; ``decode_book`` finds them again)."""
    if isinstance(value, CardBook):
        return value.id
    raise NotImplementedError(f"cannot encode {type(value).__name__}")


def decode_book(kind: type, value: Any) -> Any:
    """A ``dec_hook`` for msgspec: the ``CardBook`` of a catalogue id as ``encode_book`` stored it, when this process
    has parsed that catalogue; else a ``ValueError`` (the snapshot is not read: the game is folded from its events,
    whose game_started carries the catalogue)."""
    book = known_book(value) if isinstance(value, str) else None
    if book is None:
        raise ValueError(f"catalogue {value!r} is not parsed in this process")
    return book


class CardBooks(Generic[C, D]):
    """A system's ``CardBook``s: ``default``, its built-in data's (``default_document`` by ``card_table``), and the
    one of each catalogue document a game carries (``of``), parsed once per content and shared; ``in_game``: the
    cards a game's state plays (its ``catalogue``, None for the default)."""

    def __init__(self, card_table: Callable[[dict[str, Any]], tuple[dict[str, C], dict[str, D]]],
                 default_document: dict[str, Any], card_id: Callable[[str], str] = _card_id) -> None:
        def parse(canonical_json: bytes, key: str) -> CardBook[C, D]:
            return CardBook(key, *card_table(msgspec.json.decode(canonical_json)), card_id=card_id)

        self._parse = functools.lru_cache(maxsize=32)(parse)
        self.default: CardBook[C, D] = CardBook(None, *card_table(default_document), card_id=card_id)

    def known(self, key: object) -> CardBook[C, D]:
        """The book of catalogue ``key`` as this process last parsed it (a view drawn from a state's JSON, which
        names its catalogue by id, after the state was folded); the default for None or a catalogue not parsed."""
        book = _KNOWN.get(key) if isinstance(key, str) else None
        return self.default if book is None else book

    def in_game(self, state: Any) -> CardBook[C, D]:
        """The cards of the game ``state`` (a state or working state with a ``catalogue``) plays: the one way its
        rules, bots and views read a card."""
        book: CardBook[C, D] | None = state.catalogue
        return self.default if book is None else book

    def of(self, document: object) -> CardBook[C, D] | None:
        """The book of ``document`` (``game_started.catalogue``); None when there is none (absent: the default)."""
        if not isinstance(document, dict):
            return None
        raw = canonical(document)
        key = "c-" + hashlib.sha256(raw).hexdigest()[:32]  # catalogue_id(document)
        book = self._parse(raw, key)
        if _KNOWN.get(key) is not book:  # the books known by id: the latest first out
            _KNOWN[key] = book
            while len(_KNOWN) > 64:
                del _KNOWN[next(iter(_KNOWN))]
        return book


class Checking(Protocol):
    """What ``game_catalogue`` needs of a system's ``engine.system.Catalogues`` (the same two methods)."""

    def default(self) -> dict[str, Any]: ...

    def problems(self, document: Any) -> tuple[CatalogueProblem, ...]: ...


@dataclass(frozen=True, slots=True)
class GameCatalogue:
    """The catalogue a game plays: its document and content id, both None for the system's default."""

    document: dict[str, Any] | None = None
    id: str | None = None

    @property
    def is_default(self) -> bool:
        return self.document is None


DEFAULT_GAME_CATALOGUE = GameCatalogue()
CATALOGUE_RULE = "catalogue"  # the rule a SetupError names for a catalogue refused without a rule of the system's


def game_catalogue(setup: Mapping[str, Any], catalogues: Checking) -> GameCatalogue:
    """The catalogue of a setup (``setup["catalogue"]``: a document; absent or None: the default), checked again
    (the engine trusts no caller: a document handed to ``start`` directly is checked as ``POST /catalogues`` checks
    it). A system's ``start`` calls it and records ``document`` and ``id`` in its ``game_started`` when the game is
    not on the default (``is_default``). Raises SetupError ``invalid_catalogue`` naming the first problems (the
    rule a problem breaks, else ``catalogue``)."""
    document = setup.get("catalogue")
    if document is None:
        return DEFAULT_GAME_CATALOGUE
    if not isinstance(document, dict):
        raise SetupError("invalid_catalogue", CATALOGUE_RULE,
                         "setup catalogue must be the catalogue document (an API client names a stored catalogue by "
                         "its id, which the server resolves)")
    too_big = size_problem(document)
    problems = (too_big,) if too_big is not None else catalogues.problems(document)
    if problems:
        error = CatalogueError(problems)
        raise SetupError("invalid_catalogue", problems[0].rule or CATALOGUE_RULE, f"the catalogue: {error}")
    identity = catalogue_id(document)
    if identity == catalogue_id(catalogues.default()):
        return DEFAULT_GAME_CATALOGUE
    return GameCatalogue(document, identity)


__all__ = ["CATALOGUE_ID", "CATALOGUE_RULE", "CardBook", "CardBooks", "CatalogueError", "CatalogueProblem",
           "CatalogueRules", "CatalogueTooLarge", "Checking", "DEFAULT_GAME_CATALOGUE", "GameCatalogue",
           "JSON_SCHEMA_DIALECT", "MAX_CATALOGUE_BYTES", "MAX_CATALOGUE_ENTRIES", "army_names", "canonical",
           "catalogue_id", "child", "decode_book", "document_properties", "document_schema", "encode_book",
           "entries", "game_catalogue", "known_book", "map_names", "repeated", "setup_on_catalogue",
           "shape_problems", "size_problem"]
