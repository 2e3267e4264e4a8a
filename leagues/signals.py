"""What leagues announce to the layers above them (tournaments), which they must not know.

`result_changed` is sent with `game` (a PlayedGame) inside the transaction that recorded,
confirmed or corrected a result.
"""

from django.dispatch import Signal

result_changed = Signal()
