"""Nicknames: the rules a name must meet to appear on a board, and the key that makes it unique.

A nickname is NFC-normalised, 2–20 user-perceived characters long (grapheme clusters: a letter
with its combining marks, or a consonant cluster joined by a virama or ZWJ, counts once) and made
of letters and marks, digits, spaces, "-" and "_". It fits a board's row: at most as many marks
drawn over or under the letters as there are letters (three on one at most), and at most 24
columns wide (a wide East Asian character counts two; a ligature that stands for a word or a
phrase, such as U+FDFA, is refused). Three rules stand against impersonation:

- one script: every letter is of one script, besides Common and Inherited characters (digits,
  marks). The only mixes allowed are those of UTS #39's "highly restrictive" level without
  Latin: Han with Hiragana and Katakana (Japanese names are written so: 山田さくら), Han with
  Bopomofo, Han with Hangul. Latin is never mixed in: every allowed mix is one more way to spell
  a look-alike, and Latin is the script the look-alikes imitate;
- nothing invisible: the default-ignorable code points (Hangul fillers U+3164, U+FFA0, U+115F,
  U+1160, zero-width and bidi controls, variation selectors, ...) are refused, except a ZWJ or
  ZWNJ right after a virama, where Bengali and the other Indic scripts need them;
- two nicknames are the same when their keys are equal: the UTS #39 confusables skeleton (the
  `disarm` library's, with Unicode's confusables.txt; it also folds case and compatibility
  forms, and 0 with O, 1 with l), then Latin diacritics, "i" (≡ l after case folding), a few
  digits read as letters, separators and "rn" ≡ "m" folded away. The word filter and the
  reserved names (the site's own and the labels the boards and the table show, "Anonymous",
  "Computer", "You", ... in every language of the site) are matched on keys too, so "Ꭺnonymous"
  and "ad\u3164min" cannot pass.

Nicknames are plain text: templates show them auto-escaped and nothing here marks them safe.
"""

import functools
import re
import unicodedata

import disarm
from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from leaderboards.boards import refresh_record
from players.models import Player

MIN_CLUSTERS, MAX_CLUSTERS = 2, 20
MAX_MARKS_PER_CLUSTER = 4  # enough for any script; stops "Zalgo" stacks that overflow the row
# Marks drawn over or under a letter (non-spacing, not a virama): a vocalised Hebrew or Arabic name
# carries about one per letter, Thai and Bengali fewer; "Zalgo" text carries several on each.
MAX_STACKED_PER_CLUSTER = 3
# The row of a board holds 20 narrow letters: a wide (East Asian) character counts two, a
# compatibility character as wide as what it stands for (U+FDFA is a whole phrase in one).
MAX_DISPLAY_WIDTH = 24
MAX_CHAR_WIDTH = 2  # one character drawn as a word or a phrase (U+FDFA, U+FDFB) is refused
SEPARATORS = {" ", "-", "_"}
ZWNJ, ZWJ = "\u200c", "\u200d"
VIRAMA_CLASS = 9  # canonical combining class of viramas (Bengali ্, Devanagari ्, ...)

# Default_Ignorable_Code_Point (Unicode's DerivedCoreProperties.txt): drawn as nothing, or as a
# blank that looks like no character; Python's unicodedata does not carry this property.
DEFAULT_IGNORABLE_RANGES = [
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
]
# UTS #39 "highly restrictive" mixes, without Latin (see the module docstring)
ALLOWED_SCRIPT_MIXES = [{"HAN", "HIRAGANA", "KATAKANA"}, {"HAN", "BOPOMOFO"}, {"HAN", "HANGUL"}]

# After the skeleton: "i" and "l" (casefold made "I" an "i"), and digits read as letters.
LETTER_FOLDS = str.maketrans({"i": "l", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "9": "g"})
MULTI_LETTER_LOOKALIKES = [("rn", "m"), ("vv", "w"), ("cl", "d")]

# Abuse and impersonation, matched on folded keys (so "F_u_c_k", "FÜCK" and "fцck" are caught).
# Words that hide inside innocent names ("Scunthorpe", "therapist", "Nazim", "badminton") only
# count as a whole word or the whole name; the rest count anywhere.
BLOCKED_ANYWHERE = [
    # English
    "fuck",
    "shit",
    "nigger",
    "nigga",
    "faggot",
    "bitch",
    "whore",
    "wanker",
    "dickhead",
    "asshole",
    # German
    "arschloch",
    "fotze",
    "hurensohn",
    "wichser",
    "schlampe",
    "missgeburt",
    "siegheil",
    "schwuchtel",
    # Bengali (script and common transliterations)
    "চোদ",
    "চুদ",
    "খানকি",
    "হারামজাদা",
    "শুয়োরেরবাচ্চা",
    "কুত্তারবাচ্চা",
    "madarchod",
    "bokachoda",
    "bhenchod",
    "khanki",
    "haramjada",
    "chudir",
    # Spanish, French, Portuguese
    "mierda",
    "pendejo",
    "cabron",
    "putain",
    "salope",
    "connard",
    "encule",
    "caralho",
]
BLOCKED_WHOLE_WORDS = [
    "cunt",
    "slut",
    "rape",
    "rapist",
    "nazi",
    "hitler",
    "retard",
    "hure",
    "puta",
    "মাগী",
    "মাগি",
    # Names reserved for the site and its moderators (the boards' labels: SITE_LABELS below)
    "admin",
    "moderator",
    "mod",
    "footcanasta",
    "system",
]


class NicknameError(ValueError):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def normalise(raw: str) -> str:
    """NFC, with surrounding spaces trimmed and inner runs of spaces made one."""
    return re.sub(" {2,}", " ", unicodedata.normalize("NFC", raw or "")).strip(" ")


def is_mark(char: str) -> bool:
    return unicodedata.category(char).startswith("M")


def is_stacked_mark(char: str) -> bool:
    """A mark drawn over or under its letter: non-spacing or enclosing, and not a virama."""
    return unicodedata.category(char) in ("Mn", "Me") and unicodedata.combining(char) != VIRAMA_CLASS


def too_many_marks(parts: list[str]) -> bool:
    """More stacked marks than letters in the name, or more than MAX_STACKED_PER_CLUSTER on one."""
    stacked = [sum(is_stacked_mark(c) for c in part) for part in parts]
    return sum(stacked) > len(parts) or max(stacked, default=0) > MAX_STACKED_PER_CLUSTER


def char_width(char: str) -> int:
    """Columns a character takes: its compatibility form's, wide (East Asian) characters two."""
    if is_mark(char) or char in (ZWJ, ZWNJ):
        return 0
    expanded = unicodedata.normalize("NFKC", char)
    return sum(2 if unicodedata.east_asian_width(c) in ("W", "F") else 1 for c in expanded if not is_mark(c))


def too_wide(parts: list[str]) -> bool:
    """Wider than a board's row, or one character drawn as a word (a conjunct is drawn as one)."""
    widths = [max(map(char_width, part)) for part in parts]
    return sum(widths) > MAX_DISPLAY_WIDTH or max(widths, default=0) > MAX_CHAR_WIDTH


def clusters(text: str) -> list[str]:
    """User-perceived characters, simplified: a base with its marks, joiners and virama-joined letters."""
    result: list[str] = []
    for char in text:
        joins_previous = result and (
            is_mark(char)
            or char in (ZWJ, ZWNJ)
            or result[-1][-1] == ZWJ
            or unicodedata.combining(result[-1][-1]) == VIRAMA_CLASS
        )
        if joins_previous:
            result[-1] += char
        else:
            result.append(char)
    return result


def allowed_char(char: str) -> bool:
    category = unicodedata.category(char)
    return category[0] in "LM" or category == "Nd" or char in SEPARATORS or char in (ZWJ, ZWNJ)


def strip_latin_diacritics(text: str) -> str:
    # Only the generic combining diacritics (U+0300–U+036F): Bengali vowel signs and other
    # scripts' marks are letters' parts there and must keep names apart.
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(c for c in decomposed if not "\u0300" <= c <= "\u036f")


def nickname_key(nickname: str) -> str:
    """The folded form that decides uniqueness, the word filter and the reserved names."""
    text = disarm.skeleton_key(normalise(nickname), digit_policy="tr39")  # UTS #39 skeleton, case folded
    text = unicodedata.normalize("NFKC", strip_latin_diacritics(text)).casefold().translate(LETTER_FOLDS)
    text = "".join(c for c in text if c not in SEPARATORS and c not in (ZWJ, ZWNJ))
    for letters, lookalike in MULTI_LETTER_LOOKALIKES:
        text = text.replace(letters, lookalike)
    return text


def is_default_ignorable(char: str) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in DEFAULT_IGNORABLE_RANGES)


def has_invisible(nickname: str) -> bool:
    """A default-ignorable code point, other than a ZWJ/ZWNJ right after a virama (an Indic conjunct's)."""
    for index, char in enumerate(nickname):
        if not is_default_ignorable(char):
            continue
        after_virama = index > 0 and unicodedata.combining(nickname[index - 1]) == VIRAMA_CLASS
        if not (char in (ZWJ, ZWNJ) and after_virama):
            return True
    return False


def script_of(char: str) -> str | None:
    """The char's script (UAX #24, as disarm knows it), None for Common and Inherited ones."""
    found = disarm.detect_scripts(char)
    if found:
        return found[0].name
    # disarm resolves most scripts, not all (Osage, ...): a letter it does not place counts as the
    # script its Unicode name begins with; modifier letters (ʹ, ー, 々) are Common or shared.
    if unicodedata.category(char) in ("Lu", "Ll", "Lt", "Lo"):
        return unicodedata.name(char, "UNNAMED").split()[0]
    return None


def scripts_of(nickname: str) -> set[str]:
    return {script for script in map(script_of, unicodedata.normalize("NFKC", nickname)) if script}


def is_single_script(nickname: str) -> bool:
    scripts = scripts_of(nickname)
    return len(scripts) <= 1 or any(scripts <= mix for mix in ALLOWED_SCRIPT_MIXES)


# What the boards and the table call a seat or a player that is not a nickname, in the site's
# languages (their translations come from the catalogues): a nickname may not look like them.
SITE_LABELS = [
    gettext_noop("Anonymous"),
    gettext_noop("Computer"),
    gettext_noop("Bot"),
    gettext_noop("You"),
    gettext_noop("North"),
    gettext_noop("South"),
    gettext_noop("East"),
    gettext_noop("West"),
    gettext_noop("Partner"),
    gettext_noop("Spectator"),
]
LONG_LABEL = 7  # a label this long cannot hide in an innocent name ("Anonymous7"), so counts anywhere


@functools.cache
def label_keys() -> frozenset[str]:
    """The keys of every site label in every language of the site (read once per process)."""
    keys = set()
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            keys |= {nickname_key(_(label)) for label in SITE_LABELS}
    return frozenset(keys)


def imitates_a_label(nickname: str) -> bool:
    key = nickname_key(nickname)
    word_keys = {nickname_key(word) for word in nickname.replace("-", " ").replace("_", " ").split()}
    return any(
        label == key or label in word_keys or (len(label) >= LONG_LABEL and label in key) for label in label_keys()
    )


BLOCKED_ANYWHERE_KEYS = [nickname_key(word) for word in BLOCKED_ANYWHERE]
BLOCKED_WHOLE_KEYS = {nickname_key(word) for word in BLOCKED_WHOLE_WORDS}


def is_blocked(nickname: str) -> bool:
    key = nickname_key(nickname)
    word_keys = {nickname_key(word) for word in nickname.replace("-", " ").replace("_", " ").split()}
    return any(blocked in key for blocked in BLOCKED_ANYWHERE_KEYS) or bool(({key} | word_keys) & BLOCKED_WHOLE_KEYS)


def validate(raw: object) -> tuple[str, str]:
    """The nickname to store and its key; NicknameError(code, message) when it breaks a rule."""
    if not isinstance(raw, str):
        raise NicknameError("nickname_missing", _("Choose a nickname."))
    nickname = normalise(raw)
    if not nickname:
        raise NicknameError("nickname_missing", _("Choose a nickname."))
    if has_invisible(nickname):
        raise NicknameError("nickname_invisible", _("Invisible or blank characters are not allowed."))
    if not all(allowed_char(c) for c in nickname) or is_mark(nickname[0]) or nickname[0] in (ZWJ, ZWNJ):
        raise NicknameError("nickname_characters", _("Use letters, digits, spaces, “-” and “_” only."))
    parts = clusters(nickname)
    if not MIN_CLUSTERS <= len(parts) <= MAX_CLUSTERS:
        raise NicknameError(
            "nickname_length",
            _("A nickname has %(min)d to %(max)d characters.") % {"min": MIN_CLUSTERS, "max": MAX_CLUSTERS},
        )
    if any(sum(is_mark(c) for c in part) > MAX_MARKS_PER_CLUSTER for part in parts):
        raise NicknameError("nickname_characters", _("Too many accents on one letter."))
    if too_many_marks(parts):
        raise NicknameError("nickname_marks", _("Too many accents or marks on the letters."))
    if too_wide(parts):
        raise NicknameError("nickname_width", _("This nickname is too wide to show on the boards."))
    if not is_single_script(nickname):
        raise NicknameError("nickname_script", _("Use the letters of one script (digits may be added)."))
    key = nickname_key(nickname)
    if len(key) < MIN_CLUSTERS - 1 or not any(c.isalnum() for c in key):
        raise NicknameError("nickname_characters", _("A nickname needs a letter or a digit."))
    if is_blocked(nickname):
        raise NicknameError("nickname_blocked", _("This nickname is not allowed. Please choose another."))
    if imitates_a_label(nickname):
        raise NicknameError("nickname_reserved", _("The site itself shows this name; please choose another."))
    return nickname, key


def set_nickname(player: Player, raw: object) -> str:
    """Give the player a nickname (or a new one); raises NicknameError when it cannot be theirs."""
    if player.banned:
        raise NicknameError("player_banned", _("This player cannot choose a nickname."))
    nickname, key = validate(raw)
    if Player.objects.filter(nickname_key=key).exclude(pk=player.pk).exists():
        raise NicknameError("nickname_taken", _("This nickname (or one that looks the same) is taken."))
    try:
        with transaction.atomic():
            Player.objects.filter(pk=player.pk).update(nickname=nickname, nickname_key=key)
    except IntegrityError:
        raise NicknameError("nickname_taken", _("This nickname (or one that looks the same) is taken.")) from None
    player.nickname, player.nickname_key = nickname, key
    refresh_record(player)
    return nickname
