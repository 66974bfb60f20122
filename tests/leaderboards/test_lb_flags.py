"""Moderators see suspicious daily entries flagged, with the reason; a flag never hides an entry.

Issue 18: a copied game (the same first 30 moves of the player as another entry of the date),
several ranked dailies of one date from one network, and a game played faster than a person can.
"""

from __future__ import annotations

import datetime
import io
from typing import TYPE_CHECKING

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from leaderboards import boards, daily, flags
from leaderboards.flags import Flags
from leaderboards.models import DailyStart, Entry

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

pytestmark = pytest.mark.django_db
CLOSED_DATE = daily.today() - datetime.timedelta(days=2)


def ranked(game) -> Entry:
    """The entry of a finished ranked daily, which must rank."""
    entry = daily.on_game_finished(game)
    assert entry is not None, f"game {game.pk} did not rank"
    return entry


def flagged_entry(entry: Entry) -> WithAnnotations[Entry, Flags]:
    return flags.flagged(Entry.objects.filter(pk=entry.pk)).get()


def changelist(client, **query) -> str:
    answer = client.get("/admin/leaderboards/entry/", query)
    assert answer.status_code == 200
    return answer.content.decode()


def test_a_copied_game_is_flagged_on_both_entries_and_names_the_other(moderator_client, make_player, finished_daily):
    original = ranked(finished_daily(make_player("Original"), CLOSED_DATE, rng_seed=7))
    copy = ranked(finished_daily(make_player("Copier"), CLOSED_DATE, rng_seed=7))
    other = ranked(finished_daily(make_player("Honest"), CLOSED_DATE, rng_seed=8))
    assert flagged_entry(copy).flag_copied and flagged_entry(original).flag_copied
    assert not flagged_entry(other).flag_copied
    assert flags.reasons(flagged_entry(copy)) == [
        f"copied: its first {flags.OPENING_MOVES} moves are those of Original"
    ]
    listed = changelist(moderator_client, flag="copied")
    assert "Original" in listed and "Copier" in listed and "Honest" not in listed
    assert "copied: its first 30 moves are those of Original" in listed


def test_only_the_first_30_moves_of_the_player_count(make_player, finished_daily):
    from games.models import Move

    first = finished_daily(make_player("One"), CLOSED_DATE, rng_seed=3)
    moves = list(first.moves.order_by("seq"))
    south = [move for move in moves if move.seat == "S"]
    assert flags.opening_digest(moves, "S") == flags.opening_digest(moves[: moves.index(south[29]) + 1], "S")
    changed = [Move(seat=m.seat, action={"type": "x"} if m is south[29] else m.action) for m in moves]
    assert flags.opening_digest(changed, "S") != flags.opening_digest(moves, "S")


def test_several_ranked_dailies_of_one_date_from_one_network_are_flagged(moderator_client, make_player, make_entry):
    network = "a" * 64
    one = make_entry(make_player("NetOne"), CLOSED_DATE, 100, network=network)
    two = make_entry(make_player("NetTwo"), CLOSED_DATE, 200, network=network)
    other_day = make_entry(make_player("NetLater"), CLOSED_DATE - datetime.timedelta(days=1), 300, network=network)
    elsewhere = make_entry(make_player("Elsewhere"), CLOSED_DATE, 400, network="b" * 64)
    assert flagged_entry(one).flag_network and flagged_entry(two).flag_network
    assert not flagged_entry(other_day).flag_network and not flagged_entry(elsewhere).flag_network
    assert flags.reasons(flagged_entry(one)) == [
        f"network: 2 ranked entries of {CLOSED_DATE.isoformat()} from one network"
    ]
    listed = changelist(moderator_client, flag="network")
    assert "NetOne" in listed and "NetTwo" in listed and "NetLater" not in listed and "Elsewhere" not in listed


def test_a_game_played_faster_than_a_person_can_is_flagged(moderator_client, make_player, finished_daily):
    bot_like = ranked(finished_daily(make_player("Script"), CLOSED_DATE, seconds_apart=0.05))
    person = ranked(finished_daily(make_player("Person"), CLOSED_DATE, rng_seed=1, seconds_apart=1.5))
    assert bot_like.median_seconds == pytest.approx(0.05) and bot_like.seat_moves > 30
    assert flagged_entry(bot_like).flag_fast and not flagged_entry(person).flag_fast
    assert flags.reasons(flagged_entry(bot_like))[0].startswith("fast: half its")
    listed = changelist(moderator_client, flag="fast")
    assert "Script" in listed and "Person" not in listed


def test_the_any_filter_lists_every_flagged_entry_and_flags_never_hide_one(
    moderator_client, make_player, make_entry, finished_daily
):
    fast = ranked(finished_daily(make_player("Quick"), CLOSED_DATE, seconds_apart=0.05))
    make_entry(make_player("Shared"), CLOSED_DATE, 10, network="c" * 64)
    make_entry(make_player("Shared2"), CLOSED_DATE, 20, network="c" * 64)
    make_entry(make_player("Clean"), CLOSED_DATE, 30)
    listed = changelist(moderator_client, flag="any")
    assert all(name in listed for name in ("Quick", "Shared", "Shared2")) and "Clean" not in listed
    assert "Clean" in changelist(moderator_client)
    fast.refresh_from_db()
    assert not fast.hidden
    names = {row["nickname"] for row in boards.daily_board(CLOSED_DATE, boards.Page(1), None, True)["rows"]}
    assert {"Quick", "Shared", "Shared2", "Clean"} <= names


def start_of(game, network: str) -> None:
    """As POST /api/games records a new daily: its starter's keyed network and session."""
    flags.record_daily_start(None, game=game, network=network, session=f"session-of-{game.pk}"[:32])


def test_scouting_counts_other_players_dailies_of_the_network_not_the_players_own(make_player, finished_daily):
    # issue 24, finding 4: a family behind one router is flagged (a hint), never unranked or hidden
    parent, child = make_player("Parent"), make_player("Child")
    first = finished_daily(parent, CLOSED_DATE, rng_seed=3)
    start_of(first, "home")
    alone = ranked(first)
    assert not flagged_entry(alone).flag_scouted
    later = finished_daily(child, CLOSED_DATE, rng_seed=4)
    start_of(later, "home")
    second = flagged_entry(ranked(later))
    assert second.flag_scouted and flagged_entry(alone).flag_scouted
    assert not second.hidden and second.score == Entry.objects.get(pk=second.pk).score
    assert any("started from its network" in reason for reason in flags.reasons(second))
    stranger = finished_daily(make_player("Stranger"), CLOSED_DATE, rng_seed=5)
    start_of(stranger, "elsewhere")
    assert not flagged_entry(ranked(stranger)).flag_scouted


def test_purge_daily_starts_forgets_the_dates_past_the_window_only(make_player, finished_daily):
    old, recent = (
        finished_daily(make_player(name), CLOSED_DATE, rng_seed=seed) for name, seed in (("Old", 6), ("New", 7))
    )
    start_of(old, "home")
    start_of(recent, "home")
    window = datetime.timedelta(days=flags.DAILY_START_DAYS)
    DailyStart.objects.filter(game_id=old.pk).update(date=timezone.now().date() - window - datetime.timedelta(days=1))
    DailyStart.objects.filter(game_id=recent.pk).update(date=timezone.now().date() - window)
    out = io.StringIO()
    call_command("purge_daily_starts", "--dry-run", stdout=out)
    assert "Would delete 1 daily starts" in out.getvalue() and DailyStart.objects.count() == 2
    call_command("purge_daily_starts", stdout=out)
    assert list(DailyStart.objects.values_list("game_id", flat=True)) == [recent.pk]
    with pytest.raises(CommandError, match="at least 1"):
        call_command("purge_daily_starts", "--days", "0")
