"""The table fits every screen (issue 13, item 1): at desk, laptop, phone and phone-sideways size, on
a prepared late-deal position (a 35-card hand, 14 melds a team, a 40-card discard pile) and over
turns played by clicking, the page does not scroll, and every card of the hand, every action
button, both meld areas, the stock and the discard pile lie inside the viewport and are what
`document.elementFromPoint` finds at their visible corner, in English, German and Bengali. Every
meld of both teams lies wholly inside the viewport and inside every box around it that clips
(issue 29, item 1: no meld hidden in a scrolling box; docs/VIEW.md says how).
Screenshots of the late-deal table go to the screenshots folder (conftest; docs/screenshots with
`make screenshots`)."""

import json
from collections import Counter

import pytest

from games.engine import Rules

from .conftest import CORNER, SCREENSHOTS, load_engine_helpers, open_table, start_game_from, version

pytestmark = pytest.mark.browser

helpers = load_engine_helpers()

SIZES = {
    "desk": (1440, 900),
    "laptop": (1280, 720),
    "phone": (390, 844),
    "small-phone": (360, 640),
    "sideways": (844, 390),
}
PHONES = {"phone", "small-phone", "sideways"}
LOCALES = {"en": "en-GB", "de": "de-DE", "bn": "bn-BD"}


class Pool:
    """The 270 cards, handed out by rank so that a made-up position never names a card twice."""

    def __init__(self):
        self.left = Counter(helpers.canonical_deck())

    def take(self, rank: str, count: int) -> list[str]:
        codes = ["JK"] if rank == "JK" else [rank + suit for suit in "CDHS"]
        taken: list[str] = []
        while len(taken) < count:
            code = max(codes, key=lambda c: self.left[c])
            assert self.left[code] > 0, f"no {rank} left"
            self.left[code] -= 1
            taken.append(code)
        return taken

    def meld(self, rank: str, naturals: int, wild: int = 0) -> str:
        return " ".join(self.take(rank, naturals) + self.take("2", wild))

    def mixed(self, ranks: str, count: int) -> list[str]:
        """`count` naturals of these ranks, each time of the rank with the most cards left."""
        left = lambda rank: sum(self.left[rank + suit] for suit in "CDHS")  # noqa: E731
        return [self.take(max(ranks, key=left), 1)[0] for _ in range(count)]


def late_deal_position() -> dict:
    """Deal 3, late: both teams down with 14 melds each (5 piles of every kind and 9 open melds),
    South to play with 35 cards, 40 cards in the discard pile, every foot picked up."""
    pool = Pool()
    melds = {}
    for team, piles in (("NS", ("K", "A", "8", "Q")), ("EW", ("7", "J", "9", "T"))):
        complete = [
            pool.meld(piles[0], 7),
            pool.meld(piles[1], 7),
            pool.meld(piles[2], 5, 2),
            pool.meld(piles[3], 6, 1),
            " ".join(pool.take("2", 4) + pool.take("JK", 3)),
        ]
        open_melds = [pool.meld(rank, 3 + i % 3, int(i % 4 == 1)) for i, rank in enumerate("456789TJQ")]
        melds[team] = complete + open_melds
    south = pool.mixed("456789TJQKA", 30) + pool.take("2", 2) + pool.take("JK", 1) + ["3C", "3S"]  # black threes
    discard = pool.mixed("456789TJQKA", 40)
    others = {seat: " ".join(pool.mixed("456789TJQKA", 6)) for seat in "WNE"}
    return helpers.position(
        deal=3,
        turn="S",
        phase="play",
        hands={"S": " ".join(south), **others},
        feet=dict.fromkeys("SWNE"),
        melds=melds,
        red_threes={"NS": "3H 3D", "EW": "3D"},
        discard=" ".join(discard),
    )


CHECK = """() => {
  const inView = (r) =>
    r.left >= -0.5 && r.top >= -0.5 && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5;
  const problems = [];
  const hitAt = (element, x, y, what) => {
    const hit = document.elementFromPoint(x, y);
    if (hit && (element === hit || element.contains(hit))) return;
    const by = hit && (hit.id || hit.className || hit.tagName);
    problems.push(`${what} is covered at ${Math.round(x)},${Math.round(y)} by ${by}`);
  };
  const check = (element, what) => {
    const r = element.getBoundingClientRect();
    if (!r.width || !r.height) { problems.push(`${what} has no size`); return; }
    const edges = JSON.stringify([r.left, r.top, r.right, r.bottom].map(Math.round));
    if (!inView(r)) problems.push(`${what} is outside the viewport: ${edges}`);
    else hitAt(element, r.left + 4, r.top + 4, what);
  };
  const cards = [...document.querySelectorAll('#hand .card')];
  cards.forEach((card) => check(card, `card ${card.dataset.key}`));
  // Each stack of alike cards (copies of a card, or on a narrow phone a rank) is one target to
  // tap: its top card shows at least 24 px, its index corner, and every card under it 6 px.
  const stacks = [...document.querySelectorAll('#hand .copies')];
  const rows = new Set(stacks.map((s) => Math.round(s.getBoundingClientRect().top)));
  stacks.forEach((stack, i) => {
    const next = stacks[i + 1];
    const lefts = [...stack.children].map((card) => card.getBoundingClientRect().left);
    lefts.slice(1).forEach((left, j) => {
      const shown = left - lefts[j];
      if (shown < 5.5) problems.push(`a card under ${stack.dataset.code} shows only ${shown.toFixed(1)} px`);
    });
    if (next && Math.round(next.getBoundingClientRect().top) === Math.round(stack.getBoundingClientRect().top)) {
      const width = next.firstElementChild.getBoundingClientRect().left - lefts[lefts.length - 1];
      if (width < 23.5) problems.push(`card ${stack.dataset.code} shows only ${width.toFixed(1)} px`);
    }
  });
  for (const button of document.querySelectorAll('#controls button')) {
    if (!button.hidden) check(button, `button ${button.textContent.trim()}`);
  }
  // Every meld and red-three fan of both teams wholly in sight (issue 29, item 1): inside the
  // viewport, and not cut off by any box around it that clips (no meld hides in a scrolling box).
  for (const meld of document.querySelectorAll('.melds :is(.meld, .red-threes)')) {
    const what = `meld ${meld.closest('.melds').id} ${meld.dataset.rank || meld.className}`;
    check(meld, what);
    const r = meld.getBoundingClientRect();
    for (let box = meld.parentElement; box; box = box.parentElement) {
      if (getComputedStyle(box).overflow === 'visible') continue;
      const b = box.getBoundingClientRect();
      if (r.left < b.left - 0.5 || r.top < b.top - 0.5 || r.right > b.right + 0.5 || r.bottom > b.bottom + 0.5) {
        problems.push(`${what} is clipped by ${box.id || box.className}`);
        break;
      }
    }
  }
  for (const id of ['melds-us', 'melds-them', 'stock', 'discard', 'turn-banner']) {
    check(document.getElementById(id), id);
  }
  const page = document.scrollingElement;
  if (page.scrollHeight > innerHeight + 1 || page.scrollWidth > innerWidth + 1) {
    problems.push(`the page scrolls: ${page.scrollWidth}x${page.scrollHeight}`);
  }
  return { problems, rows: rows.size, cards: cards.length, scoreOpen: document.getElementById('deal-end').open,
    meldLevel: document.getElementById('table').dataset.melds };
}"""


# The elements all on one line: each one's top above every one's bottom.
ONE_LINE = """(selector) => {
  const shown = [...document.querySelectorAll(selector)].filter((e) => e.offsetHeight);
  const boxes = shown.map((e) => e.getBoundingClientRect());
  return Math.max(...boxes.map((b) => b.top)) < Math.min(...boxes.map((b) => b.bottom));
}"""


def assert_table_fits(page, size_name, unless_score=False, rows=2):
    """`unless_score`: between moves, a deal may end (the bots play fast) and its score open over
    the table at any moment: the check then stands down (it is made in the same task as the look)."""
    report = page.evaluate(CHECK)
    if unless_score and report["scoreOpen"]:
        return report
    assert report["problems"] == [], f"{size_name}: " + "; ".join(report["problems"][:8])
    # Two rows at most, on every screen: on a 360-px phone a hand of about 30 different cards
    # cannot keep 24 px a card in two rows (30 × 24 px > 2 × 350 px), so there its cards of one
    # rank stack as copies do (R2: suits count for nothing but a three's colour; docs/VIEW.md).
    assert report["rows"] <= rows, f"{size_name}: the hand takes {report['rows']} rows"
    return report


def sized_page(make_page, size_name, language="en"):
    width, height = SIZES[size_name]
    phone = size_name in PHONES
    return make_page({"width": width, "height": height}, locale=LOCALES[language], is_mobile=phone, has_touch=phone)


def screenshot(page, name):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / name))


@pytest.mark.parametrize("language", ["en", "de", "bn"])
@pytest.mark.parametrize("size_name", list(SIZES))
def test_the_late_deal_table_fits(site, make_page, size_name, language):
    page = sized_page(make_page, size_name, language)
    open_table(page, site, start_game_from(page, site, late_deal_position()))
    assert page.locator("#hand .card").count() == 35
    assert page.locator("#melds-us .meld").count() == 14 and page.locator("#melds-them .meld").count() == 14
    report = assert_table_fits(page, size_name)
    assert report["cards"] == 35
    print(f"{size_name} {language}: every meld in sight at level {report['meldLevel']} (docs/VIEW.md)")
    # The top strip keeps to one line (on a phone Settings is its icon, its name kept), so the melds get the room.
    one_line = page.evaluate(ONE_LINE, ".topbar > *")
    assert one_line, f"{size_name} {language}: the top strip takes more than one line"
    assert page.locator("#btn-settings").get_attribute("aria-haspopup") == "dialog"
    settings = {"en": "Settings", "de": "Einstellungen", "bn": "সেটিংস"}[language]
    assert page.get_by_role("button", name=settings).is_visible()
    # With cards selected (lifted) and a meld made, everything still fits.
    page.locator('#hand button[data-code="KC"]').first.click(position=CORNER)
    page.locator('#hand button[data-code="KD"]').first.click(position=CORNER)
    assert page.locator('#hand button[aria-pressed="true"]').count() == 2
    assert_table_fits(page, size_name)
    if (language, size_name) in (("en", "desk"), ("en", "laptop"), ("en", "phone"), ("de", "small-phone")):
        screenshot(page, f"table-{size_name}-late{'' if language == 'en' else '-' + language}.png")
    assert page.foot_errors == []


def test_the_meld_fans_name_their_cards(site, page):
    open_table(page, site, start_game_from(page, site, late_deal_position()))
    wild_pile = page.locator('#melds-us .meld[data-status="wild"]')
    label = wild_pile.get_attribute("aria-label")
    assert label.startswith("Wild cards, Wild pile: ") and label.count("Joker") == 3 and label.count("Two of") == 4
    open_four = page.locator('#melds-us button.meld[data-rank="4"]')  # open, South's turn: a button to add to
    assert open_four.get_attribute("aria-label").startswith("Fours, 3 cards, incomplete: Four of ")
    assert open_four.locator(".card").count() == 3  # the meld is drawn as its cards
    assert page.locator('#melds-us .meld[data-status="dirty"] .pile-mark').first.inner_text() == "≈"
    discard = page.locator("#discard .pile-fan")
    assert discard.locator(".card").count() == 5
    assert discard.get_attribute("aria-label").startswith("Discard pile: 40 cards. On top: ")


ON_SCREEN = """id => { const box = document.getElementById(id).getBoundingClientRect();
  return box.top >= 0 && box.bottom <= window.innerHeight; }"""

MY_TURN_OR_DEAL_END = (
    "document.querySelector('#deal-end').open"
    " || (Number(document.querySelector('#table').dataset.v) >= {since}"
    " && document.querySelector('#turn-banner').classList.contains('mine'))"
)


@pytest.mark.parametrize("size_name", list(SIZES))
def test_the_late_deal_table_fits_with_the_undo_button(site, make_page, size_name):  # V7: a solo game's default
    page = sized_page(make_page, size_name)
    position = {**late_deal_position(), "rules": Rules(undo=True).to_json()}
    open_table(page, site, start_game_from(page, site, position))
    assert page.locator("#btn-undo").is_visible()
    assert_table_fits(page, size_name)
    assert page.foot_errors == []


@pytest.mark.parametrize("size_name", list(SIZES))
def test_turns_played_by_clicking_keep_the_table_on_screen(site, make_page, size_name):
    """From the late-deal position, turns by clicking until the deal ends (the opponents, in their
    feet with a few cards, go out soon): the table fits at every step, focus stays in the hand
    after Draw 2 and Discard, and the finished deal's table fits under a closed score."""
    page = sized_page(make_page, size_name)
    open_table(page, site, start_game_from(page, site, late_deal_position(), level="easy"))
    for _turn in range(6):
        if page.get_by_role("button", name="Draw 2").is_enabled():
            since = version(page)
            page.get_by_role("button", name="Draw 2").click()
            page.wait_for_function(f"Number(document.querySelector('#table').dataset.v) > {since}")
            assert page.evaluate("document.activeElement.closest('#hand') !== null"), (
                "after Draw 2 the focus is in the hand"
            )
        assert_table_fits(page, size_name)
        page.locator("#hand .card").first.click(position=CORNER)
        since = version(page)
        page.get_by_role("button", name="Discard").click()
        page.wait_for_function(
            f"Number(document.querySelector('#table').dataset.v) > {since} || document.querySelector('#deal-end').open"
        )
        assert page.evaluate(
            "document.querySelector('#deal-end').open || document.activeElement.closest('#hand') !== null"
        ), "after Discard the focus is in the hand"
        assert_table_fits(page, size_name, unless_score=True)
        page.wait_for_function(MY_TURN_OR_DEAL_END.format(since=since + 7), timeout=60000)
        if page.locator("#deal-end").is_visible():
            break
    else:
        pytest.fail("the deal did not end in six turns")
    # The score opens at its title (who won what), with Next deal on screen but sideways.
    assert page.evaluate(ON_SCREEN, "deal-end-title"), "the score's title is on screen"
    if size_name != "sideways":
        assert page.evaluate(ON_SCREEN, "btn-next-deal"), "Next deal is on screen with the title"
    # The score can be closed to look at the finished table, and opened again.
    assert page.locator("#deal-info").inner_text().startswith("Deal 3")  # not yet the next deal's table
    page.get_by_role("button", name="Look at the table").click()
    assert not page.locator("#deal-end").is_visible()
    page.wait_for_function("document.activeElement && document.activeElement.id === 'btn-show-score'")
    assert_table_fits(page, size_name)
    if size_name in ("desk", "phone"):
        screenshot(page, f"table-{size_name}-deal-end.png")
    page.get_by_role("button", name="Show the score").click()
    page.get_by_role("button", name="Next deal").click()
    page.wait_for_function("document.querySelector('#deal-info').textContent.includes('Deal 4 of 4')")
    assert page.locator("#deal-over").is_hidden()
    assert_table_fits(page, size_name)
    assert page.foot_errors == []


@pytest.mark.parametrize("size_name", ["desk", "phone"])
def test_the_late_deal_table_fits_with_large_cards_and_four_colours(site, make_page, size_name):
    page = sized_page(make_page, size_name)
    settings = json.dumps({"largeCards": True, "fourColour": True, "speed": "fast"})
    page.context.add_init_script(f"try {{ localStorage.setItem('foot.settings', '{settings}'); }} catch (e) {{}}")
    open_table(page, site, start_game_from(page, site, late_deal_position()))
    table = page.locator("#table")
    assert table.get_attribute("data-cards") == "large" and table.get_attribute("data-deck") == "four"
    assert_table_fits(page, size_name, rows=3)  # large cards, chosen: a third row rather than cards under 24 px
    colours = page.evaluate("""() => ['C', 'D', 'H', 'S'].map((suit) =>
      getComputedStyle(document.querySelector(`#hand .card.suit-${suit}`)).color)""")
    assert len(set(colours)) == 4, colours


# 40 cards, all different: the nine ranks 4 to Q in every suit, two twos, a joker, a black three.
FORTY_DIFFERENT = " ".join(rank + suit for rank in "456789TJQ" for suit in "CDHS") + " 2C 2H JK 3C"


def forty_different_position() -> dict:
    return helpers.position(
        deal=3,
        turn="S",
        phase="play",
        hands={"S": FORTY_DIFFERENT},
        feet=dict.fromkeys("SWNE"),
        melds={"NS": helpers.GOING_OUT_PILES, "EW": ["7C 7D 7H"]},
        discard="KC KD AS",
    )


@pytest.mark.parametrize("order", ["rank", "suit"])
def test_forty_different_cards_fit_a_360_px_phone_in_two_rows(site, make_page, order):
    """Issue 13, item 1 at its hardest: 40 different cards in a 360-px-wide hand cannot each keep a
    24-px corner in two rows (about 14 fit a row). The cards of one rank (alike by R2: suits count
    only for a three's colour) then stack like copies: one target per rank, its top card's corner
    24 px wide, the cards under it 6 px or more, in two rows. A tap selects a card of the rank, a
    second tap another. In the suit order the same happens once three rows could not keep 24 px
    either (docs/VIEW.md: the decision)."""
    page = sized_page(make_page, "small-phone")
    page.context.add_init_script(f"try {{ localStorage.setItem('foot.sort', '{order}'); }} catch (e) {{}}")
    open_table(page, site, start_game_from(page, site, forty_different_position()))
    report = assert_table_fits(page, "small-phone")
    assert report["cards"] == 40
    hand = page.locator("#hand")
    assert hand.get_attribute("data-alike") == "rank" and hand.get_attribute("data-rows") == "2"
    nines = page.locator('#hand .copies[data-code="9"] .card')
    assert nines.count() == 4  # 9C 9D 9H 9S in one stack
    nines.first.click(position=CORNER)
    nines.last.click(position=CORNER)
    assert page.locator('#hand .copies[data-code="9"] .card[aria-pressed="true"]').count() == 2
    assert page.locator('#hand .card[aria-pressed="true"]').count() == 2  # nothing else was picked
    assert_table_fits(page, "small-phone")
    if order == "rank":
        screenshot(page, "table-small-phone-40-different.png")
    assert page.foot_errors == []


FORTY_CARDS = (
    "4C 4D 4H 4S 5C 5D 5H 5S 6C 6D 6H 6S 7C 7D 7H 7S 8C 8D 8H 8S 9C 9D 9H 9S TC TD TH TS "
    "JC JD JH JS QC QD QH KC KD 2C JK 3S"
)
RENDER_TIME = """async () => {
  const hook = window.footTable;
  const times = [];
  for (let i = 0; i < 30; i += 1) {
    // As a draw or a discard does: the hand changes (a card comes or goes), and so do the piles.
    const v = hook.model.v;
    const view = hook.model.view;
    const ops = [{ op: "replace", path: "/stock", value: view.stock - 1 },
      i % 2 ? { op: "add", path: "/hand/3S", value: 1 } : { op: "remove", path: "/hand/3S" },
      { op: "replace", path: "/seats/S/cards", value: view.seats.S.cards + (i % 2 ? 1 : -1) }];
    const start = performance.now();
    hook.receive({ type: "patch", v: v + 1, ops, events: [] });
    times.push(performance.now() - start);
    await new Promise((resolve) => requestAnimationFrame(resolve));
  }
  times.sort((a, b) => a - b);
  const cards = document.querySelectorAll('#hand .card').length;
  return { best: times[0], median: times[15], worst: times[times.length - 1], cards };
}"""


def test_a_patch_renders_in_under_16_ms_with_a_40_card_hand(site, make_page):
    """The budget of issue 13: applying a patch and drawing the whole table again (hand, melds,
    piles, seats, controls) takes under 16 ms with a 40-card hand and 14 melds a team."""
    page = sized_page(make_page, "desk")
    position_with_forty = helpers.position(
        deal=3,
        turn="S",
        phase="play",
        hands={"S": FORTY_CARDS},
        feet=dict.fromkeys("SWNE"),
        melds={"NS": helpers.GOING_OUT_PILES, "EW": ["7C 7D 7H"]},
        discard=" ".join(["9C 9D 9H 9S TC TD TH TS AC AD"] * 4),
    )
    open_table(page, site, start_game_from(page, site, position_with_forty))
    result = page.evaluate(RENDER_TIME)
    assert result["cards"] in (39, 40)
    print(
        f"patch render with 40 cards: best {result['best']:.2f} ms,",
        f"median {result['median']:.2f} ms, worst {result['worst']:.2f} ms",
    )
    # The work itself (the best of 30 patches) within a frame. The median is printed, not checked:
    # on the shared 2-core test machine (a load average of 10 and more) it measures the others.
    assert result["best"] < 16, result


@pytest.mark.parametrize("language", ["en", "de", "bn"])
@pytest.mark.parametrize("size_name", ["phone", "small-phone"])
def test_settings_and_the_log_button_are_on_screen_at_the_start_of_a_deal(site, make_page, size_name, language):
    """Issue 29, item 4: the top strip (deal, first meld's minimum, buttons) wraps rather than
    scrolls sideways, so Settings and Score and log are always on screen on a phone."""
    page = sized_page(make_page, size_name, language)
    position = helpers.position(hands={"S": "KC KD KH 8C 8D 5C 6D 9H 4S 7H 9C"}, turn="S", phase="draw")
    open_table(page, site, start_game_from(page, site, position))
    report = page.evaluate("""() => ['btn-settings', 'btn-side', 'deal-info', 'minimum-info'].map((id) => {
      const r = document.getElementById(id).getBoundingClientRect();
      return [id, r.width > 0 && r.left >= 0 && r.right <= innerWidth && r.top >= 0 && r.bottom <= innerHeight];
    })""")
    assert all(inside for _, inside in report), report
    strip = page.locator(".topbar")
    assert strip.evaluate("bar => bar.scrollWidth <= bar.clientWidth"), "the top strip scrolls sideways"
    assert_table_fits(page, size_name)
