"""De l'Orc pour les Braves: its pure rules engine lives in ``games.orc.engine``."""
