"""De l'Orc's tasks, where Celery looks for an app's tasks: the real-time deal's, defined with
the dealer that queues them (games.orc.dealer), so that the two do not import each other."""

from games.orc.dealer import orc_ai_slap, orc_deal, orc_react

__all__ = ["orc_ai_slap", "orc_deal", "orc_react"]
