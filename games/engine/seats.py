"""Seats, teams and the order of play (R5–R8); the numbers a table may choose are in rules.py."""

SEATS = ("S", "W", "N", "E")
NEXT_SEAT = {"S": "W", "W": "N", "N": "E", "E": "S"}  # R6: clockwise
TEAM_OF = {"S": "NS", "N": "NS", "W": "EW", "E": "EW"}
PARTNER = {"S": "N", "N": "S", "W": "E", "E": "W"}
TEAMS = ("NS", "EW")
TEAM_SEATS = {"NS": ("S", "N"), "EW": ("W", "E")}
DEALER_OF_DEAL = {1: "E", 2: "S", 3: "W", 4: "N"}  # R8 (DECISION)
SEAT_NAMES = {"S": "South", "W": "West", "N": "North", "E": "East"}


def seats_from(first: str) -> list[str]:
    """The four seats in play order, starting with `first`."""
    order = [first]
    while len(order) < 4:
        order.append(NEXT_SEAT[order[-1]])
    return order
