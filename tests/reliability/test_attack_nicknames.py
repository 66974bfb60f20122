"""A nickname cannot overflow a board's row (issue 24, finding 8).

Twenty letters with four combining marks each (a "Zalgo" stack over every letter) and a single wide
ligature such as U+FDFA (ARABIC LIGATURE SALLALLAHOU ALAYHE WASALLAM, one character drawn as a
whole phrase) were accepted. On a real Daphne, `POST /api/nickname` refuses them (400 with a code,
nothing stored), while names of the scripts the site serves, with the marks they need, still pass.
"""

from testsupport.clients import Browser

ZALGO_EVERY_LETTER = "".join(letter + "\u0301\u0308\u0300\u0302" for letter in "abcdefghijklmnopqrst")
WIDE_LIGATURES = ["\ufdfa\ufdfa", "Ali \ufdfa", "\ufdfb\ufdfb"]


def test_stacks_of_marks_and_wide_ligatures_are_refused_on_a_real_server(daphne, sqlite_url):
    server = daphne(sqlite_url)
    attacker = Browser(server.http)
    status, answer = attacker.call("/api/nickname", {"nickname": ZALGO_EVERY_LETTER})
    assert status == 400 and answer["code"] == "nickname_marks", answer
    for name in WIDE_LIGATURES:
        status, answer = attacker.call("/api/nickname", {"nickname": name})
        assert status == 400 and answer["code"] == "nickname_width", (name, answer)
    assert attacker.get("/api/session")["player"]["nickname"] in ("", None)
    for number, name in enumerate(["রবীন্দ্রনাথ", "স্ত্রীর", "Nguyễn Thị Thảo", "山田さくら"]):
        person = Browser(server.http)
        status, answer = person.call("/api/nickname", {"nickname": name})
        assert status == 200 and answer["nickname"] == name, (number, answer)
