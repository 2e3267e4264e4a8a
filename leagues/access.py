"""Who may see and change leagues and score pads: one helper per object type.

Clubs' own checks (membership, organisers) are in accounts.access.

A club's leagues and games are for its members only: outsiders get the same 404 as for
something that does not exist. Managing a league is for organisers (403 for members).
"""

from django.shortcuts import get_object_or_404

from accounts.access import get_club_for_member, require_organiser
from accounts.models import Membership
from leagues.models import League, PlayedGame


def get_league_for_member(user, slug: str, league_id: int) -> tuple[League, Membership]:
    club, membership = get_club_for_member(user, slug)
    league = get_object_or_404(League.objects.select_related("club"), pk=league_id, club=club)
    return league, membership


def get_league_for_organiser(user, slug: str, league_id: int) -> tuple[League, Membership]:
    league, membership = get_league_for_member(user, slug, league_id)
    require_organiser(membership)
    return league, membership


def get_game_for_member(user, slug: str, game_id: int) -> tuple[PlayedGame, Membership]:
    club, membership = get_club_for_member(user, slug)
    game = get_object_or_404(
        PlayedGame.objects.select_related("club", "league").prefetch_related("seats__user"),
        pk=game_id,
        club=club,
    )
    return game, membership
