from django.urls import path

from leagues import views

club = "clubs/<slug:slug>/"
league = club + "leagues/<int:league_id>/"
game = club + "games/<int:game_id>/"

urlpatterns = [
    path(club + "leagues/", views.league_list, name="league_list"),
    path(club + "leagues/new/", views.league_create, name="league_create"),
    path(league, views.league_detail, name="league"),
    path(league + "edit/", views.league_edit, name="league_edit"),
    path(league + "table.csv", views.league_table_csv, name="league_csv"),
    path(league + "job/", views.league_job, name="league_job"),
    path(league + "recompute/", views.league_recompute, name="league_recompute"),
    path(league + "link-guest/", views.league_link_guest, name="league_link_guest"),
    path(league + "projector/link/", views.projector_link, name="league_projector_link"),
    path("projector/league/<str:token>/", views.projector_screen, name="league_screen"),
    path(league + "games/new/", views.pad_new, name="pad_new"),
    path(game, views.pad, name="pad"),
    path(game + "rounds/<int:round_no>/", views.pad_round, name="pad_round"),
    path(game + "rounds/<int:round_no>/preview/", views.pad_preview, name="pad_preview"),
    path(game + "submit/", views.pad_submit, name="pad_submit"),
    path(game + "reopen/", views.pad_reopen, name="pad_reopen"),
    path(game + "confirm/", views.pad_confirm, name="pad_confirm"),
    path(club + "ratings/", views.club_ratings, name="club_ratings"),
    path("ratings/", views.site_ratings, name="site_ratings"),
    path("play/t/<int:table_id>/ratings/", views.table_ratings, name="table_ratings"),
    path("ratings/help/", views.ratings_help, name="ratings_help"),
    path("players/<str:username>/results.csv", views.player_results_csv, name="player_csv"),
]
