"""Moderation in Django's admin: players, entries, the moderation log, and game replays.

Moderators (the "moderators" group, created by a migration) can view players and entries,
hide/unhide entries and ban/unban players — each through leaderboards.moderation, which writes a
ModerationAction — and replay games whose date is closed. Nothing here edits a score: every
field is read-only. Players whose daily games came from one network (a keyed hash, never an
address) are flagged, and so are suspicious entries (leaderboards.flags), with the reason.
Nobody, a superuser neither, sees a seed, a position or a move of a game whose cards are still
hidden (`deals_visible`): a daily's until its date is closed, any other game's until it is over.
"""

from __future__ import annotations

import datetime
import json
import threading
import uuid
from collections.abc import Callable
from typing import Any, TypeVar

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db.models import Exists, Model, OuterRef, QuerySet, Subquery
from django.http import Http404, HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import ngettext

from games.models import Game, Move
from games.replay import describe_action, replay_steps
from leaderboards import daily, flags, moderation
from leaderboards.models import DailyDeal, Entry, ModerationAction
from players.models import Player

ModelT = TypeVar("ModelT", bound=Model)


class ReasonForm(forms.Form):
    reason = forms.CharField(max_length=200, widget=forms.TextInput(attrs={"size": 60}))


def entries_sharing_network() -> QuerySet[Entry]:
    """Entries of other players from the network of the outer entry."""
    return Entry.objects.filter(network=OuterRef("network")).exclude(network="").exclude(player=OuterRef("player"))


def players_sharing_network() -> QuerySet[Entry]:
    """Entries of other players from any network the outer player's daily games came from."""
    own_networks = Entry.objects.filter(player=OuterRef(OuterRef("pk"))).exclude(network="").values("network")
    return Entry.objects.filter(network__in=Subquery(own_networks)).exclude(player=OuterRef("pk"))


class SharedNetworkFilter(admin.SimpleListFilter):
    title = "shares a network"
    parameter_name = "shared_network"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin[Any]) -> list[tuple[str, str]]:
        return [("yes", "yes"), ("no", "no")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() in ("yes", "no"):
            return queryset.filter(shares_network=self.value() == "yes")
        return queryset


def moderator_of(request: HttpRequest) -> User:
    """The moderator acting: the admin lets only a logged-in staff member reach an action."""
    if not isinstance(request.user, User):
        raise PermissionDenied
    return request.user


def with_reason(
    request: HttpRequest,
    queryset: QuerySet[ModelT],
    action_name: str,
    title: str,
    apply: Callable[[ModelT, User, str], None],
) -> TemplateResponse | None:
    """An admin action that first asks why (an intermediate page), then applies to each row."""
    if "apply" in request.POST:
        form = ReasonForm(request.POST)
        if form.is_valid():
            for obj in queryset:
                apply(obj, moderator_of(request), form.cleaned_data["reason"])
            return None
    else:
        form = ReasonForm()
    return TemplateResponse(
        request,
        "leaderboards/admin/reason.html",
        {
            "title": title,
            "form": form,
            "queryset": queryset,
            "action_name": action_name,
            "opts": queryset.model._meta,
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            # Cancel goes back to the list as it was (its filters and search), nothing applied.
            "cancel_url": request.get_full_path(),
        },
    )


def deals_visible(game: Game) -> bool:
    """Whether the game's cards may be shown: a daily's once its date is closed (no ranked game of
    it can still count), any other game's once it is finished."""
    if game.daily_date is not None:
        return daily.date_is_closed(game.daily_date)
    return game.status == "finished"


class FlagFilter(admin.SimpleListFilter):
    title = "flagged"
    parameter_name = "flag"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin[Any]) -> list[tuple[str, str]]:
        return [("any", "any flag"), *flags.KINDS]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        return flags.filter_kind(queryset, self.value())


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        """The list's actions without Django's bulk "Delete selected": a slip from Hide or Ban would
        destroy the rows a moderator only meant to set aside (a superuser deletes one row from its
        own page)."""
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


class DateSearch(admin.ModelAdmin):
    """Lets the search box take a date (YYYY-MM-DD) as well as a nickname."""

    date_lookup = "date"

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[Any], search_term: str
    ) -> tuple[QuerySet[Any], bool]:
        try:
            day = datetime.date.fromisoformat(search_term.strip())
        except ValueError:
            return super().get_search_results(request, queryset, search_term)
        return queryset.filter(**{self.date_lookup: day}).distinct(), False


@admin.register(Player)
class PlayerAdmin(DateSearch, ReadOnlyAdmin):
    date_lookup = "entries__date"  # a date finds the players who have an entry of that date
    list_display = ["__str__", "id", "created_at", "banned", "shared_network", "entries_link"]
    list_filter = ["banned", SharedNetworkFilter]
    search_fields = ["nickname", "nickname_key"]
    readonly_fields = ["id", "nickname", "nickname_key", "created_at", "banned", "network_neighbours"]
    fields = tuple(readonly_fields)
    actions = ["ban_players", "unban_players"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Player]:
        players: QuerySet[Player] = super().get_queryset(request)
        return players.annotate(shares_network=Exists(players_sharing_network()))

    @admin.display(boolean=True, description="shares a network", ordering="shares_network")
    def shared_network(self, player: Player) -> bool:
        return bool(getattr(player, "shares_network", False))

    @admin.display(description="entries")
    def entries_link(self, player: Player) -> SafeString:
        url = reverse("admin:leaderboards_entry_changelist") + f"?player__id__exact={player.pk}"
        return format_html('<a href="{}">entries</a>', url)

    @admin.display(description="players whose daily games came from the same network")
    def network_neighbours(self, player: Player) -> str:
        networks = Entry.objects.filter(player=player).exclude(network="").values("network")
        neighbours = Player.objects.filter(entries__network__in=networks).exclude(pk=player.pk).distinct()[:50]
        return (
            format_html_join(
                ", ",
                '<a href="{}">{}</a>',
                ((reverse("admin:players_player_change", args=[other.pk]), str(other)) for other in neighbours),
            )
            or "—"
        )

    def has_ban_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("players.ban_player")

    @admin.action(description="Ban the selected players (asks for a reason)", permissions=["ban"])
    def ban_players(self, request: HttpRequest, queryset: QuerySet[Player]) -> TemplateResponse | None:
        response = with_reason(request, queryset, "ban_players", "Ban players", moderation.ban_player)
        if response is None:
            count = queryset.count()
            done = ngettext("Banned %(count)d player.", "Banned %(count)d players.", count) % {"count": count}
            self.message_user(request, done, messages.SUCCESS)
        return response

    @admin.action(description="Unban the selected players", permissions=["ban"])
    def unban_players(self, request: HttpRequest, queryset: QuerySet[Player]) -> None:
        for player in queryset:
            moderation.unban_player(player, moderator_of(request))
        count = queryset.count()
        done = ngettext("Unbanned %(count)d player.", "Unbanned %(count)d players.", count) % {"count": count}
        self.message_user(request, done, messages.SUCCESS)


@admin.register(Entry)
class EntryAdmin(DateSearch, ReadOnlyAdmin):
    # Narrow columns, so that a laptop (1280) shows the flags and the replay link beside the filters.
    list_display = [
        "date",
        "player_link",
        "score",
        "opponents",
        "result",
        "hidden_with_reason",
        "shared_network",
        "flag_reasons",
        "replay_link",
    ]
    list_filter = ["hidden", "result", FlagFilter]
    date_hierarchy = "date"
    search_fields = ["player__nickname"]
    list_select_related = ["player"]
    readonly_fields = [
        "player",
        "date",
        "game_id",
        "score",
        "opponents_score",
        "result",
        "finished_at",
        "hidden",
        "hidden_reason",
        "flag_reasons",
        "seat_moves",
        "median_seconds",
        "replay_link",
    ]
    fields = tuple(readonly_fields)
    actions = ["hide_entries", "unhide_entries"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Entry]:
        entries = super().get_queryset(request).annotate(shares_network=Exists(entries_sharing_network()))
        return flags.flagged(entries)

    @admin.display(description="opp.", ordering="opponents_score")
    def opponents(self, entry: Entry) -> int:
        return entry.opponents_score

    @admin.display(description="hidden", ordering="hidden")
    def hidden_with_reason(self, entry: Entry) -> str:
        return f"yes: {entry.hidden_reason}" if entry.hidden else "—"

    @admin.display(description="flags")
    def flag_reasons(self, entry: Entry) -> str:
        return format_html_join(mark_safe("<br>"), "{}", ((reason,) for reason in flags.reasons(entry))) or "—"

    @admin.display(description="player", ordering="player__nickname")
    def player_link(self, entry: Entry) -> SafeString:
        return format_html(
            '<a href="{}">{}</a>',
            reverse("admin:players_player_change", args=[entry.player_id]),
            str(entry.player),
        )

    @admin.display(boolean=True, description="shared net", ordering="shares_network")
    def shared_network(self, entry: Entry) -> bool:
        return bool(getattr(entry, "shares_network", False))

    @admin.display(description="replay")
    def replay_link(self, entry: Entry) -> SafeString:
        return format_html('<a href="{}">replay</a>', reverse("admin:leaderboards_replay", args=[entry.game_id]))

    def has_hide_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("leaderboards.hide_entry")

    @admin.action(description="Hide the selected entries (asks for a reason)", permissions=["hide"])
    def hide_entries(self, request: HttpRequest, queryset: QuerySet[Entry]) -> TemplateResponse | None:
        response = with_reason(request, queryset, "hide_entries", "Hide entries", moderation.hide_entry)
        if response is None:
            count = queryset.count()
            done = ngettext("Hid %(count)d entry.", "Hid %(count)d entries.", count) % {"count": count}
            self.message_user(request, done, messages.SUCCESS)
        return response

    @admin.action(description="Unhide the selected entries", permissions=["hide"])
    def unhide_entries(self, request: HttpRequest, queryset: QuerySet[Entry]) -> None:
        for entry in queryset:
            moderation.unhide_entry(entry, moderator_of(request))
        count = queryset.count()
        done = ngettext("Unhid %(count)d entry.", "Unhid %(count)d entries.", count) % {"count": count}
        self.message_user(request, done, messages.SUCCESS)

    def get_urls(self) -> list[URLPattern]:
        replay = path(
            "replay/<uuid:game_id>/", self.admin_site.admin_view(self.replay_view), name="leaderboards_replay"
        )
        return [replay] + super().get_urls()

    def replay_view(self, request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
        """Every step of a stored game, replayed with the engine from its seed and moves."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        game = Game.objects.filter(pk=game_id).first()
        if game is None:
            raise Http404("no such game")
        # A replay shows the deals: nobody sees a daily's before its date is closed, so nobody
        # can learn today's cards from the admin.
        if not deals_visible(game):
            raise PermissionDenied("the deals of this game are still being played")
        steps = [
            {**step, "description": describe_action(step["action"]), "view_json": json.dumps(step["view"], indent=1)}
            for step in replay_steps(game)
        ]
        context = {
            **self.admin_site.each_context(request),
            "title": f"Replay of game {game.pk}",
            "game": game,
            "steps": steps,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "leaderboards/admin/replay.html", context)


@admin.register(ModerationAction)
class ModerationActionAdmin(ReadOnlyAdmin):
    list_display = ["at", "moderator", "action", "subject", "reason"]
    # The names of the page being drawn: a request is drawn in one thread, and threads share the admin.
    page_names = threading.local()
    list_filter = ["action", "moderator"]
    search_fields = ["target", "reason", "moderator__username"]
    date_hierarchy = "at"

    def has_delete_permission(self, request: HttpRequest, obj: ModerationAction | None = None) -> bool:
        return False

    def get_changelist_instance(self, request: HttpRequest) -> Any:
        """The page's rows, with the players their targets name read in two queries (`subject`)."""
        changelist = super().get_changelist_instance(request)
        self.page_names.named = targets_named(list(changelist.result_list))
        return changelist

    @admin.display(description="player or entry", ordering="target")
    def subject(self, action: ModerationAction) -> SafeString | str:
        """The player by nickname (a link to them), or the entry by its player's nickname and date."""
        return getattr(self.page_names, "named", {}).get(action.target) or action.target


def targets_named(actions: list[ModerationAction]) -> dict[str, SafeString]:
    """{target: a link naming it} for the log's "player:<id>" and "entry:<game id>" targets."""
    kinds: dict[str, list[str]] = {"player": [], "entry": []}
    for action in actions:
        kind, _, key = action.target.partition(":")
        if kind in kinds:
            kinds[kind].append(key)
    named: dict[str, SafeString] = {}
    for player in Player.objects.filter(pk__in=valid_uuids(kinds["player"])):
        url = reverse("admin:players_player_change", args=[player.pk])
        named[f"player:{player.pk}"] = format_html('player <a href="{}">{}</a>', url, str(player))
    entries = Entry.objects.filter(game_id__in=valid_uuids(kinds["entry"])).select_related("player")
    for entry in entries:
        url = reverse("admin:leaderboards_entry_change", args=[entry.pk])
        named[f"entry:{entry.game_id}"] = format_html(
            'entry of <a href="{}">{}</a>, {}', url, str(entry.player), entry.date.isoformat()
        )
    return named


def valid_uuids(keys: list[str]) -> list[uuid.UUID]:
    found = []
    for key in keys:
        try:
            found.append(uuid.UUID(key))
        except ValueError:
            continue  # a target written by hand, shown as it is
    return found


def register_game_admin() -> None:
    """A read-only Game list with replay links, unless the games app registers Game itself.

    games.admin (if any) is discovered first (INSTALLED_APPS order), so its registration wins.
    Only users with games' own view permission (superusers) see it; moderators replay from
    their entries.
    """
    if admin.site.is_registered(Game):
        return

    class GameReplayAdmin(ReadOnlyAdmin):
        list_display = ["id", "mode", "daily_date", "ranked", "status", "version", "created", "replay_link"]
        list_filter = ["mode", "status", "ranked", "daily_date"]
        search_fields = ["=invite_code"]
        inlines = [move_inline()]

        def get_exclude(self, request: HttpRequest, obj: Game | None = None) -> list[str]:
            # The positions hold the stock's order: seen only through a replay. The seed deals
            # every card, so it waits until the game's cards may be seen.
            hidden = ["initial_position", "position"]
            return hidden if obj is not None and deals_visible(obj) else [*hidden, "seed"]

        def get_inlines(self, request: HttpRequest, obj: Game | None) -> list[type[admin.options.InlineModelAdmin]]:
            return list(self.inlines) if obj is not None and deals_visible(obj) else []

        def has_delete_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
            return False

        @admin.display(description="replay")
        def replay_link(self, game: Game) -> SafeString:
            return format_html('<a href="{}">replay</a>', reverse("admin:leaderboards_replay", args=[game.pk]))

    admin.site.register(Game, GameReplayAdmin)


def move_inline() -> type[admin.TabularInline]:
    """The moves of a game, read-only (shown only once the game's cards may be seen)."""

    class MoveInline(admin.TabularInline):
        model = Move
        readonly_fields = ["seq", "seat", "action", "created"]
        fields = tuple(readonly_fields)
        extra = 0
        can_delete = False

        def has_add_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
            return False

        def has_change_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
            return False

    return MoveInline


@admin.register(DailyDeal)
class DailyDealAdmin(ReadOnlyAdmin):
    """The dates' seeds and nonces, each shown only once its date is closed (the seed deals every
    card of the day; with the nonce it opens the published commitment)."""

    list_display = ["date", "commitment", "seed_when_closed", "nonce_when_closed", "par", "created_at"]
    readonly_fields = ["date", "commitment", "seed_when_closed", "nonce_when_closed", "par", "created_at"]
    fields = tuple(readonly_fields)
    date_hierarchy = "date"

    @admin.display(description="seed")
    def seed_when_closed(self, deal: DailyDeal) -> int | str:
        return deal.seed if daily.date_is_closed(deal.date) else "(hidden until the date is closed)"

    @admin.display(description="nonce")
    def nonce_when_closed(self, deal: DailyDeal) -> str:
        return deal.nonce if daily.date_is_closed(deal.date) else "(hidden until the date is closed)"

    def has_delete_permission(self, request: HttpRequest, obj: DailyDeal | None = None) -> bool:
        return False


register_game_admin()
