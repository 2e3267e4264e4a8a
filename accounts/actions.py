"""Writes to clubs and memberships that must keep a club's invariants.

Every role change locks the club row first: two organisers demoting each other at the same
moment must not leave a club without an organiser.
"""

from axes.utils import reset as reset_login_failures
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from accounts.models import Club, Membership, User, new_invite_token

# Slugs that would shadow the fixed paths under /clubs/.
RESERVED_SLUGS = {"new", "join"}


class Refused(Exception):
    """The change would break a rule of the club; the message says which, for the user."""


def unique_slug(name: str) -> str:
    base = slugify(name)[:40].strip("-") or "club"
    if base in RESERVED_SLUGS:
        base = f"{base}-club"
    slug, n = base, 1
    while Club.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


@transaction.atomic
def create_club(user: User, name: str, description: str = "") -> Club:
    club = Club.objects.create(name=name, description=description, slug=unique_slug(name))
    Membership.objects.create(club=club, user=user, role=Membership.ORGANISER)
    return club


def join_club(club: Club, user: User) -> bool:
    """Make the user a member; False when they already were one."""
    _, created = Membership.objects.get_or_create(club=club, user=user)
    return created


def rotate_invite(club: Club) -> None:
    club.invite_token = new_invite_token()
    club.save(update_fields=["invite_token"])


def _lock(club: Club, user_id: int) -> Membership | None:
    Club.objects.select_for_update().filter(pk=club.pk).first()
    return club.memberships.filter(user_id=user_id).first()


def _is_last_organiser(club: Club, membership: Membership) -> bool:
    return (
        membership.role == Membership.ORGANISER
        and club.memberships.filter(role=Membership.ORGANISER).count() == 1
    )


@transaction.atomic
def leave_club(club: Club, user: User) -> None:
    membership = _lock(club, user.pk)
    if membership is None:
        return
    if _is_last_organiser(club, membership):
        raise Refused(
            _(
                "You are the last organiser of this club. "
                "Make another member an organiser before you leave."
            )
        )
    membership.delete()


@transaction.atomic
def remove_member(club: Club, user_id: int) -> None:
    membership = _lock(club, user_id)
    if membership is None:
        return
    if _is_last_organiser(club, membership):
        raise Refused(_("The last organiser of a club cannot be removed."))
    membership.delete()


@transaction.atomic
def set_role(club: Club, user_id: int, role: str) -> None:
    membership = _lock(club, user_id)
    if membership is None or membership.role == role:
        return
    if role == Membership.MEMBER and _is_last_organiser(club, membership):
        raise Refused(
            _("A club needs at least one organiser. Make someone else an organiser first.")
        )
    membership.role = role
    membership.save(update_fields=["role"])


def unlock_login(user: User) -> None:
    """Forget the failed logins of this account from every address, lifting any lockout."""
    reset_login_failures(username=user.get_username())
