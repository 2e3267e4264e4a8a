import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ctg_site.settings")

app = Celery("ctg_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

app.conf.beat_schedule = {
    "sweep-clocks": {"task": "games.tasks.sweep_clocks", "schedule": 60.0},
    "sweep-ai-moves": {"task": "games.tasks.sweep_ai_moves", "schedule": 60.0},
    "sweep-recomputes": {"task": "leagues.tasks.sweep_recomputes", "schedule": 60.0},
}
