"""A leak scanner: does a piece of HTML show a viewer only what that viewer may know?

The board marks every zone it draws (`data-zone`): hands, task cards, draw piles, cards
known to be in a hand. The scanner reads them back and compares with the true state.
"""

from collections import Counter
from html.parser import HTMLParser

from games.engine.cards import VALUES, task_text


class _Zones(HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack: list[tuple[str, dict]] = []
        self.found: list[tuple[dict, dict]] = []  # (zone attrs, card attrs)
        self.zones: list[dict] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "data-zone" in attrs:
            self.zones.append(attrs)
        zone = next((a for _, a in reversed(self.stack) if "data-zone" in a), None)
        if ("data-card" in attrs or "data-task" in attrs) and zone is not None:
            self.found.append((zone, attrs))
        if tag not in {"br", "img", "input", "meta", "link", "hr"}:
            self.stack.append((tag, attrs))

    def handle_endtag(self, tag):
        while self.stack:
            open_tag, _ = self.stack.pop()
            if open_tag == tag:
                break


def scan(html: str, state, viewer: int | None) -> list[str]:
    """Every problem found: empty when the HTML keeps to what `viewer` may know."""
    parser = _Zones()
    parser.feed(html)
    problems = []
    for zone in parser.zones:
        kind = zone["data-zone"]
        if kind in ("hand", "tasks") and (
            viewer is None or zone.get("data-seat", str(viewer)) != str(viewer)
        ):
            problems.append(f"a {kind} zone of seat {zone.get('data-seat')} shown to {viewer}")
    hand = Counter()
    for zone, card in parser.found:
        kind = zone["data-zone"]
        if kind == "draw":
            problems.append("a card of a draw pile is shown")
        elif kind == "hand":
            hand[int(card["data-card"])] += 1
        elif kind == "tasks":
            own = {task_text(c) for c in state.tasks[viewer]} if viewer is not None else set()
            if card["data-task"] not in own:
                problems.append(f"task card {card['data-task']} is not the viewer's to see")
    if viewer is not None and any(z["data-zone"] == "hand" for z in parser.zones):
        truth = {VALUES[t] for t, c in enumerate(state.hands[viewer]) if c}
        if set(hand) != truth:
            problems.append(f"hand shows {sorted(hand)}, the viewer holds {sorted(truth)}")
    for zone, card in parser.found:
        if zone["data-zone"] == "known":
            seat, value = int(zone["data-seat"]), int(card["data-card"])
            if not state.known[seat][VALUES.index(value)]:
                problems.append(f"{value} shown as known in seat {seat}'s hand, but it is not")
    return problems
