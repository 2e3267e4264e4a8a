from django.urls import path

from games import views

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("new/", views.table_create, name="table_create"),
    path("ai/", views.table_against_ai, name="table_against_ai"),
    path("waiting/", views.moves_waiting, name="moves_waiting"),
    path("t/<int:table_id>/", views.table, name="table"),
    path("t/<int:table_id>/result/", views.result, name="table_result"),
    path("t/<int:table_id>/play/", views.table_play, name="table_play"),
    path("t/<int:table_id>/continue/", views.table_continue, name="table_continue"),
    path("t/<int:table_id>/seat/", views.table_seat, name="table_seat"),
    path("t/<int:table_id>/rematch/", views.table_rematch, name="table_rematch"),
    path("t/<int:table_id>/chat/", views.table_chat, name="table_chat"),
    path("t/<int:table_id>/discard-pile/<str:pile>/", views.discard_pile, name="discard_pile"),
    path("rules/<str:game>/", views.rules, name="game_rules"),
    path("join/<str:token>/", views.table_invite, name="table_invite"),
]
