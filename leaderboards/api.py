"""The JSON API of the leaderboards: nickname, personal link, boards, the daily deal's proof,
share text and the replay of a ranked daily from its board (watching any finished game with
every hand open is games.api's `watch_replay`).

Errors are {"code", "message"} with a 4xx status. No endpoint accepts a score: entries are
written only by leaderboards.daily.on_game_finished from the server's own replay.
"""

import datetime
from collections.abc import Callable

from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET, require_POST

from games import params
from games.models import Game
from games.replay import replay_steps, step_count
from games.rooms.broadcast import refresh_tables_of
from leaderboards import boards, daily, daily_end, nicknames, par, proof, wording
from leaderboards.models import Entry
from players import identity
from players.models import Player

LAST_PAGE = 100_000  # of a board: 5 million entries, far past any real board
LAST_STEP = 100_000  # of a replay: a game has a few hundred moves
REPLAY_PAGE = 200  # steps per answer: a whole game's public views weigh several megabytes


def error(status: int, code: str, message: str) -> JsonResponse:
    return JsonResponse({"code": code, "message": message}, status=status)


def page_of(request: HttpRequest) -> boards.Page | None:
    number = params.query_number(request, "page", 1, 1, LAST_PAGE)
    return None if number is None else boards.Page(number)


def parse_date(text: str) -> datetime.date | None:
    """A date written YYYY-MM-DD (the one spelling of a board's address) in the site's range; else None."""
    return params.iso_date(text)


@require_POST
def nickname(request: HttpRequest) -> JsonResponse:
    body = params.json_object_body(request)
    if body is None:
        return error(400, "bad_request", "The body must be a JSON object.")
    identity.count(request, "nickname")
    player = identity.player_for_request(request)
    try:
        chosen = nicknames.set_nickname(player, body.get("nickname"))
    except nicknames.NicknameError as refused:
        return error(400, refused.code, refused.message)
    refresh_tables_of(player.id)  # the friends at the player's tables see the name at once
    return JsonResponse({"nickname": chosen})


@require_POST
def personal_link(request: HttpRequest) -> JsonResponse:
    player = identity.player_for_request(request)
    url = identity.new_personal_link(player)
    return JsonResponse({"url": url, "expires_at": identity.link_expires_at(player).isoformat()})


def board_or_error(request: HttpRequest, build: Callable[[boards.Page, Player | None], boards.Board]) -> JsonResponse:
    page = page_of(request)
    if page is None:
        return error(400, "bad_page", "page must be a whole number from 1.")
    me = identity.player_for_request(request, create=False)
    return JsonResponse(build(page, me))


@require_GET
def daily_board(request: HttpRequest, date: str) -> JsonResponse:
    day = parse_date(date)
    if day is None or day > daily.today():
        return error(404, "no_such_date", "There is no board for this date.")
    return board_or_error(request, lambda page, me: boards.daily_board(day, page, me, daily.date_is_closed(day)))


@require_GET
def week_board(request: HttpRequest) -> JsonResponse:
    return board_or_error(request, lambda page, me: boards.week_board(daily.today(), page, me))


@require_GET
def all_time_board(request: HttpRequest) -> JsonResponse:
    return board_or_error(request, boards.all_time_board)


@require_GET
def daily_deal(request: HttpRequest, date: str) -> JsonResponse:
    """The date's commitment; its seed and nonce too once the date is over (leaderboards.proof)."""
    day = params.calendar_date(date)
    if day is None:
        return error(400, "bad_date", "The date must be written YYYY-MM-DD.")
    if not params.in_site_range(day):
        return error(404, "no_such_date", "There is no daily deal for this date yet.")
    deal = proof.deal_for_answer(day)
    if deal is None:
        return error(404, "no_deal", "There was no daily game on this date.")
    return JsonResponse(proof.published(deal))


@require_GET
def share(request: HttpRequest, game_id: str) -> JsonResponse:
    me = identity.player_for_request(request, create=False)
    entry = Entry.objects.filter(game_id=game_id, player=me).select_related("player").first() if me else None
    if entry is None:
        return error(404, "no_entry", "This game has no ranked result of yours.")
    return JsonResponse(
        {
            "text": daily.share_text(entry),
            "date": entry.date.isoformat(),
            "score": entry.score,
            "result": entry.result,
            **par_fields(entry),
        }
    )


def par_fields(entry: Entry) -> dict[str, int | str | None]:
    """The date's par and the entry's score against it (null until the par is computed); an
    entry exists only once its player finished, so the par is revealed to them now."""
    date_par = par.par_of(entry.date)
    if date_par is None:
        return {"par": None, "against_par": None, "against_par_text": None}
    difference = entry.score - date_par
    return {"par": date_par, "against_par": difference, "against_par_text": wording.against_par(difference)}


@require_GET
def daily_result(request: HttpRequest, game_id: str) -> JsonResponse:
    """The end of a ranked daily for its own player: score, par, rank and standing (daily_end)."""
    me = identity.player_for_request(request, create=False)
    entry = Entry.objects.filter(game_id=game_id, player=me).select_related("player").first() if me else None
    if entry is None:
        return error(404, "no_entry", "This game has no ranked result of yours.")
    return JsonResponse(daily_end.daily_result(entry))


def watchable_game(game_id: str) -> tuple[Game, Entry] | None:
    """(game, entry) of a ranked daily whose date is closed and whose entry is on the boards, or None."""
    entry = boards.visible_entries().filter(game_id=game_id).select_related("player").first()
    game = Game.objects.filter(pk=game_id, mode="daily", ranked=True).first() if entry else None
    if entry is None or game is None or not daily.date_is_closed(entry.date):
        return None
    return game, entry


@require_GET
def replay(request: HttpRequest, game_id: str) -> JsonResponse:
    identity.count(request, "replay_steps")  # before the lookup: guessing ids counts too
    found = watchable_game(game_id)
    if found is None:
        return error(404, "no_replay", "A ranked daily game can be watched from its board once its day is over.")
    game, entry = found
    start = params.query_number(request, "start", 0, 0, LAST_STEP)
    count = params.query_number(request, "count", REPLAY_PAGE, 1, REPLAY_PAGE)
    if start is None or count is None:
        return error(400, "bad_range", f"start must be a whole number, count from 1 to {REPLAY_PAGE}.")
    total = step_count(game)
    first, last = start, min(start + count, total)
    return JsonResponse(
        {
            "game_id": str(game.pk),
            "date": entry.date.isoformat(),
            "nickname": entry.player.nickname,
            "score": entry.score,
            "opponents_score": entry.opponents_score,
            "total_steps": total,
            "start": first,
            "next": last if last < total else None,
            "steps": replay_steps(game, first, last) if first < total else [],
        }
    )
