"""Tournaments follow the results that leagues announce (leagues.signals)."""

from tournaments import actions


def settle_table(sender, game, **kwargs) -> None:
    actions.result_changed(game)
