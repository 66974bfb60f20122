"""Numbers and short phrases of the leaderboards in the reader's language (the active one).

Scores are grouped by thousands as each language writes them (1,240 · 1.240 · ১,২৪০: Bengali
in Bengali digits), and a score against par reads "1,240 points above the computers' par" or "310 points
below the computers' par" (a bare "310 under par" read as praise on a win). Used by the share text,
the API's texts and the board page (leaderboards.templatetags.leaderboards_words).
"""

from django.utils import translation
from django.utils.translation import gettext

BENGALI_DIGITS = str.maketrans("0123456789", "০১২৩৪৫৬৭৮৯")
THOUSANDS = {"de": "."}  # every other language of the site groups with a comma
MINUS = "\u2212"  # the minus sign, not a hyphen: a score below zero


def number(value: int) -> str:
    """`value` grouped by thousands in the active language's way ("1,240", "1.240", "১,২৪০")."""
    language = (translation.get_language() or "en").split("-")[0]
    text = f"{abs(int(value)):,}".replace(",", THOUSANDS.get(language, ","))
    if language == "bn":
        text = text.translate(BENGALI_DIGITS)
    return (MINUS if value < 0 else "") + text


def against_par(difference: int) -> str:
    """ "1,240 points above the computers' par", "310 points below the computers' par" or "Level
    with the computers' par", in the active language (the words of the game-over dialog,
    static/foot/daily_end.js)."""
    if difference > 0:
        return gettext("%(points)s points above the computers' par") % {"points": number(difference)}
    if difference < 0:
        return gettext("%(points)s points below the computers' par") % {"points": number(-difference)}
    return gettext("Level with the computers' par")
