"""The server-rendered pages of the leaderboards: the boards, a ranked daily's replay from its
board, the player's record, the personal link, and "Check the deals" (watching any finished game
is games.pages' `watch_page`).

Plain HTML that works without script; every nickname is shown through Django's auto-escaping.
"""

import datetime
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import daily_clock, params
from games.replay import describe_action, replay_steps, step_count
from leaderboards import api, boards, daily, nicknames, proof, record
from players import identity


def page_or_404(request: HttpRequest) -> boards.Page:
    page = api.page_of(request)
    if page is None:
        raise Http404("no such page")
    return page


def board_context(request: HttpRequest, board: boards.Board, tab: str, title: str) -> dict[str, Any]:
    me = identity.player_for_request(request, create=False)
    return {
        "board": board,
        "tab": tab,
        "title": title,
        "player": me,
        "today": daily.today(),
        "listed": boards.is_listed(me),
        "previous_day": None,
        "next_day": None,
    }


@require_GET
def daily_page(request: HttpRequest, date: str | None = None) -> HttpResponse:
    day = daily.today() if date is None else api.parse_date(date)
    if day is None or day > daily.today():
        raise Http404("no board for this date")
    me = identity.player_for_request(request, create=False)
    board = boards.daily_board(day, page_or_404(request), me, daily.date_is_closed(day))
    context = board_context(request, board, "daily", day.isoformat())
    context["previous_day"] = day - datetime.timedelta(days=1)
    context["next_day"] = day + datetime.timedelta(days=1) if day < daily.today() else None
    return render(request, "leaderboards/board.html", context)


@require_GET
def week_page(request: HttpRequest) -> HttpResponse:
    me = identity.player_for_request(request, create=False)
    board = boards.week_board(daily.today(), page_or_404(request), me)
    return render(request, "leaderboards/board.html", board_context(request, board, "week", "week"))


@require_GET
def all_time_page(request: HttpRequest) -> HttpResponse:
    me = identity.player_for_request(request, create=False)
    board = boards.all_time_board(page_or_404(request), me)
    return render(request, "leaderboards/board.html", board_context(request, board, "all", "all"))


def back_to(request: HttpRequest) -> str:
    target: str = request.POST.get("next", "")
    if target.startswith("/leaderboard/") and url_has_allowed_host_and_scheme(target, allowed_hosts=None):
        return target
    return reverse("leaderboard")


@require_POST
def nickname_form(request: HttpRequest) -> HttpResponse:
    identity.count(request, "nickname")
    player = identity.player_for_request(request)
    try:
        nicknames.set_nickname(player, request.POST.get("nickname", ""))
    except nicknames.NicknameError as refused:
        messages.error(request, refused.message)
    return redirect(back_to(request))


@require_POST
def link_form(request: HttpRequest) -> HttpResponse:
    player = identity.player_for_request(request)
    url = request.build_absolute_uri(identity.new_personal_link(player))
    return no_store(
        render(
            request,
            "leaderboards/link.html",
            {"url": url, "days": identity.LINK_LIFETIME.days, "expires_at": identity.link_expires_at(player)},
        )
    )


def no_store(response: HttpResponse) -> HttpResponse:
    """A page about a personal link: never cached, and never named in another site's Referer.

    "same-origin", not "no-referrer": under no-referrer Chromium sends the confirm form's POST with
    `Origin: null`, which Django's CSRF check refuses, so the link could not be used at all."""
    response["Cache-Control"] = "no-store"
    response["Referrer-Policy"] = "same-origin"
    return response


def link_not_valid(request: HttpRequest) -> HttpResponse:
    return no_store(
        render(request, "leaderboards/link_invalid.html", {"days": identity.LINK_LIFETIME.days}, status=404)
    )


@require_http_methods(["GET", "POST"])
def follow_link(request: HttpRequest, token: str) -> HttpResponse:
    """GET asks "Continue as …?" and changes nothing; the POST (CSRF-checked) binds this browser."""
    if request.method == "GET":
        player = identity.player_for_link(token)
        if player is None:
            return link_not_valid(request)
        return no_store(render(request, "leaderboards/link_confirm.html", {"player": player}))
    player = identity.use_personal_link(token)
    if player is None:
        return link_not_valid(request)
    request.session.cycle_key()  # a new session id for the newly bound identity
    identity.bind_session(request.session, player)
    return no_store(render(request, "leaderboards/linked.html", {"player": player}))


@require_GET
def check_page(request: HttpRequest) -> HttpResponse:
    """ "Check the deals": how anyone checks a date's deals, with today's and tomorrow's commitments
    and the latest date whose seed is out (leaderboards.proof: nothing secret is ever here)."""
    today = daily.today()
    upcoming = [proof.deal_for_answer(today), proof.deal_for_answer(today + datetime.timedelta(days=1))]
    revealed = proof.latest_revealed()
    return render(
        request,
        "leaderboards/check.html",
        {
            "upcoming": [proof.published(deal) for deal in upcoming if deal is not None],
            "revealed": proof.published(revealed) if revealed else None,
            "program": proof.check_program(revealed),
            "reveal_time": daily_clock.ranked_until(today).strftime("%H:%M"),
        },
    )


@require_GET
def replay_page(request: HttpRequest, game_id: str) -> HttpResponse:
    identity.count(request, "replay_page")  # each step replays the game from its start
    found = api.watchable_game(game_id)
    if found is None:
        raise Http404("this game cannot be watched (yet)")
    game, entry = found
    last = step_count(game) - 1
    asked = params.query_number(request, "step", 0, 0, api.LAST_STEP)
    if asked is None:
        raise Http404("no such step")
    number = min(asked, last)
    step = replay_steps(game, number, number + 1)[0]
    return render(
        request,
        "leaderboards/replay.html",
        {
            "entry": entry,
            "step": step,
            "number": number,
            "last": last,
            "description": describe_action(step["action"]),
            "view": step["view"],
            "previous": number - 1 if number > 0 else None,
            "next": number + 1 if number < last else None,
        },
    )


@require_GET
def record_page(request: HttpRequest) -> HttpResponse:
    """The player's own record (leaderboards.record), from this browser's session; creates nobody."""
    me = identity.player_for_request(request, create=False)
    mine = record.record_of(me)
    context = {
        "player": me,
        "listed": boards.is_listed(me),
        "record": mine,
        "plot": record.plot_bars(mine.plot),
        "plot_days": record.PLOT_DAYS,
        "dailies": [(day, record.replay_url(day)) for day in mine.dailies],
    }
    return render(request, "leaderboards/record.html", context)
