"""Nicknames: the rules a name must meet to appear on a board, and the key that makes it unique.

A nickname is NFC-normalised, 2–20 user-perceived characters long (grapheme clusters: a letter
with its combining marks, or a consonant cluster joined by a virama or ZWJ, counts once) and made
of letters and marks of any script, digits, spaces, "-" and "_". Two nicknames are the same when
their folded keys are equal: case, compatibility forms, Latin diacritics, separators and
look-alike letters (Cyrillic "а", Greek "ο", digit "0", ...) are folded away, so nobody can pose
as someone else. A small word filter, several languages, is matched on the folded key. Nicknames
are plain text: templates show them auto-escaped and nothing here marks them safe.
"""
import re
import unicodedata

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

MIN_CLUSTERS, MAX_CLUSTERS = 2, 20
MAX_MARKS_PER_CLUSTER = 4  # enough for any script; stops "Zalgo" stacks that overflow the row
SEPARATORS = {" ", "-", "_"}
ZWNJ, ZWJ = "\u200c", "\u200d"
VIRAMA_CLASS = 9  # canonical combining class of viramas (Bengali ্, Devanagari ्, ...)

# Look-alikes, after casefold and NFKC: each maps to the Latin letter it is mistaken for.
CONFUSABLES = str.maketrans({
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "ё": "e", "һ": "h", "і": "l", "ї": "l", "ј": "j", "к": "k",
    "ӏ": "l", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "ѕ": "s", "т": "t", "у": "y",
    "ў": "y", "х": "x", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ь": "b", "з": "3", "ч": "4", "п": "n",
    # Greek
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "l", "κ": "k", "ν": "v", "ο": "o", "ρ": "p",
    "τ": "t", "υ": "u", "χ": "x", "ω": "w", "γ": "y", "ς": "c", "σ": "o", "μ": "u",
    # Latin look-alikes and digits
    "ı": "l", "i": "l", "ɡ": "g", "ø": "o", "ð": "d", "ł": "l", "ß": "ss", "æ": "ae", "œ": "oe",
    "0": "o", "1": "l", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "9": "g", "|": "l",
})
MULTI_LETTER_LOOKALIKES = [("rn", "m"), ("vv", "w"), ("cl", "d")]

# Abuse and impersonation, matched on folded keys (so "F_u_c_k", "FÜCK" and "fцck" are caught).
# Words that hide inside innocent names ("Scunthorpe", "therapist", "Nazim", "badminton") only
# count as a whole word or the whole name; the rest count anywhere.
BLOCKED_ANYWHERE = [
    # English
    "fuck", "shit", "nigger", "nigga", "faggot", "bitch", "whore", "wanker", "dickhead", "asshole",
    # German
    "arschloch", "fotze", "hurensohn", "wichser", "schlampe", "missgeburt", "siegheil", "schwuchtel",
    # Bengali (script and common transliterations)
    "চোদ", "চুদ", "খানকি", "হারামজাদা", "শুয়োরেরবাচ্চা", "কুত্তারবাচ্চা",
    "madarchod", "bokachoda", "bhenchod", "khanki", "haramjada", "chudir",
    # Spanish, French, Portuguese
    "mierda", "pendejo", "cabron", "putain", "salope", "connard", "encule", "caralho",
]
BLOCKED_WHOLE_WORDS = [
    "cunt", "slut", "rape", "rapist", "nazi", "hitler", "retard", "hure", "puta", "মাগী", "মাগি",
    # Names reserved for the site and its moderators
    "admin", "moderator", "mod", "footcanasta", "anonymous", "anonym", "system",
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


def clusters(text: str) -> list[str]:
    """User-perceived characters, simplified: a base with its marks, joiners and virama-joined letters."""
    result: list[str] = []
    for char in text:
        joins_previous = result and (
            is_mark(char) or char in (ZWJ, ZWNJ)
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
    """The folded form that decides uniqueness and the word filter."""
    text = unicodedata.normalize("NFKC", normalise(nickname)).casefold()
    text = strip_latin_diacritics(text)
    text = unicodedata.normalize("NFKC", text).casefold().translate(CONFUSABLES)
    text = "".join(c for c in text if c not in SEPARATORS and c not in (ZWJ, ZWNJ))
    for letters, lookalike in MULTI_LETTER_LOOKALIKES:
        text = text.replace(letters, lookalike)
    return text


BLOCKED_ANYWHERE_KEYS = [nickname_key(word) for word in BLOCKED_ANYWHERE]
BLOCKED_WHOLE_KEYS = {nickname_key(word) for word in BLOCKED_WHOLE_WORDS}


def is_blocked(nickname: str) -> bool:
    key = nickname_key(nickname)
    word_keys = {nickname_key(word) for word in nickname.replace("-", " ").replace("_", " ").split()}
    return any(blocked in key for blocked in BLOCKED_ANYWHERE_KEYS) or bool(({key} | word_keys) & BLOCKED_WHOLE_KEYS)


def validate(raw: str) -> tuple[str, str]:
    """The nickname to store and its key; NicknameError(code, message) when it breaks a rule."""
    if not isinstance(raw, str):
        raise NicknameError("nickname_missing", _("Choose a nickname."))
    nickname = normalise(raw)
    if not nickname:
        raise NicknameError("nickname_missing", _("Choose a nickname."))
    if not all(allowed_char(c) for c in nickname) or is_mark(nickname[0]) or nickname[0] in (ZWJ, ZWNJ):
        raise NicknameError("nickname_characters",
                            _("Use letters, digits, spaces, “-” and “_” only."))
    parts = clusters(nickname)
    if not MIN_CLUSTERS <= len(parts) <= MAX_CLUSTERS:
        raise NicknameError("nickname_length",
                            _("A nickname has %(min)d to %(max)d characters.") % {"min": MIN_CLUSTERS, "max": MAX_CLUSTERS})
    if any(sum(is_mark(c) for c in part) > MAX_MARKS_PER_CLUSTER for part in parts):
        raise NicknameError("nickname_characters", _("Too many accents on one letter."))
    key = nickname_key(nickname)
    if len(key) < MIN_CLUSTERS - 1 or not any(c.isalnum() for c in key):
        raise NicknameError("nickname_characters", _("A nickname needs a letter or a digit."))
    if is_blocked(nickname):
        raise NicknameError("nickname_blocked", _("This nickname is not allowed. Please choose another."))
    return nickname, key


def set_nickname(player, raw: str) -> str:
    """Give the player a nickname (or a new one); raises NicknameError when it cannot be theirs."""
    from leaderboards.boards import refresh_record
    from leaderboards.models import Player

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
