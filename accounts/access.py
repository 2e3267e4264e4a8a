"""Who may see and change a club: the one place these checks live.

Clubs are private. A club's page and everything under it is visible to its members only; an
outsider gets the same 404 as for a club that does not exist, so club names do not leak.
Changes (invite link, members' roles) are for organisers: a plain member gets a 403 that
says so. Anonymous visitors never reach these helpers: the views are behind
``login_required``, which sends them to the login page and back.
"""

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils.translation import gettext as _

from accounts.models import Club, Membership


def is_member(user, club_id: int) -> bool:
    """Whether `user` (perhaps anonymous) is a member of the club."""
    return (
        user.is_authenticated
        and Membership.objects.filter(club_id=club_id, user_id=user.pk).exists()
    )


def get_club_for_member(user, slug: str) -> tuple[Club, Membership]:
    """The club and the user's membership, or 404 for anyone outside it."""
    membership = (
        Membership.objects.select_related("club").filter(club__slug=slug, user_id=user.pk).first()
    )
    if membership is None:
        raise Http404(_("This club does not exist, or you are not a member of it."))
    return membership.club, membership


def get_club_for_organiser(user, slug: str) -> tuple[Club, Membership]:
    """Like get_club_for_member, and 403 for members who are not organisers."""
    club, membership = get_club_for_member(user, slug)
    require_organiser(membership)
    return club, membership


def is_organiser(membership: Membership) -> bool:
    return membership.role == Membership.ORGANISER


def require_organiser(membership: Membership) -> None:
    if not is_organiser(membership):
        raise PermissionDenied(_("Only the club's organisers can do this."))


def get_other_membership(club: Club, user_id: int) -> Membership:
    """A member of a club the caller has already been checked against, or 404."""
    membership = club.memberships.select_related("user").filter(user_id=user_id).first()
    if membership is None:
        raise Http404(_("This person is not a member of the club."))
    return membership
