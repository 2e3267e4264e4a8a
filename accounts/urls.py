from django.urls import include, path

from accounts import views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("settings/", views.account_settings, name="settings"),
    path("u/<str:username>/", views.profile, name="profile"),
    path("", include("django.contrib.auth.urls")),
]
