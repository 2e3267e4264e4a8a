from django.apps import AppConfig


class DeLOrcConfig(AppConfig):
    """De l'Orc pour les Braves as a Django app: its models (the real-time deal), tasks,
    templates and static files.

    Its pure engine and AI (`engine`, `ai`) are plain packages inside it that know nothing
    of Django; `game.py` is what it brings to the shared `games` app (games.registry).
    """

    name = "games.orc"
    label = "orc"
    verbose_name = "De l'Orc pour les Braves"
