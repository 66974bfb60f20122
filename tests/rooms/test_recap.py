"""The recap a friend who comes back is shown (issue 15, item 3: "sees what happened while he was
away (the log since he left)"): built from the stored moves since his seat lost its socket, not
from a bounded list kept in memory, so a long absence, a deal end (R51) or another process loses
nothing; the last RECAP_MOVES moves with the count of the earlier ones; each move's events
exactly as its patch told them to his seat, so never a card hidden from it (R3: another hand, a
foot not picked up, the stock).

A whole game is played once by the real `normal` bots for every seat (West's moves are the
computer's while West is away), through the room's `apply_move`, keeping what each move's patch
told West and the positions before and after it.
"""

import datetime
from dataclasses import dataclass

import pytest
from django.utils import timezone

from games import bots
from games.engine import Game as EngineGame
from games.models import SEATS, Game, Move
from games.rooms import recap as recap_module
from games.rooms.creation import create_game, join_game, start_friends_game
from games.rooms.moves import apply_move
from games.rooms.recap import RECAP_MOVES, recap_for
from players.models import Player

from .live import cards_in
from .test_hidden import RED_THREES, own_drawn_cards, visible_cards

SEED = 0  # test_hidden's deal: a whole game the engine plays to its end


@dataclass
class Played:
    game_id: str
    told: dict  # version -> the events that version's patch told West
    positions: list  # the stored position after each version (index 0: the deal)
    actions: dict  # version -> the action stored for it


@pytest.fixture(scope="module")
def recording(django_db_setup, django_db_blocker):
    """One whole friends game, Alice at South and Bob at West, every seat moved by a `normal` bot,
    played once for the module; with its rows, to put back for a test that finds them gone."""
    with django_db_blocker.unblock():
        host, friend = Player.objects.create(nickname="Alice"), Player.objects.create(nickname="Bob")
        game, _ = create_game(host, "friends", "normal")
        Game.objects.filter(pk=game.id).update(seed=SEED)
        join_game(game.id, friend, "W")
        start_friends_game(game.id, host)
        players = {seat: bots.make_bot("normal", index) for index, seat in enumerate(SEATS)}
        stored = Game.objects.get(pk=game.id)
        positions, told, actions = [stored.position], {}, {}
        while True:
            engine_game = EngineGame.from_position(positions[-1])
            seat = engine_game.turn
            if seat is None:
                break
            action, reason = players[seat].act_explained(engine_game.view(seat))
            result = apply_move(game.id, seat, action, len(positions) - 1, reason)
            told[result.version], actions[result.version] = result.parts["W"]["events"], action
            positions.append(Game.objects.get(pk=game.id).position)
        rows = (
            list(Player.objects.filter(pk__in=[host.pk, friend.pk]).values()),
            Game.objects.filter(pk=game.id).values().get(),
            list(Move.objects.filter(game_id=game.id).values()),
        )
        yield Played(str(game.id), told, positions, actions), rows
        Game.objects.filter(pk=game.id).delete()
        Player.objects.filter(pk__in=[host.pk, friend.pk]).delete()


@pytest.fixture
def played(recording, db) -> Played:
    """The recorded game, its rows put back if a transactional test elsewhere emptied the tables."""
    played, (players, game, moves) = recording
    if not Game.objects.filter(pk=played.game_id).exists():
        Player.objects.bulk_create([Player(**row) for row in players], ignore_conflicts=True)
        Game.objects.bulk_create([Game(**game)])
        Move.objects.bulk_create([Move(**row) for row in moves])
    return played


def away_from(played: Played, version: int):
    """Bob's absence began just before `version` was made: the moves' times say so."""
    now = timezone.now()
    since = now - datetime.timedelta(minutes=5)
    moves = Move.objects.filter(game_id=played.game_id)
    moves.filter(seq__lt=version).update(created=since - datetime.timedelta(minutes=5))
    moves.filter(seq__gte=version).update(created=since + datetime.timedelta(seconds=1))
    return since


def deal_ends(entries) -> list:
    return [event["deal"] for entry in entries for event in entry["events"] if event["type"] == "deal_end"]


@pytest.mark.django_db
def test_a_long_absence_across_a_deal_end_is_told_from_the_stored_moves(played, monkeypatch):
    """Away from version 2 to the game's end: more than 60 versions (the old in-memory bound) and
    every deal end; with room for all of them, every move is told, as its patch told it."""
    last = len(played.positions) - 1
    assert last > 3 * 60 and len(deal_ends([{"events": e} for e in played.told.values()])) == 4
    monkeypatch.setattr(recap_module, "RECAP_MOVES", last)
    recap = recap_for(Game.objects.get(pk=played.game_id), "W", away_from(played, 2))
    assert recap is not None
    assert (recap["from"], recap["v"], recap["earlier"]) == (2, last, 0)
    assert [entry["v"] for entry in recap["moves"]] == list(range(2, last + 1))
    assert all(entry["events"] == played.told[entry["v"]] for entry in recap["moves"])
    assert deal_ends(recap["moves"]) == [1, 2, 3, 4]
    assert any(event["type"] == "reason" for entry in recap["moves"] for event in entry["events"])


@pytest.mark.django_db
def test_the_recap_is_bounded_and_counts_the_earlier_moves(played):
    """The last RECAP_MOVES moves and "… and K earlier moves", K counted from where Bob left."""
    last = len(played.positions) - 1
    left = last - RECAP_MOVES - 99  # versions left … last: RECAP_MOVES + 100 moves
    recap = recap_for(Game.objects.get(pk=played.game_id), "W", away_from(played, left))
    assert recap is not None
    assert recap["from"] == left and recap["earlier"] == 100
    assert [entry["v"] for entry in recap["moves"]] == list(range(last - RECAP_MOVES + 1, last + 1))
    assert all(entry["events"] == played.told[entry["v"]] for entry in recap["moves"])


@pytest.mark.django_db
def test_a_recap_over_a_whole_game_names_no_card_hidden_from_the_seat(played, monkeypatch):
    """Scanning every move of the recap: a card named is on the table, in West's own hand (before
    or after the move), in the move's own action (it was played face up), a red three (laid at
    once, R34) or one West drew itself."""
    monkeypatch.setattr(recap_module, "RECAP_MOVES", len(played.positions))
    recap = recap_for(Game.objects.get(pk=played.game_id), "W", away_from(played, 1))
    assert recap is not None and len(recap["moves"]) == len(played.positions) - 1
    for entry in recap["moves"]:
        v = entry["v"]
        allowed = visible_cards(played.positions[v - 1], "W") | visible_cards(played.positions[v], "W")
        allowed |= cards_in(played.actions[v]) | RED_THREES | own_drawn_cards(entry["events"], "W")
        leaked = cards_in(entry) - allowed
        assert not leaked, f"v{v}: West was told {leaked}"
        for event in entry["events"]:
            if event["type"] == "draw" and event["seat"] != "W":
                assert "cards" not in event, f"v{v}: another seat's drawn cards were shown to West"


@pytest.mark.django_db
def test_no_recap_after_a_reload_a_spectator_or_when_nothing_happened(played):
    game = Game.objects.get(pk=played.game_id)
    assert recap_for(game, "W", timezone.now() - datetime.timedelta(seconds=1)) is None  # a reload
    assert recap_for(game, None, away_from(played, 5)) is None  # no seat: nothing to come back to
    Move.objects.filter(game_id=played.game_id).update(created=timezone.now() - datetime.timedelta(hours=1))
    assert recap_for(game, "W", timezone.now() - datetime.timedelta(minutes=5)) is None  # no move since
    assert recap_for(game, "W", None) is None  # never gone
