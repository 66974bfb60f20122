"""Property tests: random legal games, with every invariant checked after every action.

A game is driven from Game.new(seed) to its end (four deals) by a random player that builds
candidate actions from the seat's view and options (draws, pile takes with extra cards and
groups, new melds, additions, first lay-downs of several groups, discards), keeps those check()
accepts, and prefers melding so that feet get picked up and players sometimes go out. After every
action: the 270 cards are all there once, the position round-trips, every view shows only what
its seat may see, options agree with check(), and some refused action leaves the game unchanged.
At the end, replaying the seed and the action log gives the same final position.
"""

import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import Game, RuleError, redact_events
from games.engine.rules import STANDARD

from .helpers import DRAW, SEATS, assert_refused, count_all_cards
from .test_notation import hidden_cards_absent

WILD = ("2", "J")  # first letters of 2x and JK
MAX_ACTIONS = 6000


def is_wild(card):
    return card == "JK" or card[0] == "2"


def is_natural(card):
    return not is_wild(card) and card[0] != "3"


def expand(hand):
    return sorted(c for c, n in hand.items() for _ in range(n))


def natural_groups(hand, rng):
    """Some new melds the hand could make: naturals of a rank, with at most one wild card."""
    held = expand(hand)
    wilds = [c for c in held if is_wild(c)]
    groups = []
    for rank in sorted({c[0] for c in held if is_natural(c)}):
        naturals = [c for c in held if is_natural(c) and c[0] == rank]
        if len(naturals) >= 3:
            groups.append(naturals[:3])
            groups.append(naturals[:7])
        if len(naturals) >= 2 and wilds:
            groups.append(naturals[:2] + wilds[:1])
        if len(naturals) >= 4 and len(wilds) >= 2:
            groups.append(naturals[:4] + wilds[:2])
    if len(wilds) >= 3:
        groups.append(wilds[:3])
        groups.append(wilds[:7])
    rng.shuffle(groups)
    return groups


def fits(hand, used):
    return not (Counter(used) - hand)


def lay_downs(hand, rng):
    """Several disjoint new melds in one action (a first lay-down, or just more melds)."""
    groups = natural_groups(hand, rng)
    found = []
    for size in (2, 3):
        chosen: list[list[str]] = []
        used: list[str] = []
        for group in groups:
            if len(chosen) == size:
                break
            rank = "wild" if is_wild(group[0]) else group[0][0]
            if rank in [("wild" if is_wild(g[0]) else g[0][0]) for g in chosen]:
                continue
            if fits(hand, used + group):
                chosen.append(group)
                used += group
        if len(chosen) == size:
            found.append({"type": "meld", "groups": [{"cards": g} for g in chosen]})
    return found


def take_candidates(view, options, hand, rng):
    if not view["discard"]:
        return [{"type": "take_pile", "cards": []}]
    top = view["discard"][-1]
    matching = options["pile_cards"]
    pair = matching[:2] if len(matching) >= 2 else (matching + [top])[:2]
    rest = hand - Counter(pair)
    wilds = [c for c in expand(rest) if is_wild(c)]
    extra_naturals = [c for c in expand(rest) if is_natural(top) and is_natural(c) and c[0] == top[0]]
    found = [{"type": "take_pile", "cards": pair}]
    if extra_naturals:
        found.append({"type": "take_pile", "cards": pair + extra_naturals})
    if wilds and is_natural(top):
        found.append({"type": "take_pile", "cards": pair + wilds[:1]})
    for group in natural_groups(rest, rng)[:3]:
        found.append({"type": "take_pile", "cards": pair, "groups": [{"cards": group}]})
    for action in lay_downs(rest, rng)[:1]:
        found.append({"type": "take_pile", "cards": pair, "groups": action["groups"]})
    return found


def meld_candidates(options, hand, rng):
    found = [{"type": "meld", "groups": [{"cards": g}]} for g in natural_groups(hand, rng)]
    found += lay_downs(hand, rng)
    for rank, codes in options["add_to"].items():
        for code in codes:
            found.append({"type": "meld", "groups": [{"cards": [code], "to": rank}]})
        same = [c for c in expand(hand) if rank != "wild" and is_natural(c) and c[0] == rank]
        if len(same) > 1:
            found.append({"type": "meld", "groups": [{"cards": same, "to": rank}]})
    return found


def candidates(game, seat, rng):
    """(kind, action) pairs built from the view and options, before check() filtering."""
    view = game.view(seat)
    options = view["options"]
    hand = Counter(view["hand"])
    found = [("draw", DRAW)]
    found += [("take", a) for a in take_candidates(view, options, hand, rng)]
    found += [("meld", a) for a in meld_candidates(options, hand, rng)]
    found += [("discard", {"type": "discard", "card": c}) for c in sorted(hand)]
    return view, options, found


def check_options_agree(game, seat, options, checked):
    """options() must say exactly what check() allows, for the candidates we tried."""
    ok_kinds = {kind for kind, action, result in checked if result["ok"]}
    assert options["draw"] == ("draw" in ok_kinds)
    assert options["discard"] == ("discard" in ok_kinds)
    if "take" in ok_kinds:
        assert options["take_pile"] is True
    if "meld" in ok_kinds:
        assert options["meld"] is True
    for rank, codes in options["add_to"].items():
        for code in codes:  # "could legally be added one at a time right now"
            result = game.check(seat, {"type": "meld", "groups": [{"cards": [code], "to": rank}]})
            assert result["ok"], (rank, code, result)


def check_invariants(game, events, acting_seat):
    pos = game.to_position()
    count_all_cards(pos)
    assert Game.from_position(pos).to_position() == pos
    assert json.loads(json.dumps(pos)) == pos
    for seat in SEATS:
        hidden_cards_absent(game, seat)
        for event in redact_events(events, seat):
            if event["type"] == "draw" and event["seat"] != seat:
                assert "cards" not in event or not event["cards"]
    public = game.public_view()
    assert "hand" not in public and '"seed"' not in json.dumps(public)
    # A seat's view built on the public view the caller has is the same view, keys in the same order.
    assert json.dumps(game.view(acting_seat, public)) == json.dumps(game.view(acting_seat))
    for event in redact_events(events, None):
        if event["type"] == "draw":
            assert not event.get("cards")
    if pos["phase"] != "over":
        seat = pos["turn"]
        # R25 step 1: never a player about to draw with an empty hand and an unpicked foot.
        assert not (pos["phase"] == "draw" and not pos["hands"][seat] and pos["feet"][seat] is not None)


def discard_preference(card, hand, view, seat):
    """Lower is thrown first: black threes, then lone naturals the team cannot use, wild last."""
    team = "NS" if seat in "NS" else "EW"
    open_ranks = {m["rank"] for m in view["melds"][team].values() if m["status"] == "incomplete"}
    if card[0] == "3":
        return 0
    if is_wild(card):
        return 9
    if card[0] in open_ranks:
        return 5
    return 1 + min(hand[c] for c in hand if c[0] == card[0])


def choose(rng, accepted, melds_this_turn, game=None, seat=None):
    by_kind: dict[str, list[Any]] = {}
    for kind, action in accepted:
        by_kind.setdefault(kind, []).append(action)
    if "take" in by_kind and rng.random() < 0.7:
        return rng.choice(by_kind["take"])
    if "draw" in by_kind:
        return DRAW
    if "meld" in by_kind and (rng.random() < 0.95 or "discard" not in by_kind) and melds_this_turn < 12:
        return rng.choice(by_kind["meld"])
    if "discard" in by_kind:
        if game is None or rng.random() < 0.2:
            return rng.choice(by_kind["discard"])
        view = game.view(seat)
        hand = Counter(view["hand"])
        return min(by_kind["discard"], key=lambda a: (discard_preference(a["card"], hand, view, seat), rng.random()))
    return rng.choice([a for k, a in accepted])


def play_random_game(seed, rng, check_every=1, deals=4, start=None, rules=STANDARD):
    """Play a game (from Game.new(seed) under `rules`, or from the position `start`) to its end
    or past deal `deals`; returns (game, log, stats)."""
    game = Game.new(seed=seed, rules=rules) if start is None else Game.from_position(start)
    log = []
    stats: Counter[str] = Counter()
    melds_this_turn = 0
    for step in range(MAX_ACTIONS):
        pos = game.to_position()
        if pos["phase"] == "over" or pos["deal"] > deals or (start and pos["deal"] > start["deal"]):
            break
        seat = game.turn
        assert seat is not None  # the game is not over
        _view, options, found = candidates(game, seat, rng)
        checked = [(kind, action, game.check(seat, action)) for kind, action in found]
        assert game.to_position() == pos, "check() changed the game"
        check_options_agree(game, seat, options, checked)
        accepted = [(kind, action) for kind, action, result in checked if result["ok"]]
        refused = [(kind, action, result) for kind, action, result in checked if not result["ok"]]
        assert accepted, f"no legal action for {seat} in {pos}"
        if refused and step % 7 == 0:
            _kind, action, result = rng.choice(refused)
            assert_refused(game, seat, action, code=result["code"])
        if step % 13 == 0:
            other = SEATS[(SEATS.index(seat) + 1 + rng.randrange(3)) % 4]
            assert_refused(game, other, DRAW, code="not_your_turn")
        action = choose(rng, accepted, melds_this_turn, game, seat)
        events = game.apply(seat, action)
        log.append((seat, action))
        stats[action["type"]] += 1
        if action["type"] == "meld" and game.turn == seat:
            melds_this_turn += 1
        else:
            melds_this_turn = 0
        for event in events:
            if event["type"] in ("go_out", "foot", "red_three"):
                stats[event["type"]] += 1
            if event["type"] == "deal_end":
                stats["deal_end_" + event["reason"]] += 1
            if event["type"] == "meld" and len(event["groups"]) > 1:
                stats["multi_group"] += 1
        if step % check_every == 0:
            check_invariants(game, events, seat)
    else:
        raise AssertionError("the game did not end")
    return game, log, stats


def assert_replays(seed, game, log):
    replay = Game.new(seed=seed, rules=game.rules)
    for seat, action in log:
        replay.apply(seat, action)
    assert replay.to_position() == game.to_position()


@settings(max_examples=2, deadline=None, database=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**31), player=st.integers(min_value=0, max_value=2**31))
def test_random_games_keep_every_invariant(seed, player):  # R1, R22, R57, R59
    game, log, _ = play_random_game(seed, random.Random(player), check_every=3)
    assert game.to_position()["phase"] == "over"
    assert len(game.scores()["deals"]) == 4
    assert_replays(seed, game, log)


@settings(max_examples=10, deadline=None, database=None, derandomize=True)
@given(seed=st.integers(min_value=0, max_value=2**31), steps=st.integers(min_value=1, max_value=60))
def test_random_prefixes_round_trip_every_step(seed, steps):  # R59
    rng = random.Random(seed)
    game = Game.new(seed=seed)
    log = []
    for _ in range(steps):
        seat = game.turn
        assert seat is not None
        _, _, found = candidates(game, seat, rng)
        accepted = [(k, a) for k, a in found if game.check(seat, a)["ok"]]
        action = choose(rng, accepted, 0)
        events = game.apply(seat, action)
        log.append((seat, action))
        check_invariants(game, events, seat)
    assert_replays(seed, game, log)


@pytest.mark.slow
@settings(
    max_examples=40, deadline=None, database=None, derandomize=False, suppress_health_check=[HealthCheck.too_slow]
)
@given(seed=st.integers(min_value=0, max_value=2**31), player=st.integers(min_value=0, max_value=2**31))
def test_many_random_games(seed, player):  # R1, R22, R59
    game, log, _ = play_random_game(seed, random.Random(player), check_every=1)
    assert_replays(seed, game, log)


def test_random_play_exercises_the_rules():
    """The driver really reaches takes, melds of several groups, feet and going out."""
    total: Counter[str] = Counter()
    for seed in (1, 2):
        _, _, stats = play_random_game(seed, random.Random(seed), check_every=50, deals=2)
        total += stats
    assert total["take_pile"] > 0 and total["meld"] > 0 and total["discard"] > 0
    assert total["foot"] > 0 and total["multi_group"] > 0
    assert total["deal_end_stock"] + total["deal_end_out"] == 4


def test_refused_garbage_during_play_changes_nothing():
    rng = random.Random(3)
    game = Game.new(seed=3)
    garbage: list[Any] = [  # not all of them actions: the engine must refuse each and change nothing
        {"type": "meld", "groups": [{"cards": ["9C", "9C", "9C", "9C", "9C", "9C"]}]},
        {"type": "discard", "card": "3H"},
        {"type": "take_pile", "cards": ["JK", "JK"]},
        {"type": "meld", "groups": [{"cards": ["2C"], "to": "wild"}]},
        {"type": "draw"},
    ]
    for _ in range(30):
        seat = game.turn
        assert seat is not None
        for action in garbage:
            if not game.check(seat, action)["ok"]:
                before = game.to_position()
                with pytest.raises(RuleError):
                    game.apply(seat, action)
                assert game.to_position() == before
        _, _, found = candidates(game, seat, rng)
        accepted = [(k, a) for k, a in found if game.check(seat, a)["ok"]]
        game.apply(seat, choose(rng, accepted, 0))
    count_all_cards(game.to_position())


def near_going_out(seed):
    """North–South hold the five piles R49b asks for; South and North are in their feet with
    cards the hypothesis seed chooses; the rest is filler. Random play from here goes out."""
    from .helpers import GOING_OUT_PILES, position

    rng = random.Random(seed)
    pool = "4C 4D 6C 6D 6H 7C 7D 7H 9C 9D 9H 9S TC TD TH JC JD AC AD 2D 3C".split()
    south = rng.sample(pool, rng.randrange(3, 8))
    north = rng.sample([c for c in pool if c not in south], rng.randrange(2, 6))
    return position(
        seed=seed,
        hands={"S": " ".join(south), "N": " ".join(north)},
        feet={"S": None, "N": None},
        melds={"NS": GOING_OUT_PILES},
        discard="5S",
    )


@settings(max_examples=10, deadline=None, database=None, derandomize=True)
@given(seed=st.integers(min_value=0, max_value=2**31))
def test_random_play_near_going_out(seed):  # R47, R48, R49, R54
    start = near_going_out(seed)
    game, log, stats = play_random_game(seed, random.Random(seed), start=start)
    replay = Game.from_position(start)
    for seat, action in log:
        replay.apply(seat, action)
    assert replay.to_position() == game.to_position()
    deal = game.scores()["deals"][0]
    if stats["go_out"]:
        team = next(t for t in ("NS", "EW") if deal[t]["going_out"] == 100)
        assert deal["NS" if team == "EW" else "EW"]["going_out"] == 0


def test_going_out_is_reached_by_random_play():  # R48
    outs = 0
    for seed in range(6):
        _, _, stats = play_random_game(seed, random.Random(seed), start=near_going_out(seed), check_every=5)
        outs += stats["go_out"]
    assert outs > 0
