"""Who may see and change leagues and score pads: one helper per object type.

A club's leagues and games are for its members only: outsiders get the same 404 as for
something that does not exist. Managing a league is for organisers (403 for members).
"""

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from accounts.models import Club, Membership
from leagues.models import League, PlayedGame


def get_club_for_member(user, slug: str) -> tuple[Club, Membership]:
    membership = (
        Membership.objects.select_related("club").filter(club__slug=slug, user_id=user.pk).first()
    )
    if membership is None:
        raise Http404(_("This club does not exist, or you are not a member of it."))
    return membership.club, membership


def require_organiser(membership: Membership) -> None:
    if membership.role != Membership.ORGANISER:
        raise PermissionDenied(_("Only the club's organisers can do this."))


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


def is_organiser(membership: Membership) -> bool:
    return membership.role == Membership.ORGANISER
