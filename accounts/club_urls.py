from django.urls import path

from accounts import views

# Fixed paths come before "<slug>/"; accounts.actions.RESERVED_SLUGS keeps clubs off them.
urlpatterns = [
    path("", views.club_list, name="club_list"),
    path("new/", views.club_create, name="club_create"),
    path("join/<str:token>/", views.club_join, name="club_join"),
    path("<slug:slug>/", views.club, name="club"),
    path("<slug:slug>/leave/", views.club_leave, name="club_leave"),
    path("<slug:slug>/invite/new/", views.club_rotate_invite, name="club_rotate_invite"),
    path(
        "<slug:slug>/members/<int:user_id>/remove/",
        views.club_remove_member,
        name="club_remove_member",
    ),
    path("<slug:slug>/members/<int:user_id>/promote/", views.club_promote, name="club_promote"),
    path("<slug:slug>/members/<int:user_id>/demote/", views.club_demote, name="club_demote"),
    path(
        "<slug:slug>/members/<int:user_id>/unlock-login/",
        views.club_unlock_login,
        name="club_unlock_login",
    ),
]
