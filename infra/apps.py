from django.apps import AppConfig


class InfraConfig(AppConfig):
    name = "infra"
    verbose_name = "Infrastructure"

    def ready(self) -> None:
        # The Celery app first: tasks queued from here on go to its broker.
        from celery.signals import (
            beat_init,
            task_postrun,
            task_received,
            worker_process_init,
            worker_ready,
            worker_shutting_down,
        )

        from infra import background, celery, claims, liveness

        worker_process_init.connect(background.on_worker_process_init, dispatch_uid="infra")
        task_postrun.connect(celery.give_back_connections, dispatch_uid="infra")
        task_received.connect(claims.on_task_received, dispatch_uid="infra")
        # The workers' sweeps and heartbeats, and beat's heartbeat.
        worker_ready.connect(liveness.on_worker_ready, dispatch_uid="infra")
        worker_shutting_down.connect(liveness.on_worker_shutting_down, dispatch_uid="infra")
        beat_init.connect(liveness.on_beat_init, dispatch_uid="infra")
