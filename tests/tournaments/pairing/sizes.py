"""The table sizes the pairing tests seat by: pairing assumes no game's sizes, so they say them.

tests/tournaments/test_games.py checks these are still the game's own.
"""

from tournaments.pairing import SizeRule

# Call to Glory: 2 to 4 players, best with 4.
CALL_TO_GLORY = SizeRule(seats=range(2, 5), preferred=(4,))
