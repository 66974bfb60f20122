"""Template filters of the leaderboards' pages: a score against par in the page's language."""

from django import template

from leaderboards import wording

register = template.Library()


@register.filter
def against_par(difference: int | None) -> str:
    """{{ row.against_par|against_par }}: "+1,240 over par"; nothing when there is no par."""
    return "" if difference is None else wording.against_par(difference)


@register.filter
def score_number(value: int | None) -> str:
    """{{ board.par|score_number }}: "12,345", in the page's digits."""
    return "" if value is None else wording.number(value)
