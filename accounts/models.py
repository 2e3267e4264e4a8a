import secrets

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    display_name = models.CharField(_("display name"), max_length=60, blank=True)
    preferred_language = models.CharField(
        _("preferred language"), max_length=8, choices=settings.LANGUAGES, blank=True
    )
    turn_emails = models.BooleanField(
        _("email me when a game waits for my move"),
        default=True,
        help_text=_("In games without a live clock, when you have not moved for a few minutes."),
    )

    def __str__(self) -> str:
        return self.display_name or self.username


def new_invite_token() -> str:
    return secrets.token_urlsafe(16)


class Club(models.Model):
    name = models.CharField(_("name"), max_length=80)
    slug = models.SlugField(_("web address"), unique=True)
    description = models.TextField(_("description"), blank=True)
    invite_token = models.CharField(
        _("invite token"), max_length=40, unique=True, default=new_invite_token
    )
    created = models.DateTimeField(_("created"), auto_now_add=True)
    members = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="Membership", related_name="clubs"
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        constraints = [models.UniqueConstraint(Lower("name"), name="club_name_unique_ci")]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("club", args=[self.slug])

    def role_of(self, user) -> str | None:
        """The user's role in this club, or None for outsiders and anonymous visitors."""
        if not user.is_authenticated:
            return None
        membership = self.memberships.filter(user=user).first()
        return membership.role if membership else None


class MembershipRole(models.TextChoices):
    ORGANISER = "organiser", _("organiser")
    MEMBER = "member", _("member")


class Membership(models.Model):
    Role = MembershipRole
    ORGANISER, MEMBER = Role
    ROLES = Role.choices

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(_("role"), max_length=12, choices=ROLES, default=MEMBER)
    joined = models.DateTimeField(_("joined"), auto_now_add=True)

    class Meta:
        ordering = ["club", "user__username"]
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="one_membership_per_club"),
            models.CheckConstraint(
                condition=models.Q(role__in=MembershipRole.values), name="membership_role_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.club} ({self.role})"
