from django.apps import AppConfig


class CallToGloryConfig(AppConfig):
    """Call to Glory as a Django app: its models, admin, templates, static files and tags.

    Its pure engine and AI (`engine`, `ai`) are plain packages inside it that know nothing
    of Django; `game.py` is what it brings to the shared `games` app (games.registry).
    """

    name = "games.ctg"
    label = "ctg"
    verbose_name = "Call to Glory"
