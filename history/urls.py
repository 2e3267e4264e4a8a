from django.urls import path, re_path

from history import api, profile, views

urlpatterns = [
    path("accounts/u/<str:username>/", profile.profile, name="profile"),
    path("history/", views.history_list, name="history"),
    path("history/game/<int:game_id>/", views.game_detail, name="history_game"),
    path("history/replay/<int:table_id>/", views.replay_view, name="history_replay"),
    path("history/record/<int:table_id>.json", views.record_download, name="history_record"),
    path("history/import/", views.record_import, name="history_import"),
    path("api/", api.docs, name="api_docs"),
    path("api/v1/openapi.json", api.openapi, name="api_openapi"),
    path("api/v1/games/", api.games, name="api_games"),
    path("api/v1/games/<int:game_id>/", api.game, name="api_game"),
    path("api/v1/games/<int:game_id>/record/", api.game_record, name="api_game_record"),
    path("api/v1/games/<int:game_id>/analysis/", api.game_analysis, name="api_game_analysis"),
    path(
        "api/v1/games/<int:game_id>/analysis/<int:seat>/",
        api.seat_analysis,
        name="api_seat_analysis",
    ),
    path("api/v1/leagues/<int:league_id>/table/", api.league_table, name="api_league_table"),
    path(
        "api/v1/tournaments/<int:tournament_id>/standings/",
        api.tournament_standings,
        name="api_tournament_standings",
    ),
    path("api/v1/ratings/", api.ratings, name="api_ratings"),
    # Last: the API's other addresses (any version) answer a JSON 404. Only paths ending in a
    # slash, so that an address missing its slash is still redirected to the one with it.
    re_path(r"^api/(?:.*/)?$", api.not_found),
]
