"""Who is playing: the anonymous Player bound to the session, and the personal link.

No sign-up: the first request that needs a player creates one and stores its id in the session
(`request.session["player_id"]`). Networks are kept only as an HMAC keyed from SECRET_KEY, so the
admin can flag players who share one without the site ever storing an address.

A personal link (`/me/<token>/`) carries the player to another browser: opening it only asks
"Continue as …?"; the form's POST (CSRF-protected) binds the browser and uses the link up. A
link works once, within LINK_LIFETIME, and only its SHA-256 is stored; the logs never hold it
(server.log_redaction).
"""

import datetime
import hashlib
import hmac
import ipaddress
import secrets
import uuid
from collections.abc import Mapping
from typing import Any, Literal, overload

from django.conf import settings
from django.contrib.sessions.backends.base import SessionBase
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone

from players import limits
from players.models import Player

SESSION_KEY = "player_id"
LINK_LIFETIME = datetime.timedelta(days=30)


def player_for_session(session: SessionBase | Mapping[str, Any] | None) -> Player | None:
    """The player whose id the session (or a dict like one) holds, or None (sync: wrap it for async callers)."""
    raw_id = session.get(SESSION_KEY) if session is not None else None
    if not raw_id:
        return None
    try:
        player_id = uuid.UUID(str(raw_id))
    except ValueError:
        return None
    return Player.objects.filter(pk=player_id).first()


@overload
def player_for_request(request: HttpRequest, create: Literal[True] = ...) -> Player: ...
@overload
def player_for_request(request: HttpRequest, create: bool) -> Player | None: ...


def player_for_request(request: HttpRequest, create: bool = True) -> Player | None:
    """The request's player; a new anonymous one when there is none and `create` is set."""
    player = player_for_session(request.session)
    if player is None and create:
        network = network_hash(client_address(request))
        limits.hit("player", network=network)  # a new player per request is a flood of players
        player = Player.objects.create(last_network=network)
        bind_session(request.session, player)
    elif player is not None:
        remember_network(player, request)
    return player


def bind_session(session: SessionBase, player: Player) -> None:
    session[SESSION_KEY] = str(player.pk)


def client_address(request: HttpRequest) -> str:
    # REMOTE_ADDR only: a forwarded header is whatever the client wants it to be unless a
    # trusted proxy rewrites it, which is the deployment's business (docs/DEPLOY.md).
    address: str = request.META.get("REMOTE_ADDR", "") or ""
    return address


def network_of(address: str) -> str:
    """The network an address belongs to: the IPv4 address itself, or the IPv6 /64."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return ""
    if ip.version == 6 and ip.ipv4_mapped:
        ip = ip.ipv4_mapped
    if ip.version == 6:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def network_hash(address: str) -> str:
    """HMAC-SHA256 of the address's network, keyed from SECRET_KEY; "" when unknown."""
    network = network_of(address)
    if not network:
        return ""
    key = hashlib.sha256(b"foot-canasta network salt:" + settings.SECRET_KEY.encode()).digest()
    return hmac.new(key, network.encode(), hashlib.sha256).hexdigest()


def count(request: HttpRequest, action: str) -> None:
    """Count one `action` of this request's session and network (players.limits); RateLimited past a limit."""
    limits.hit(action, **limit_keys(request))


def limit_keys(request: HttpRequest) -> dict[str, str | None]:
    """Whom a request counts against in players.limits: its session and its network (both hashed)."""
    return {"session": session_hash(request.session), "network": network_hash(client_address(request))}


def socket_limit_keys(scope: Mapping[str, Any]) -> dict[str, str | None]:
    """The same for a websocket (its ASGI scope): its session and the network of its address."""
    client = scope.get("client") or ("",)
    return {"session": session_hash(scope.get("session")), "network": network_hash(client[0] or "")}


def session_hash(session: SessionBase | None) -> str | None:
    """A session's key, hashed (so that the limit store never holds a usable cookie); None without one."""
    session_key: str | None = getattr(session, "session_key", None)
    return hashlib.sha256(session_key.encode()).hexdigest()[:32] if session_key else None


def remember_network(player: Player, request: HttpRequest) -> None:
    network = network_hash(client_address(request))
    if network and network != player.last_network:
        player.last_network = network
        Player.objects.filter(pk=player.pk).update(last_network=network)


def link_token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_personal_link(player: Player) -> str:
    """A fresh personal link for the player (replacing any earlier one); shown once."""
    token = secrets.token_urlsafe(24)
    player.link_token, player.link_issued_at = link_token_digest(token), timezone.now()
    Player.objects.filter(pk=player.pk).update(link_token=player.link_token, link_issued_at=player.link_issued_at)
    return f"/me/{token}/"


def link_expires_at(player: Player) -> datetime.datetime:
    """When the player's link (just made by new_personal_link) stops working."""
    if player.link_issued_at is None:
        raise ValueError("the player has no personal link")
    return player.link_issued_at + LINK_LIFETIME


def valid_links() -> QuerySet[Player]:
    return Player.objects.filter(link_issued_at__gt=timezone.now() - LINK_LIFETIME)


def player_for_link(token: str) -> Player | None:
    """The player of a link that can still be used (not used, replaced or expired), or None."""
    if not token or len(token) > 100:
        return None
    return valid_links().filter(link_token=link_token_digest(token)).first()


def use_personal_link(token: str) -> Player | None:
    """The link's player, the link used up by this call; None if it cannot be used (any more)."""
    player = player_for_link(token)
    if player is None:
        return None
    with transaction.atomic():
        # Conditional on the digest still being there: of two uses at once, one wins.
        used = Player.objects.filter(pk=player.pk, link_token=player.link_token).update(
            link_token=None, link_issued_at=None
        )
    return player if used else None
