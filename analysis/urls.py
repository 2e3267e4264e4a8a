from django.urls import path

from analysis import views

urlpatterns = [
    path("analysis/table/<int:table_id>/", views.analyse, name="analysis_request"),
    path("analysis/table/<int:table_id>/progress/", views.progress, name="analysis_progress"),
]
