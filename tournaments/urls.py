from django.urls import path

from tournaments import views

club = "clubs/<slug:slug>/tournaments/"
one = club + "<int:tournament_id>/"

urlpatterns = [
    path(club, views.tournament_list, name="tournament_list"),
    path(club + "new/", views.tournament_create, name="tournament_create"),
    path(one, views.tournament_detail, name="tournament"),
    path(one + "edit/", views.tournament_edit, name="tournament_edit"),
    path(one + "projector/", views.tournament_projector, name="tournament_projector"),
    path(one + "projector/link/", views.projector_link, name="tournament_projector_link"),
    path("projector/tournament/<str:token>/", views.projector_screen, name="projector_screen"),
    path(one + "register/", views.tournament_register, name="tournament_register"),
    path(one + "check-in/", views.tournament_checkin, name="tournament_checkin"),
    path(one + "presence/", views.tournament_presence, name="tournament_presence"),
    path(one + "step/", views.tournament_step, name="tournament_step"),
]
