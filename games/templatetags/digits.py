"""The `digits` template filter: a number written in the digits of the page's language (Bengali
pages in Bengali digits, issue 13), as static/foot/numbers.js does on the table.

Only the digits change: the numbers on the pages are small counts and points, written without
grouping in every language.
"""

from django import template
from django.utils.translation import get_language

register = template.Library()

BENGALI_DIGITS = str.maketrans("0123456789", "০১২৩৪৫৬৭৮৯")


@register.filter
def digits(value: object) -> str:
    """`value` as text, its ASCII digits in the active language's own ("৫০" on a Bengali page)."""
    text = str(value)
    return text.translate(BENGALI_DIGITS) if (get_language() or "").lower().startswith("bn") else text
