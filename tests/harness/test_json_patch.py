"""testsupport.json_patch, the load generator's patch applier, against jsonpatch (the reference):
the same views after the room's patches and after jsonpatch's own (move and copy ops included),
and the same refusals."""

import copy
import itertools
import random
from typing import Any

import jsonpatch
import jsonpointer
import pytest

from games.engine import Game
from games.engine.playout import random_legal_action
from games.rooms.patches import view_patch
from testsupport.json_patch import apply_in_place


def views_of_a_game(seed: int, moves: int) -> list[dict]:
    """South's view after each of `moves` random legal moves."""
    game, rng = Game.new(seed), random.Random(seed)
    views = [game.view("S")]
    for _ in range(moves):
        if game.turn is None:
            break
        game.apply(game.turn, random_legal_action(game, game.turn, rng))
        views.append(game.view("S"))
    return views


@pytest.mark.parametrize("diff", [view_patch, lambda before, after: jsonpatch.make_patch(before, after).patch])
def test_the_plain_applier_patches_as_jsonpatch_does(diff):
    views = views_of_a_game(5, 400)
    view = copy.deepcopy(views[0])
    for before, after in itertools.pairwise(views):
        ops = copy.deepcopy(diff(before, after))  # the view takes the ops' values, as from a frame
        assert jsonpatch.apply_patch(before, ops) == after
        view = apply_in_place(view, copy.deepcopy(ops))
        assert view == after


def test_move_copy_and_test_ops_go_to_jsonpatch():
    document = {"a": [1, 2, 3], "b": {"c": 1}}
    ops: list[dict[str, Any]] = [
        {"op": "move", "from": "/a/0", "path": "/a/-"},
        {"op": "copy", "from": "/b", "path": "/d"},
        {"op": "test", "path": "/d/c", "value": 1},
        {"op": "add", "path": "/a/1", "value": 9},
        {"op": "replace", "path": "", "value": {"whole": True}},
    ]
    assert apply_in_place(copy.deepcopy(document), ops[:4]) == {"a": [2, 9, 3, 1], "b": {"c": 1}, "d": {"c": 1}}
    assert apply_in_place(document, ops) == {"whole": True}


@pytest.mark.parametrize(
    "op",
    [
        {"op": "replace", "path": "/missing", "value": 1},
        {"op": "remove", "path": "/missing"},
        {"op": "add", "path": "/list/4", "value": 1},
        {"op": "replace", "path": "/list/3", "value": 1},
        {"op": "remove", "path": "/list/01"},
        {"op": "add", "path": "/list/-1", "value": 1},
        {"op": "add", "path": "/nowhere/x", "value": 1},
        {"op": "add", "path": "/scalar/x", "value": 1},
    ],
)
def test_an_op_that_does_not_apply_is_refused_as_by_jsonpatch(op):
    document = {"list": [1, 2, 3], "scalar": 5}
    refusals = (jsonpatch.JsonPatchException, jsonpointer.JsonPointerException)
    with pytest.raises(refusals):
        jsonpatch.apply_patch(document, [op])
    with pytest.raises(refusals):
        apply_in_place(copy.deepcopy(document), [op])


def test_escaped_keys_are_unescaped():
    document = {"a/b": {"~c": 1}}
    assert apply_in_place(document, [{"op": "replace", "path": "/a~1b/~0c", "value": 2}]) == {"a/b": {"~c": 2}}
