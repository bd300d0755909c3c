"""engine.catalogue: content ids, size limits and shape errors by JSON path (issue 30)."""

from __future__ import annotations

from typing import Any

from engine.catalogue import (
    CATALOGUE_ID,
    CatalogueProblem,
    canonical,
    catalogue_id,
    shape_problems,
    size_problem,
)

SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["name", "cards"],
    "additionalProperties": False,
    "properties": {
        "name": {"type": "string", "minLength": 1},
        "cards": {"type": "array", "maxItems": 3, "items": {"$ref": "#/$defs/card"}},
    },
    "$defs": {"card": {"type": "object", "required": ["chi"], "properties": {
        "chi": {"type": "integer", "minimum": 0},
        "grid": {"type": "array", "items": {"type": "array", "prefixItems": [{"type": "integer"}]}},
    }}},
}


def test_catalogue_id_is_the_hash_of_the_canonical_json_whatever_the_key_order() -> None:
    a = {"name": "x", "cards": [{"chi": 1, "grid": [[0, 1]]}]}
    b = {"cards": [{"grid": [[0, 1]], "chi": 1}], "name": "x"}
    assert canonical(a) == canonical(b) == b'{"cards":[{"chi":1,"grid":[[0,1]]}],"name":"x"}'
    assert catalogue_id(a) == catalogue_id(b)
    assert CATALOGUE_ID.match(catalogue_id(a))
    assert catalogue_id(a) != catalogue_id({**a, "name": "y"})  # a change is a new catalogue


def test_shape_errors_name_every_problem_by_json_path() -> None:
    document = {"cards": [{"chi": 1}, {"chi": -2}, {"grid": [["a"]]}, "card"], "extra": 1}
    assert shape_problems(SCHEMA, document) == (
        CatalogueProblem("name", "is required"),
        CatalogueProblem("cards", "must have at most 3 entries"),
        CatalogueProblem("extra", "is not a field of this catalogue"),
    )
    document = {"name": "", "cards": [{"chi": 1}, {"chi": -2}, {"grid": [["a"]]}]}
    assert shape_problems(SCHEMA, document) == (
        CatalogueProblem("name", "must have at least 1 characters"),
        CatalogueProblem("cards[1].chi", "must be >= 0"),
        CatalogueProblem("cards[2].chi", "is required"),
        CatalogueProblem("cards[2].grid[0][0]", "must be an integer"),
    )


def test_a_boolean_is_not_a_number_and_the_whole_document_must_be_an_object() -> None:
    assert shape_problems(SCHEMA, {"name": "x", "cards": [{"chi": True}]}) == (
        CatalogueProblem("cards[0].chi", "must be an integer"),)
    assert shape_problems(SCHEMA, []) == (CatalogueProblem("", "must be an object"),)


def test_size_limits_refuse_too_many_bytes_or_entries() -> None:
    assert size_problem({"cards": [1, 2, 3]}, max_bytes=100, max_entries=3) is None
    too_many = size_problem({"cards": [[1, 2], 3]}, max_bytes=100, max_entries=3)
    assert too_many is not None and too_many.rule == "size" and "4 list entries" in too_many.message
    too_big = size_problem({"name": "x" * 200}, max_bytes=100)
    assert too_big is not None and "limit is 100" in too_big.message
