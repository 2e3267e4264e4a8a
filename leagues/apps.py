from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    name = "leagues"
    verbose_name = "Leagues and tournaments"

    def ready(self) -> None:
        from games.signals import game_finished
        from leagues.receivers import record_online_result

        game_finished.connect(record_online_result, dispatch_uid="leagues.record_online_result")
