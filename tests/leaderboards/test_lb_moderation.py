"""Moderation in the admin: a moderator can hide, ban and undo — and nothing else; all is logged."""

import datetime

import pytest
from django.contrib.auth.models import Group, User

from leaderboards import daily
from leaderboards.models import Entry, ModerationAction

pytestmark = pytest.mark.django_db
CLOSED_DATE = daily.today() - datetime.timedelta(days=2)  # over, and past its grace (games.daily_clock)


def test_the_moderators_group_has_only_moderation_permissions(moderators_group):
    codenames = set(moderators_group.permissions.values_list("codename", flat=True))
    assert codenames == {"view_player", "ban_player", "view_entry", "hide_entry", "view_moderationaction"}


def test_a_moderator_hides_an_entry_with_a_reason_and_undoes_it(moderator_client, make_player, make_entry):
    entry = make_entry(make_player("Bob"), CLOSED_DATE, 99999)
    url = "/admin/leaderboards/entry/"
    asked = moderator_client.post(url, {"action": "hide_entries", "_selected_action": [entry.pk]})
    assert asked.status_code == 200 and b"reason" in asked.content  # the intermediate page
    moderator_client.post(
        url, {"action": "hide_entries", "_selected_action": [entry.pk], "apply": "1", "reason": "impossible score"}
    )
    entry.refresh_from_db()
    assert entry.hidden and entry.hidden_reason == "impossible score"
    moderator_client.post(url, {"action": "unhide_entries", "_selected_action": [entry.pk]})
    entry.refresh_from_db()
    assert not entry.hidden
    log = list(ModerationAction.objects.order_by("at").values_list("moderator__username", "action", "target", "reason"))
    assert log == [
        ("mod", "hide_entry", f"entry:{entry.game_id}", "impossible score"),
        ("mod", "unhide_entry", f"entry:{entry.game_id}", ""),
    ]


def test_a_moderator_bans_and_unbans_a_player(moderator_client, make_player, make_entry):
    bob = make_player("Bob")
    url = "/admin/players/player/"
    moderator_client.post(
        url, {"action": "ban_players", "_selected_action": [bob.pk], "apply": "1", "reason": "insults"}
    )
    bob.refresh_from_db()
    assert bob.banned
    moderator_client.post(url, {"action": "unban_players", "_selected_action": [bob.pk]})
    bob.refresh_from_db()
    assert not bob.banned
    assert list(ModerationAction.objects.order_by("at").values_list("action", flat=True)) == [
        "ban_player",
        "unban_player",
    ]


def test_the_moderation_log_is_read_only(moderator_client, make_player):
    from leaderboards import moderation

    moderation.ban_player(make_player("Bob"), moderator_client.user, "spam")
    action = ModerationAction.objects.get()
    assert moderator_client.get("/admin/leaderboards/moderationaction/").status_code == 200
    assert (
        moderator_client.post(f"/admin/leaderboards/moderationaction/{action.pk}/delete/", {"post": "yes"}).status_code
        == 403
    )
    assert ModerationAction.objects.count() == 1


def test_a_moderator_can_do_nothing_else(moderator_client, make_player, make_entry):
    entry = make_entry(make_player("Bob"), CLOSED_DATE, 500)
    for url in [
        "/admin/auth/user/",
        "/admin/auth/group/",
        "/admin/auth/user/add/",
        f"/admin/auth/group/{Group.objects.get(name='moderators').pk}/change/",
    ]:
        assert moderator_client.get(url).status_code == 403, url
    assert (
        moderator_client.post(
            "/admin/auth/user/add/", {"username": "x", "password1": "Aa1!aaaaaa", "password2": "Aa1!aaaaaa"}
        ).status_code
        == 403
    )
    assert User.objects.count() == 1
    # Scores and players are read-only, and nothing can be deleted.
    moderator_client.post(f"/admin/leaderboards/entry/{entry.pk}/change/", {"score": 1})
    entry.refresh_from_db()
    assert entry.score == 500
    assert moderator_client.post(f"/admin/leaderboards/entry/{entry.pk}/delete/", {"post": "yes"}).status_code == 403
    assert moderator_client.post(
        "/admin/leaderboards/entry/", {"action": "delete_selected", "_selected_action": [entry.pk], "post": "yes"}
    ).status_code in (200, 302)
    assert Entry.objects.count() == 1
    assert moderator_client.get("/admin/leaderboards/dailydeal/").status_code == 403  # only a superuser lists seeds


def test_staff_without_the_group_cannot_moderate(client, make_player):
    user = User.objects.create_user("staff", password="x", is_staff=True)
    client.force_login(user)
    bob = make_player("Bob")
    assert client.get("/admin/players/player/").status_code == 403
    client.post(
        "/admin/players/player/",
        {"action": "ban_players", "_selected_action": [bob.pk], "apply": "1", "reason": "x"},
    )
    bob.refresh_from_db()
    assert not bob.banned and not ModerationAction.objects.exists()


def test_search_entries_and_players_by_nickname_and_date(moderator_client, make_player, make_entry):
    make_entry(make_player("Anna"), CLOSED_DATE, 800)
    make_entry(make_player("Zed"), CLOSED_DATE - datetime.timedelta(days=3), 700)
    found = moderator_client.get("/admin/leaderboards/entry/", {"q": "Anna"}).content.decode()
    assert "Anna" in found and "Zed" not in found
    by_date = moderator_client.get("/admin/leaderboards/entry/", {"q": CLOSED_DATE.isoformat()}).content.decode()
    assert "Anna" in by_date and "Zed" not in by_date
    players = moderator_client.get("/admin/players/player/", {"q": "zed"}).content.decode()
    assert "Zed" in players and "Anna" not in players


def test_players_whose_dailies_share_a_network_are_flagged(moderator_client, make_player, make_entry):
    one, two, alone = make_player("One"), make_player("Two"), make_player("Alone")
    make_entry(one, CLOSED_DATE, 100, network="n" * 64)
    make_entry(two, CLOSED_DATE - datetime.timedelta(days=1), 200, network="n" * 64)
    make_entry(alone, CLOSED_DATE, 300, network="m" * 64)
    flagged = moderator_client.get("/admin/players/player/", {"shared_network": "yes"}).content.decode()
    assert "One" in flagged and "Two" in flagged and "Alone" not in flagged
    page = moderator_client.get(f"/admin/players/player/{one.pk}/change/").content.decode()
    assert "Two" in page


def test_the_admin_replays_a_games_moves(moderator_client, make_player, finished_daily):
    player = make_player("Anna")
    old = finished_daily(player, CLOSED_DATE)
    page = moderator_client.get(f"/admin/leaderboards/entry/replay/{old.pk}/")
    assert page.status_code == 200
    assert page.content.decode().count("<details>") == old.moves.count() + 1
    today_game = finished_daily(make_player("Bob"), daily.today())
    # Today's deals are still being played: a moderator may not look at them yet.
    assert moderator_client.get(f"/admin/leaderboards/entry/replay/{today_game.pk}/").status_code == 403


def test_players_can_be_found_by_a_date_they_played(moderator_client, make_player, make_entry):
    make_entry(make_player("Anna"), CLOSED_DATE, 800)
    make_entry(make_player("Zed"), CLOSED_DATE - datetime.timedelta(days=3), 700)
    page = moderator_client.get("/admin/players/player/", {"q": CLOSED_DATE.isoformat()}).content.decode()
    assert "Anna" in page and "Zed" not in page


def test_a_superuser_lists_games_with_replay_links_and_moderators_do_not(moderator_client, make_player, finished_daily):
    from django.test import Client

    game = finished_daily(make_player("Anna"), daily.today())
    root = Client()
    root.force_login(User.objects.create_superuser("root", password="x"))
    listing = root.get("/admin/games/game/").content.decode()
    assert f"/admin/leaderboards/entry/replay/{game.pk}/" in listing
    # Today's deals are still being played: not even a superuser replays them (issue 18, finding 8).
    assert root.get(f"/admin/leaderboards/entry/replay/{game.pk}/").status_code == 403
    assert moderator_client.get("/admin/games/game/").status_code == 403


def test_the_admin_says_how_many_in_proper_plurals(moderator_client, make_player, make_entry):
    """Issue 29 item 12: "Hid 1 entry.", "Hid 2 entries." — never "entr(y/ies)"."""
    entries = [make_entry(make_player(name), CLOSED_DATE, 100) for name in ("Bob", "Cid")]
    url = "/admin/leaderboards/entry/"
    one = {"action": "hide_entries", "_selected_action": [entries[0].pk], "apply": "1", "reason": "spam"}
    assert "Hid 1 entry." in moderator_client.post(url, one, follow=True).content.decode()
    both = {"action": "unhide_entries", "_selected_action": [entry.pk for entry in entries]}
    page = moderator_client.post(url, both, follow=True).content.decode()
    assert "Unhid 2 entries." in page and "(y/ies)" not in page
    bob = entries[0].player
    ban = {"action": "ban_players", "_selected_action": [bob.pk], "apply": "1", "reason": "insults"}
    assert "Banned 1 player." in moderator_client.post("/admin/players/player/", ban, follow=True).content.decode()


def test_the_log_names_players_and_entries_by_nickname(moderator_client, make_player, make_entry):
    from leaderboards import moderation

    bob = make_player("Bob")
    entry = make_entry(make_player("Cid"), CLOSED_DATE, 100)
    moderation.ban_player(bob, moderator_client.user, "insults")
    moderation.hide_entry(entry, moderator_client.user, "copied")
    page = moderator_client.get("/admin/leaderboards/moderationaction/").content.decode()
    assert ">Bob</a>" in page and f'entry of <a href="/admin/leaderboards/entry/{entry.pk}/change/">Cid</a>' in page
    assert f"player:{bob.pk}" not in page and str(entry.game_id) not in page  # no bare ids


def test_the_reason_page_has_a_cancel_and_no_bulk_delete_sits_beside_hide_and_ban(
    moderator_client, superuser_client, make_player, make_entry
):
    entry = make_entry(make_player("Bob"), CLOSED_DATE, 100)
    url = "/admin/leaderboards/entry/?hidden__exact=0"
    asked = moderator_client.post(url, {"action": "hide_entries", "_selected_action": [entry.pk]})
    page = asked.content.decode()
    assert 'id="reason-cancel"' in page and 'href="/admin/leaderboards/entry/?hidden__exact=0"' in page
    entry.refresh_from_db()
    assert not entry.hidden  # asking is not doing
    for listing in ("/admin/leaderboards/entry/", "/admin/players/player/"):
        assert 'value="delete_selected"' not in superuser_client.get(listing).content.decode()
