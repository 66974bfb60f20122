"""The `signed` filter of the record page: a score against par written with its sign (+420, −310, 0).

The digits are then the page's own (games' `digits` filter).
"""

from django import template

register = template.Library()


@register.filter
def signed(value: int | None) -> str:
    if value is None:
        return ""
    return f"+{value}" if value > 0 else (f"−{-value}" if value < 0 else "0")
