"""The proof of the daily deals: what anyone may know of a date's deal, and the check of it.

Before a date is over only its commitment is published (`published`); once it is over, its seed
and nonce too, so that anyone can hash them and re-deal the four deals. `verify_date` is that
check done on the server against every stored game of the date (`manage.py verify_daily`).
"Over" is the daily deadline (games.daily_clock): the end of the UTC date plus the grace in
which a ranked game of it may still finish; why, in docs/LEADERBOARDS.md.
"""

import datetime
import hashlib
from dataclasses import dataclass, field

from games import daily_clock
from games.engine import Game as EngineGame
from games.engine.errors import RuleError
from games.engine.records import Position
from games.engine.rules import STANDARD
from games.models import Game
from leaderboards import commitment, daily, par
from leaderboards.models import DailyDeal

# The fields of a position that are the deal itself: the cards and who deals and plays first.
DEALT_FIELDS = ("deal", "dealer", "turn", "phase", "hands", "feet", "stock", "discard", "melds", "red_threes", "down")


class NoDeal(LookupError):
    """The date has no daily deal (none was ever made for it)."""


def seed_is_public(date: datetime.date) -> bool:
    return daily.date_is_closed(date)


def deal_for_answer(date: datetime.date) -> DailyDeal | None:
    """The date's deal for /api/daily/<date>: today's and tomorrow's are made if missing (that is
    the commitment in advance); an earlier date's only if it was made then."""
    today = daily.today()
    if today <= date <= today + datetime.timedelta(days=1):
        daily.commit_ahead(today)
    return DailyDeal.objects.filter(date=date).first()


def published(deal: DailyDeal) -> dict[str, object]:
    """What anyone may know of the deal now: the commitment always, seed and nonce once it is over.

    The seed is a decimal string: 63 bits lose their last digits as a JavaScript number.
    """
    public = seed_is_public(deal.date)
    return {
        "date": deal.date.isoformat(),
        "commitment": deal.commitment,
        "seed": str(deal.seed) if public else None,
        "nonce": deal.nonce if public else None,
        "par": deal.par if public else None,
        "committed_at": (deal.committed_at or deal.created_at).isoformat(),
        "revealed_at": daily_clock.ranked_until(deal.date).isoformat(),
    }


def latest_revealed() -> DailyDeal | None:
    """The latest date whose seed and nonce are public, if any."""
    for deal in DailyDeal.objects.filter(date__lt=daily.today()).order_by("-date")[:2]:
        if seed_is_public(deal.date):
            return deal
    return None


# A checker's own program: the standard library only, R57's deck and shuffle, R11's deal.
CHECK_PROGRAM = """import hashlib, random

date, seed, nonce = "{date}", "{seed}", "{nonce}"  # from /api/daily/{date}
print("commitment", hashlib.sha256(f"{{date}}:{{seed}}:{{nonce}}".encode()).hexdigest())
next_seat = {{"S": "W", "W": "N", "N": "E", "E": "S"}}
for deal, dealer in zip((1, 2, 3, 4), "ESWN"):
    deck = [r + s for _ in range(5) for r in "456789TJQKA23" for s in "CDHS"] + ["JK"] * 10
    random.Random(f"{{seed}}:{{deal}}").shuffle(deck)
    seat = next_seat[dealer]
    for i in range(4):
        hand, foot = deck[13 * i : 13 * i + 13], deck[52 + 13 * i : 65 + 13 * i]
        print("deal", deal, seat, "hand", " ".join(sorted(hand)), "foot", " ".join(sorted(foot)))
        seat = next_seat[seat]
"""


def check_program(deal: DailyDeal | None) -> str:
    """CHECK_PROGRAM for a revealed deal, or with placeholders to fill in."""
    if deal is None or not seed_is_public(deal.date):
        return CHECK_PROGRAM.format(date="YYYY-MM-DD", seed="SEED", nonce="NONCE")
    return CHECK_PROGRAM.format(date=deal.date.isoformat(), seed=deal.seed, nonce=deal.nonce)


def deck_fingerprint(position: Position) -> str:
    """A short digest of a dealt position's cards, for a readable report."""
    cards = "|".join(repr(position[name]) for name in DEALT_FIELDS)
    return hashlib.sha256(cards.encode()).hexdigest()[:16]


def dealt_positions(seed: int) -> dict[int, Position]:
    """Deal number → the engine's position of that deal just dealt from `seed` (R57)."""
    return {deal: EngineGame.at_deal(seed, deal).to_position() for deal in range(1, STANDARD.deals + 1)}


def same_deal(position: Position, expected: Position) -> list[str]:
    """The dealt fields in which `position` differs from `expected`."""
    return [name for name in DEALT_FIELDS if position.get(name) != expected.get(name)]


@dataclass
class Report:
    date: datetime.date
    lines: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def problem(self, text: str) -> None:
        self.problems.append(text)
        self.lines.append(f"DIFFERENT: {text}")


def verify_date(date: datetime.date) -> Report:
    """Check the date's commitment and every stored daily game of it against the deals of its seed."""
    deal = DailyDeal.objects.filter(date=date).first()
    if deal is None:
        raise NoDeal(date)
    report = Report(date)
    check_commitment(deal, report)
    expected = dealt_positions(deal.seed)
    for number, position in expected.items():
        report.lines.append(f"deal {number}: dealt from the seed, cards {deck_fingerprint(position)}")
    games = Game.objects.filter(mode=Game.DAILY, daily_date=date).order_by("created")
    for game in games:
        check_game(game, deal.seed, expected, report)
    report.lines.append(f"{games.count()} stored game(s) of {date.isoformat()} checked")
    check_par(deal, report)
    return report


def check_par(deal: DailyDeal, report: Report) -> None:
    """The stored par is what the computer players score on the seed's deals today too."""
    if deal.par is None:
        report.lines.append("par: not computed yet")
        return
    replayed = par.play_par(deal.seed)
    if replayed != deal.par:
        report.problem(f"the stored par {deal.par} is not the computer players' score {replayed}")
    else:
        report.lines.append(f"par {deal.par}: the computer players' game of the seed scores it again")


def check_commitment(deal: DailyDeal, report: Report) -> None:
    if commitment.opens(deal.commitment, deal.date, deal.seed, deal.nonce):
        shown = (
            f"seed {deal.seed} and nonce {deal.nonce}"
            if seed_is_public(deal.date)
            else "the seed and nonce (kept secret until the date is over)"
        )
        report.lines.append(f"commitment {deal.commitment} opens with {shown}")
    else:
        report.problem(f"the commitment {deal.commitment} is not the SHA-256 of the stored date, seed and nonce")


def check_game(game: Game, seed: int, expected: dict[int, Position], report: Report) -> None:
    """The game's seed, its initial position (deal 1) and each later deal its moves reach."""
    name = f"game {game.id}"
    if int(game.seed) != int(seed):
        report.problem(f"{name} has another seed than its date")
    if game.initial_position is None:
        report.problem(f"{name} has no initial position")
        return
    fields = same_deal(game.initial_position, expected[1]) + (
        ["seed"] if str(game.initial_position.get("seed")) != str(seed) else []
    )
    if fields:
        report.problem(f"{name}: its initial position differs from deal 1 in {', '.join(fields)}")
        return
    reached = replay_deals(game, expected, report)
    if reached:
        report.lines.append(f"{name} ({game.status}, {'ranked' if game.ranked else 'practice'}): deals {reached} match")


def replay_deals(game: Game, expected: dict[int, Position], report: Report) -> str:
    """Replay the stored moves with the engine; each deal they start must be the seed's deal.
    Returns the deals checked ("1-4"), or "" after a problem."""
    engine_game = EngineGame.from_position(game.initial_position)
    last = 1
    for move in game.moves.order_by("seq"):
        try:
            events = engine_game.apply(move.seat, move.action)
        except RuleError as refused:
            report.problem(f"game {game.id}: its move {move.seq} does not replay ({refused.code})")
            return ""
        for event in events:
            if event.get("type") != "deal_start":
                continue
            last = event["deal"]
            fields = same_deal(engine_game.to_position(), expected[last])
            if fields:
                report.problem(f"game {game.id}: deal {last} differs from the seed's in {', '.join(fields)}")
                return ""
    return "1" if last == 1 else f"1-{last}"
