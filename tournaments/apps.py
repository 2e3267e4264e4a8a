from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from leagues.signals import result_changed
        from tournaments.receivers import settle_table

        result_changed.connect(settle_table, dispatch_uid="tournaments.settle_table")
