"""Helpers for De l'Orc score-pad tests: seats, rounds and posts as the pages take them."""

from django.test import Client

from leagues.models import PlayedGame


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def start(client, league, members, guests=()):
    data = {f"member_{i}": m.pk for i, m in enumerate(members)}
    data |= {f"guest_{len(members) + i}": g for i, g in enumerate(guests)}
    response = client.post(f"/clubs/tenno/leagues/{league.pk}/games/new/", data)
    assert response.status_code == 302, response.content
    return PlayedGame.objects.get(pk=response["Location"].rstrip("/").split("/")[-1])


def round_data(wizard, champion, *battles):
    data = {"wizard": wizard, "champion": "" if champion is None else champion}
    for number, winners in enumerate(battles, 1):
        data[f"battle_{number}"] = [str(w) for w in winners]
    return data


def enter(client, game, round_no, data):
    return client.post(f"/clubs/tenno/games/{game.pk}/rounds/{round_no}/", data)


# Seats: alice 0, bob 1, dave 2, erin 3, Gus 4. Target with five players: 8.
# Round 1: alice wizard, bob champion; bob wins battles 1 and 4 (4 points), dave 2, erin 3.
# Round 2: bob wizard, dave champion; dave wins 1, 3, 4 (5), erin 2: dave 9 -> the end.
ROUND_1 = round_data(0, 1, [1], [2], [3], [1])
ROUND_2 = round_data(1, 2, [2], [3], [2], [2])
