"""The site in German and Bengali: the pages and the table's JavaScript strings come out
translated (Django's catalogue and the /jsi18n/ JavaScript catalogue), and Bengali text is
drawn with a Bengali font (Noto Sans Bengali) rather than boxes."""

import re

import pytest

from .conftest import DESK, PHONE

pytestmark = pytest.mark.browser


def start_game(page, site, button):
    page.goto(site.url + "/")
    page.get_by_role("button", name=button).click()
    page.wait_for_url(re.compile(r"/g/[0-9a-f-]+/"))
    page.wait_for_selector("#table[aria-busy=false]")


def test_german_home_and_rules(site, make_page):
    page = make_page(DESK, locale="de-DE")
    page.goto(site.url + "/")
    assert page.locator("html").get_attribute("lang") == "de"
    for heading in ("Täglich", "Neues Spiel", "Mit Freunden spielen"):
        assert page.get_by_role("heading", name=heading).is_visible()
    page.goto(site.url + "/rules/")
    text = page.locator("main").inner_text()
    for word in ("2 ziehen", "Stapel nehmen", "Melden", "Beiseitelegen", "Auslegen", "Abwerfen"):
        assert word in text


def test_german_table_controls_and_card_names(site, make_page):
    page = make_page(DESK, locale="de-DE")
    start_game(page, site, "Neues Spiel starten")
    for name in ("2 ziehen", "Stapel nehmen", "Melden", "Beiseitelegen", "Auslegen", "Abwerfen"):
        assert page.get_by_role("button", name=name, exact=True).count() == 1, name
    assert page.get_by_role("region", name="Deine Hand").is_visible()
    names = page.locator("#hand button.card").evaluate_all("buttons => buttons.map(b => b.getAttribute('aria-label'))")
    assert all(re.fullmatch(r"(Kreuz|Karo|Herz|Pik)-\w+|Joker", name) for name in names), names
    assert "Du bist dran" in page.locator("#turn-banner").inner_text()
    assert "Runde 1 von 4" in page.locator("#deal-info").inner_text()
    assert page.foot_errors == []


def bengali_font_of(page, selector):
    """The platform fonts Chromium really used to draw the text of an element (CDP)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": -1})
    node = cdp.send("DOM.querySelector", {"nodeId": root["root"]["nodeId"], "selector": selector})
    fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node["nodeId"]})["fonts"]
    return {font["familyName"] for font in fonts}


def test_bengali_home_renders_its_strings_in_a_bengali_font(site, make_page):
    page = make_page(PHONE, locale="bn-BD")
    page.goto(site.url + "/")
    assert page.locator("html").get_attribute("lang") == "bn"
    assert page.get_by_role("heading", name="দৈনিক").is_visible()
    assert page.get_by_role("heading", name="নতুন খেলা").is_visible()
    fonts = bengali_font_of(page, ".lead")
    assert any("Bengali" in family for family in fonts), fonts


def test_the_bengali_rules_page_writes_its_numbers_in_bengali_digits(site, make_page):
    """Issue 13, item 8: the texts (the catalogue's) and the card values (the `digits` filter)."""
    page = make_page(PHONE, locale="bn-BD")
    page.goto(site.url + "/rules/")
    assert page.locator("html").get_attribute("lang") == "bn"
    text = page.locator("main").inner_text()
    assert re.findall(r"[0-9]+", text) == [], "Western digits on the Bengali rules page"
    for number in ("৫৪", "২৭০", "১৩", "১৫০০", "১৯৩৯"):  # packs, cards, a packet, the wild pile, the year
        assert number in text, number
    values = page.locator("table.values td").all_inner_texts()
    assert values == ["৫০", "২০", "১০", "৫"]  # R4: joker, two and ace, eight to king, four to seven
    english = make_page(PHONE)
    english.goto(site.url + "/rules/")
    assert english.locator("table.values td").all_inner_texts() == ["50", "20", "10", "5"]


def test_bengali_table(site, make_page):
    page = make_page(PHONE, locale="bn-BD")
    start_game(page, site, "নতুন খেলা শুরু করুন")
    assert page.get_by_role("button", name="২টি তুলুন").is_visible()
    assert page.get_by_role("region", name="আপনার হাত").is_visible()
    assert "আপনার পালা" in page.locator("#turn-banner").inner_text()
    fonts = bengali_font_of(page, "#turn-banner")
    assert any("Bengali" in family for family in fonts), fonts
    assert page.foot_errors == []
