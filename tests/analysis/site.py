"""Finished games for the site's analysis tests, and what a player does to ask for one.

alice plays seat 0 of a Call to Glory quick game against AI players, taking the first legal
option each time (so that the analysis has decisions to mark); bob and charlie watch.
"""

from django.db import transaction
from django.test import Client

from games import actions
from games.ctg import engine
from games.models import Table
from tests.games.conftest import open_table


def finished_against_ai(user, levels=("greedy", "heuristic", "heuristic"), rounds=1) -> Table:
    """`user` (seat 0) against AI players of `levels`, played to its end in one transaction:
    the AI tasks its moves queue after commit find the game over and do nothing."""
    with transaction.atomic():
        table = open_table(user, seats_count=1 + len(levels), rounds=rounds, clock="correspondence")
        for level in levels:
            actions.add_ai(table.pk, user, level)
        actions.start(table.pk, user)
        while (table := Table.objects.get(pk=table.pk)).status == Table.RUNNING:
            state = table.state()
            if table.seats.get(position=state.decider).user_id == user.pk:
                text = engine.action_text(state.legal_actions()[0], state.names)
                actions.play_for(table.pk, user, text, table.version)
            else:
                actions.ai_play(table.pk, table.version)
    return table


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def ask(client: Client, table: Table, seat="0", **headers):
    return client.post(f"/analysis/table/{table.pk}/", {"seat": seat}, **headers)
