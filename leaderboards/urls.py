"""Routes of the leaderboards: the board pages, the personal link, "Check the deals", and their JSON API."""

from django.urls import path

from games import params  # noqa: F401  (registers the <game:…> path converter)
from leaderboards import api, pages

urlpatterns = [
    path("leaderboard/", pages.daily_page, name="leaderboard"),
    path("leaderboard/week/", pages.week_page, name="leaderboard_week"),
    path("leaderboard/all/", pages.all_time_page, name="leaderboard_all"),
    path("leaderboard/nickname/", pages.nickname_form, name="leaderboard_nickname"),
    path("leaderboard/link/", pages.link_form, name="leaderboard_link"),
    path("leaderboard/replay/<game:game_id>/", pages.replay_page, name="leaderboard_replay"),
    path("leaderboard/check/", pages.check_page, name="leaderboard_check"),
    path("leaderboard/<str:date>/", pages.daily_page, name="leaderboard_daily"),
    path("record/", pages.record_page, name="record"),
    path("me/<str:token>/", pages.follow_link, name="personal_link"),
    path("api/nickname", api.nickname, name="api_nickname"),
    path("api/link", api.personal_link, name="api_link"),
    path("api/leaderboard/daily/<str:date>", api.daily_board, name="api_leaderboard_daily"),
    path("api/leaderboard/week", api.week_board, name="api_leaderboard_week"),
    path("api/leaderboard/all", api.all_time_board, name="api_leaderboard_all"),
    path("api/daily/share/<game:game_id>", api.share, name="api_daily_share"),
    path("api/daily/<str:date>", api.daily_deal, name="api_daily_deal"),
    path("api/daily/result/<game:game_id>", api.daily_result, name="api_daily_result"),
    path("api/replay/<game:game_id>", api.replay, name="api_replay"),
]
