"""Seats, teams and the order of play (R5–R8, R37)."""

SEATS = ("S", "W", "N", "E")
NEXT_SEAT = {"S": "W", "W": "N", "N": "E", "E": "S"}  # R6: clockwise
TEAM_OF = {"S": "NS", "N": "NS", "W": "EW", "E": "EW"}
PARTNER = {"S": "N", "N": "S", "W": "E", "E": "W"}
TEAMS = ("NS", "EW")
TEAM_SEATS = {"NS": ("S", "N"), "EW": ("W", "E")}
DEALER_OF_DEAL = {1: "E", 2: "S", 3: "W", 4: "N"}  # R8 (DECISION)
FIRST_MELD_MINIMUM = {1: 50, 2: 90, 3: 120, 4: 150}  # R37
DEALS = 4  # R7
GOING_OUT_PILES = {"clean": 2, "dirty": 2, "wild": 1}  # R49b
SEAT_NAMES = {"S": "South", "W": "West", "N": "North", "E": "East"}


def seats_from(first: str) -> list[str]:
    """The four seats in play order, starting with `first`."""
    order = [first]
    while len(order) < 4:
        order.append(NEXT_SEAT[order[-1]])
    return order
