"""Nicknames that cannot impersonate (issue #18, finding 5): the UTS #39 skeleton for the key, one
script per name, nothing invisible, and none of the board's own labels.

One case per script and filler the attacker used (Hangul fillers, Lisu, Armenian, Cherokee,
`ɪ`, `ɩ`, "Ꭺnonymous"), and the names that must stay allowed (Bengali, German umlauts, Cyrillic
alone, Chinese, Japanese, Korean).
"""

import pytest

from leaderboards import nicknames
from leaderboards.nicknames import NicknameError, nickname_key, validate


def refused(name: str) -> str:
    with pytest.raises(NicknameError) as error:
        validate(name)
    return error.value.code


@pytest.mark.parametrize("filler", ["\u3164", "\uffa0", "\u115f", "\u1160"])
def test_hangul_fillers_are_refused_alone_and_inside_reserved_words(filler):
    assert refused(filler * 3) == "nickname_invisible"
    assert refused(f"ad{filler}min") == "nickname_invisible"
    assert refused(f"Anna{filler}") == "nickname_invisible"


@pytest.mark.parametrize(
    "invisible",
    [
        "\u200b",
        "\u2060",
        "\ufeff",
        "\u00ad",
        "\u034f",
        "\ufe0f",
        "\u180e",
        "\u202e",
        "\u2066",
        "\u200e",
        "\U000e0041",
        "\u200d",
        "\u200c",
    ],
)
def test_zero_width_bidi_and_other_default_ignorable_code_points_are_refused(invisible):
    assert refused(f"An{invisible}na") == "nickname_invisible"


def test_a_joiner_after_a_virama_stays_allowed_for_bengali_conjuncts():
    assert validate("র\u09cd\u200dযাব")  # র্‍যাব: ZWJ after the virama, as Bengali writes ra-phala
    assert refused("মা\u200dগী") == "nickname_invisible"  # a ZWJ elsewhere only hides a word


@pytest.mark.parametrize(
    "impostor, original",
    [
        ("ꓲvan", "Ivan"),  # Lisu letter I
        ("ꓮnna", "Anna"),  # Lisu letter A
        ("օlga", "olga"),  # Armenian o
        ("Ꭺnna", "Anna"),  # Cherokee A
        ("Ꭵvan", "ivan"),  # Cherokee v as i
    ],
)
def test_look_alikes_of_other_scripts_are_refused_and_share_the_originals_key(impostor, original):
    assert refused(impostor) == "nickname_script"
    assert nickname_key(impostor) == nickname_key(original)


@pytest.mark.parametrize("impostor", ["ɪvan", "ɩvan", "ıvan", "lvan", "1van", "IVAN"])
def test_latin_look_alikes_of_i_share_the_key_of_ivan(impostor):
    assert validate(impostor)[1] == nickname_key("Ivan") == nickname_key("ivan")


@pytest.mark.django_db
@pytest.mark.parametrize("impostor", ["ɪvan", "ɩvan", "IVAN", "1van"])
def test_a_latin_look_alike_cannot_sit_next_to_an_existing_nickname(make_player, impostor):
    make_player("ivan")
    with pytest.raises(NicknameError) as error:
        nicknames.set_nickname(make_player(), impostor)
    assert error.value.code == "nickname_taken"


@pytest.mark.parametrize(
    "label",
    [
        "Anonymous",
        "ANONYMOUS",
        "An0nym0us",
        "Anonymous 7",
        "Anonymous7",
        "Ꭺnonymous",
        "Anonym",
        "Computer",
        "Cοmputer",
        "Comp_uter",
        "You",
        "Du",
        "আপনি",
        "North",
        "Süd",
        "উত্তর",
        "Partner",
        "বেনামী",
    ],
)
def test_the_boards_labels_cannot_be_imitated(label):
    assert refused(label) in ("nickname_reserved", "nickname_script", "nickname_blocked")


def test_the_labels_are_reserved_in_every_language_of_the_site():
    for label in ["Anonymous", "Anonym", "বেনামী", "Computer", "কম্পিউটার", "You", "Du", "আপনি", "Nord", "উত্তর"]:
        assert refused(label) == "nickname_reserved", label


@pytest.mark.parametrize(
    "name",
    [
        "রবীন্দ্রনাথ",
        "সুমাইয়া",
        "Jörg Müller",
        "Bärbel",
        "Straße",
        "Дмитрий",
        "Ольга",
        "Ζωή",
        "李小龍",
        "山田さくら",
        "ヤマダ太郎",
        "김민준",
        "陳大文ㄅ",
        "Yūki",
        "Anna2",
        "Youssef",
        "Computa",
        "Northcott",
    ],
)
def test_names_of_one_script_stay_allowed(name):
    assert validate(name)


def test_mixed_scripts_are_refused_except_the_cjk_combinations():
    for mixed in ["Ivan Иван", "Tanaka田中", "Anna রবি", "Δmitri", "김さくら"]:
        assert refused(mixed) == "nickname_script", mixed
    for allowed in ["山田さくら", "カタカナ漢字ひらがな", "漢字한글", "漢字ㄅㄆ"]:
        assert validate(allowed), allowed
