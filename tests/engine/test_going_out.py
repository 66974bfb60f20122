"""Going out (docs/RULES.md §10): melding or discarding the last foot card, and its conditions."""

from .helpers import (
    GOING_OUT_PILES,
    assert_accepted,
    assert_refused,
    cards,
    discard,
    game_at,
    meld,
)

Q_MELD = "QD QH QS QC"


def south_in_foot(foot, melds=None, north_hand="9H 9D", north_foot=None, **kw):
    """South in the foot, to meld; North–South hold the five piles plus `melds`."""
    return game_at(
        hands={"S": foot, "N": north_hand},
        feet={"S": None, "N": north_foot},
        phase="play",
        melds={"NS": GOING_OUT_PILES + (melds or [])},
        **kw,
    )


def assert_went_out(game, events, seat="S"):
    team = "NS" if seat in "NS" else "EW"
    assert {"type": "go_out", "seat": seat, "team": team} in events
    end = next(e for e in events if e["type"] == "deal_end")
    assert end["reason"] == "out" and end["deal"] == 1
    assert game.to_position()["deal"] == 2
    score = game.scores()["deals"][0]
    team = "NS" if seat in "NS" else "EW"
    assert score[team]["going_out"] == 100


def test_going_out_by_melding_the_last_card():  # R48
    game = south_in_foot("QC QD", [Q_MELD])
    assert game.options("S")["may_go_out"] is True
    events = assert_accepted(game, "S", meld("QC QD", to="Q"))
    assert not any(e["type"] == "discard" for e in events)
    assert_went_out(game, events)


def test_going_out_by_discarding_the_last_card():  # R48, E12
    game = south_in_foot("QC QD 9S", [Q_MELD])
    assert_accepted(game, "S", meld("QC QD", to="Q"))
    events = assert_accepted(game, "S", discard("9S"))
    assert_went_out(game, events)


def test_no_going_out_from_the_hand():  # R49a
    game = game_at(hands={"S": "QC QD"}, feet={"N": None}, phase="play", melds={"NS": GOING_OUT_PILES + [Q_MELD]})
    assert game.options("S")["may_go_out"] is False
    events = assert_accepted(game, "S", meld("QC QD", to="Q"))
    assert not any(e["type"] == "go_out" for e in events)
    assert game.to_position()["feet"]["S"] is None  # the foot was picked up instead


def test_the_team_needs_two_clean_two_dirty_and_one_wild():  # R49b
    for missing in range(5):
        piles = [p for i, p in enumerate(GOING_OUT_PILES) if i != missing]
        game = game_at(
            hands={"S": "QC QD 9S", "N": "9H 9D"},
            feet={"S": None, "N": None},
            phase="play",
            melds={"NS": piles + [Q_MELD]},
        )
        assert game.options("S")["may_go_out"] is False
        assert_refused(game, "S", meld("QC QD", to="Q"), rule=("R47", "R49"))


def test_piles_completed_in_the_same_turn_count():  # R49b, E13
    piles = GOING_OUT_PILES[:4] + ["2C 2D JK JK 2H 2S"]
    game = game_at(hands={"S": "JK 8C", "N": "9H 9D"}, feet={"S": None, "N": None}, phase="play", melds={"NS": piles})
    assert_accepted(game, "S", meld("JK", to="wild"))
    events = assert_accepted(game, "S", discard("8C"))
    assert_went_out(game, events)


def test_the_partner_must_have_picked_up_the_foot():  # R49c
    game = south_in_foot(
        "QC QD 9S", [Q_MELD], north_hand="", north_foot="7C 7D 7H 7S 8C 8D 8H 8S 9C 9D 9H 9S TC", turn="S"
    )
    assert game.options("S")["may_go_out"] is False
    assert_refused(game, "S", meld("QC QD", to="Q"), rule=("R47", "R49"))


def test_the_partner_still_in_the_hand_blocks_going_out():  # R49c
    game = south_in_foot("QC QD 9S", [Q_MELD], north_foot="7C 7D 7H 7S 8C 8D 8H 8S 9C 9D 9H 9S TC")
    assert_refused(game, "S", meld("QC QD", to="Q"), rule=("R47", "R49"))


def test_no_permission_step():  # R49d
    game = south_in_foot("QC QD 9S", [Q_MELD])
    assert game.options("S")["may_go_out"] is True
    assert_accepted(game, "S", meld("QC QD", to="Q"))
    assert_accepted(game, "S", discard("9S"))  # nobody is asked


def test_going_out_is_optional():  # R50
    game = south_in_foot("QC QD 9S 7H", [Q_MELD])
    assert game.options("S")["may_go_out"] is True
    events = assert_accepted(game, "S", discard("9S"))
    assert not any(e["type"] == "go_out" for e in events)
    assert game.to_position()["deal"] == 1 and game.turn == "W"
    assert sorted(cards(game.to_position()["hands"]["S"])) == sorted(cards("QC QD 7H"))


def test_a_take_may_leave_one_card_when_going_out_is_allowed():  # R47, R29e
    from .helpers import take

    game = game_at(
        hands={"S": "9C 9S", "N": "4C 4D"}, feet={"S": None, "N": None}, discard="4H 9D", melds={"NS": GOING_OUT_PILES}
    )
    assert_accepted(game, "S", take("9C 9S"))
    assert cards(game.to_position()["hands"]["S"]) == ["4H"]
    events = assert_accepted(game, "S", discard("4H"))
    assert any(e["type"] == "go_out" for e in events)


def test_one_card_left_must_go_out():  # R47
    game = south_in_foot("QC QD 9S", [Q_MELD])
    assert_accepted(game, "S", meld("QC QD", to="Q"))
    assert game.options("S")["discard"] is True and game.options("S")["may_go_out"] is True


def test_cannot_go_out_names_what_is_missing():  # R49
    # The reason is part of the message the player reads: exact wording.
    game = game_at(hands={"S": "9S"}, feet={"S": None}, phase="play", melds={"NS": ["KC KD KH KS KC KD KH"]})
    error = assert_refused(game, "S", discard("9S"), code="cannot_go_out", rule="R49")
    assert error.params == {
        "reason": "your partner has not picked up their foot",
        "clean": 1,
        "dirty": 2,
        "wild": 1,  # what the team still needs (R49b), for the translated text
        "partner_in_foot": False,
    }
    game = game_at(
        hands={"S": "9S", "N": "4C 4D"},
        feet={"S": None, "N": None},
        phase="play",
        melds={"NS": ["KC KD KH KS KC KD KH"]},
    )
    error = assert_refused(game, "S", discard("9S"), code="cannot_go_out", rule="R49")
    assert error.params == {
        "reason": "your team still needs 1 clean, 2 dirty, 1 wild pile(s)",
        "clean": 1,
        "dirty": 2,
        "wild": 1,
        "partner_in_foot": True,
    }
    assert error.message == "You cannot go out yet: your team still needs 1 clean, 2 dirty, 1 wild pile(s)."


def test_cannot_go_out_counts_the_piles_the_meld_would_complete():  # R49, R47
    game = game_at(
        hands={"S": "5C 5D 5H", "N": "4C 4D"},
        feet={"S": None, "N": None},
        phase="play",
        melds={"NS": ["KC KD KH KS KC KD KH", "5C 5D 5H 5S"]},
    )
    error = assert_refused(game, "S", meld("5C 5D 5H", to="5"), code="cannot_go_out", rule="R49")
    assert error.params == {
        "reason": "your team still needs 2 dirty, 1 wild pile(s)",
        "clean": 0,
        "dirty": 2,
        "wild": 1,  # the meld would complete the second clean pile (R49b)
        "partner_in_foot": True,
    }
