"""The bots' reasons (games.bots.reasons): made by the decision that chose the move, and naming
nothing a seat cannot see once the move is made — only counts, ranks of cards now on the table
and pile kinds — over whole games of the normal and the hard bot (as tests/rooms/test_hidden.py
checks the room's messages)."""

import random

import pytest

from games.bots import hard, make_bot, normal
from games.bots.base import ViewChecker
from games.bots.cards import NATURAL_RANKS, WILD, is_wild
from games.bots.reasons import CODES, reason, valid

from .support import Game

PUBLIC_COUNTS = ("cards", "points", "minimum", "gain", "worlds")


def rank_of(card: str) -> str | None:
    """The rank a reason would name for `card`: its natural rank, "wild", or None (a three)."""
    if is_wild(card):
        return WILD
    return card[0] if card[0] in NATURAL_RANKS else None


def public_ranks(game: Game) -> set[str]:
    """The ranks of every card every seat sees: the discard pile and the melds on the table (R36, R15)."""
    position = game.to_position()
    cards = (position["discard"] or "").split()
    for team in ("NS", "EW"):
        for meld in position["melds"][team]:
            cards += meld.split()
    return {rank for rank in map(rank_of, cards) if rank is not None}


def assert_names_only_public(why: dict, game_after: Game, events: list, action: dict, view: dict) -> None:
    assert valid(why), why
    params = why["params"]
    for name, value in params.items():
        if name == "rank":
            assert value in public_ranks(game_after), f"{why} names a rank not on the table"
        elif name == "pile":
            assert value in ("clean", "dirty", "wild")
        else:
            assert name in PUBLIC_COUNTS and isinstance(value, int), why
    code = why["code"]
    if code.startswith("take_"):  # R29: the count is the take's own public count, the rank the top card's
        take = next(e for e in events if e["type"] == "take_pile")
        assert action["type"] == "take_pile" and params["cards"] == take["count"]
    if code.startswith("discard_"):  # the discarded card, never what stays in the hand
        assert action["type"] == "discard"
        assert set(params) <= {"rank"} and params.get("rank", rank_of(action["card"])) == rank_of(action["card"])
    if code == "go_out_partner_low":
        partner = {"S": "N", "N": "S", "W": "E", "E": "W"}[view["seat"]]
        assert params["cards"] == view["seats"][partner]["cards"] <= 6  # a count every seat sees


def play_explained(bots: dict, seed: int, max_plies: int = 3000) -> dict:
    """A whole game, every move checked; the reason codes seen, counted."""
    game = Game.new(seed=seed)
    seen: dict[str, int] = {}
    for _ in range(max_plies):
        seat = game.turn
        if seat is None:
            break
        view = game.view(seat)
        action, why = bots[seat].act_explained(view)
        events = game.apply(seat, action)
        if why is not None:
            assert_names_only_public(why, game, events, action, view)
            seen[why["code"]] = seen.get(why["code"], 0) + 1
    assert game.turn is None
    return seen


def test_a_reason_refuses_anything_but_counts_ranks_and_pile_kinds():
    made = reason("take_grow_meld", cards=5, rank="K")
    assert made == {"code": "take_grow_meld", "params": {"cards": 5, "rank": "K"}}
    with pytest.raises(ValueError, match="is not a rank"):
        reason("discard_least_needed", rank="KS")  # a card code: what a hand holds
    with pytest.raises(ValueError, match="takes no param"):
        reason("take_pile", cards=3, rank="K", card="KS")  # a param the code does not take
    with pytest.raises(ValueError, match="is not a count"):
        reason("first_meld", points="90")
    with pytest.raises(ValueError, match="is not a count"):
        reason("first_meld", points=True)
    with pytest.raises(ValueError, match="is not a pile"):
        reason("complete_pile", pile="KS")
    with pytest.raises(ValueError, match="unknown reason code"):
        reason("kept_the_kings")
    assert not valid({"code": "take_pile", "params": {"cards": 3, "rank": "QH"}})
    assert not valid({"code": "take_pile", "params": {"cards": 3, "rank": "Q"}, "cards": ["QH"]})
    assert valid({"code": "take_pile", "params": {"cards": 3, "rank": "Q"}})


def test_every_normal_reason_over_whole_games_names_only_what_is_public():
    seen: dict[str, int] = {}
    for seed in range(3):
        bots = {seat: make_bot("normal", index) for index, seat in enumerate("SWNE")}
        for code, count in play_explained(bots, seed).items():
            seen[code] = seen.get(code, 0) + count
    # the games met the decisions of every phase
    assert {"draw_stock", "take_pile", "first_meld", "complete_pile", "discard_least_needed"} <= set(seen)
    assert set(seen) <= set(CODES)


@pytest.mark.slow
def test_every_hard_reason_over_a_whole_game_names_only_what_is_public():
    bots = {seat: make_bot("hard", index, iterations=8, depth=4) for index, seat in enumerate("SWNE")}
    seen = play_explained(bots, 1)
    assert "search_override" in seen


def first_view(seed: int, wanted) -> tuple[Game, dict]:
    """The first view in a normal game of `seed` whose seat's normal decision `wanted` accepts."""
    game = Game.new(seed=seed)
    bot = make_bot("normal", 0)
    while game.turn is not None:
        seat = game.turn
        view = game.view(seat)
        if wanted(view, normal.explain(view, ViewChecker(view))):
            return game, view
        game.apply(seat, bot.act(view))
    raise AssertionError("no such decision in the game")


def test_a_take_for_the_first_meld_says_so_with_the_pile_and_the_top_rank():  # R29d, R37
    def takes_before_down(view, decision):
        action, _why = decision
        return action["type"] == "take_pile" and not view["down"]["NS" if view["seat"] in "NS" else "EW"]

    _game, view = first_view(0, takes_before_down)
    action, why = normal.explain(view, ViewChecker(view))
    top_rank = rank_of(view["discard"][-1])
    assert action is not None and top_rank is not None
    assert why == reason("take_first_meld", cards=min(7, len(view["discard"])), rank=top_rank)
    assert action.get("groups")  # the groups that reach the minimum went down with the take


def test_a_discard_names_the_discarded_rank_and_nothing_kept():  # R36
    def discards_a_natural_it_also_keeps(view, decision):
        action = decision[0]
        if action["type"] != "discard" or rank_of(action["card"]) in (None, WILD):
            return False
        return view["hand"][action["card"]] > 1

    game, view = first_view(0, discards_a_natural_it_also_keeps)
    action, why = normal.explain(view, ViewChecker(view))
    assert action is not None and why is not None
    rank = action["card"][0]
    assert why == reason("discard_least_needed", rank=rank)
    game.apply(view["seat"], action)
    # the only rank it names is the discarded card's, public now on the pile; the copy kept is not told
    assert set(why["params"]) == {"rank"} and rank in public_ranks(game)


def test_the_hard_bot_gives_its_search_as_the_reason_only_when_the_search_overrides(monkeypatch):
    _game, view = first_view(2, lambda view, decision: decision[0]["type"] == "discard")
    base, base_why = normal.explain(view, ViewChecker(view))
    bot = hard.HardBot(seed=1, iterations=48)

    monkeypatch.setattr(hard, "rollout", lambda game, seat, action, depth: 0.0)
    assert bot.choose_explained(view, random.Random(1), ViewChecker(view)) == (base, base_why)

    monkeypatch.setattr(hard, "rollout", lambda game, seat, action, depth: 0.0 if action == base else 200.0)
    action, why = bot.choose_explained(view, random.Random(1), ViewChecker(view))
    assert why is not None
    assert action != base and why["code"] == "search_override" and why["params"]["gain"] == 200
    assert 0 < why["params"]["worlds"] <= 48
