"""Routes of the leaderboards: the board pages, the personal link, "Check the deals", and their JSON API."""

from django.urls import path

from games import params  # noqa: F401  (registers the <game:…> path converter)
from leaderboards import api, views

urlpatterns = [
    path("leaderboard/", views.daily_page, name="leaderboard"),
    path("leaderboard/week/", views.week_page, name="leaderboard_week"),
    path("leaderboard/all/", views.all_time_page, name="leaderboard_all"),
    path("leaderboard/nickname/", views.nickname_form, name="leaderboard_nickname"),
    path("leaderboard/link/", views.link_form, name="leaderboard_link"),
    path("leaderboard/replay/<game:game_id>/", views.replay_page, name="leaderboard_replay"),
    path("leaderboard/check/", views.check_page, name="leaderboard_check"),
    path("leaderboard/<str:date>/", views.daily_page, name="leaderboard_daily"),
    path("replay/<game:game_id>/", views.watch_page, name="watch"),
    path("record/", views.record_page, name="record"),
    path("me/<str:token>/", views.follow_link, name="personal_link"),
    path("api/nickname", api.nickname, name="api_nickname"),
    path("api/link", api.personal_link, name="api_link"),
    path("api/leaderboard/daily/<str:date>", api.daily_board, name="api_leaderboard_daily"),
    path("api/leaderboard/week", api.week_board, name="api_leaderboard_week"),
    path("api/leaderboard/all", api.all_time_board, name="api_leaderboard_all"),
    path("api/daily/share/<game:game_id>", api.share, name="api_daily_share"),
    path("api/daily/<str:date>", api.daily_deal, name="api_daily_deal"),
    path("api/daily/result/<game:game_id>", api.daily_result, name="api_daily_result"),
    path("api/replay/<game:game_id>", api.replay, name="api_replay"),
    path("api/watch/<game:game_id>", api.watch_replay, name="api_watch"),
]
