"""What play announces to the layers above it, which it must not know.

`game_finished` is sent inside the transaction of a game's final move, with `table` (a
games.Table, saved with its result just after the receivers return) and `result` (a
games.registry.Result); or of its event ending it early (games.actions.adjudicate), with
the table closed and `result` its scores so far. A receiver that writes does so in that
same transaction, so a result is stored with the move that made it or not at all.
"""

from django.dispatch import Signal

game_finished = Signal()
