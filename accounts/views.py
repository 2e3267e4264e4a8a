from django.conf import settings as django_settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from accounts import actions, limits
from accounts.access import get_club_for_member, get_club_for_organiser, get_other_membership
from accounts.forms import ClubForm, SettingsForm, SignupForm
from accounts.http import MemberRequest
from accounts.models import Club, Membership


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        # Counted only when an account would be made: typos in the form cost nothing.
        if not limits.signup_allowed(request):
            return limits.too_many_signups(request)
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome, %(name)s! Your account is ready.") % {"name": user})
        next_url = request.GET.get("next", "")
        if not url_has_allowed_host_and_scheme(
            next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        ):
            next_url = reverse("home")
        return redirect(next_url)
    return render(request, "registration/signup.html", {"form": form})


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    def form_valid(self, form):
        # The emailed link proves the account is theirs: a lockout from the forgotten
        # password must not keep them out of the new one.
        response = super().form_valid(form)
        actions.unlock_login(form.user)
        return response


def _set_language_cookie(response: HttpResponse, language: str) -> None:
    if not language:
        response.delete_cookie(
            django_settings.LANGUAGE_COOKIE_NAME,
            path=django_settings.LANGUAGE_COOKIE_PATH,
            domain=django_settings.LANGUAGE_COOKIE_DOMAIN,
        )
        return
    response.set_cookie(
        django_settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=django_settings.LANGUAGE_COOKIE_AGE,
        path=django_settings.LANGUAGE_COOKIE_PATH,
        domain=django_settings.LANGUAGE_COOKIE_DOMAIN,
        secure=django_settings.LANGUAGE_COOKIE_SECURE,
        httponly=django_settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=django_settings.LANGUAGE_COOKIE_SAMESITE,
    )


@login_required
def account_settings(request: HttpRequest) -> HttpResponse:
    form = SettingsForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        if user.preferred_language:
            # So the confirmation below is already in the chosen language.
            translation.activate(user.preferred_language)
        messages.success(request, _("Your settings have been saved."))
        response = redirect("settings")
        # The switcher's cookie would otherwise win over the new preference.
        _set_language_cookie(response, user.preferred_language)
        return response
    return render(request, "accounts/settings.html", {"form": form})


@login_required
def club_list(request: MemberRequest) -> HttpResponse:
    memberships = request.user.memberships.select_related("club").order_by("club__name")
    return render(request, "accounts/club_list.html", {"memberships": memberships})


@login_required
def club_create(request: MemberRequest) -> HttpResponse:
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            club = actions.create_club(
                request.user, form.cleaned_data["name"], form.cleaned_data["description"]
            )
        except IntegrityError:
            # Someone took the name between the form's check and the insert.
            form.add_error(
                "name", _("A club with this name already exists. Please choose another name.")
            )
        else:
            messages.success(
                request,
                _("Your club “%(name)s” is ready. Invite players with the link below.")
                % {"name": club.name},
            )
            return redirect(club)
    return render(request, "accounts/club_form.html", {"form": form})


def _club_context(request: HttpRequest, club: Club, membership: Membership) -> dict:
    return {
        "club": club,
        "membership": membership,
        "is_organiser": membership.role == Membership.ORGANISER,
        "memberships": club.memberships.select_related("user").order_by("-role", "user__username"),
        "invite_url": request.build_absolute_uri(reverse("club_join", args=[club.invite_token])),
        "locked": limits.locked_usernames(club.members.values_list("username", flat=True))
        if membership.role == Membership.ORGANISER
        else set(),
    }


@login_required
def club(request: HttpRequest, slug: str) -> HttpResponse:
    club, membership = get_club_for_member(request.user, slug)
    return render(request, "accounts/club.html", _club_context(request, club, membership))


def _after_member_change(
    request: MemberRequest, club: Club, membership: Membership
) -> HttpResponse:
    """htmx swaps the member list in place; without JavaScript, back to the club page."""
    current = club.memberships.filter(pk=membership.pk).first()
    if current is None or current.role != Membership.ORGANISER:
        # The organiser removed or demoted themselves: the whole page changes.
        url = reverse("club_list") if current is None else club.get_absolute_url()
        return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
    if request.htmx:
        return render(request, "accounts/club.html#members", _club_context(request, club, current))
    return redirect(club)


@login_required
@require_POST
def club_rotate_invite(request: MemberRequest, slug: str) -> HttpResponse:
    club, _membership = get_club_for_organiser(request.user, slug)
    actions.rotate_invite(club)
    messages.success(request, _("There is a new invite link. The old one no longer works."))
    return redirect(club)


@login_required
@require_POST
def club_remove_member(request: MemberRequest, slug: str, user_id: int) -> HttpResponse:
    club, membership = get_club_for_organiser(request.user, slug)
    target = get_other_membership(club, user_id)
    try:
        actions.remove_member(club, target.user_id)
    except actions.Refused as refused:
        messages.error(request, str(refused))
    else:
        messages.success(request, _("%(name)s is no longer a member.") % {"name": target.user})
    return _after_member_change(request, club, membership)


def _change_role(request: MemberRequest, slug: str, user_id: int, role: str) -> HttpResponse:
    club, membership = get_club_for_organiser(request.user, slug)
    target = get_other_membership(club, user_id)
    try:
        actions.set_role(club, target.user_id, role)
    except actions.Refused as refused:
        messages.error(request, str(refused))
    else:
        if role == Membership.ORGANISER:
            text = _("%(name)s is now an organiser.")
        else:
            text = _("%(name)s is now a member.")
        messages.success(request, text % {"name": target.user})
    return _after_member_change(request, club, membership)


@login_required
@require_POST
def club_promote(request: MemberRequest, slug: str, user_id: int) -> HttpResponse:
    return _change_role(request, slug, user_id, Membership.ORGANISER)


@login_required
@require_POST
def club_demote(request: MemberRequest, slug: str, user_id: int) -> HttpResponse:
    return _change_role(request, slug, user_id, Membership.MEMBER)


@login_required
@require_POST
def club_unlock_login(request: MemberRequest, slug: str, user_id: int) -> HttpResponse:
    club, membership = get_club_for_organiser(request.user, slug)
    target = get_other_membership(club, user_id)
    actions.unlock_login(target.user)
    messages.success(request, _("%(name)s can log in again.") % {"name": target.user})
    return _after_member_change(request, club, membership)


@login_required
@require_POST
def club_leave(request: MemberRequest, slug: str) -> HttpResponse:
    club, _membership = get_club_for_member(request.user, slug)
    try:
        actions.leave_club(club, request.user)
    except actions.Refused as refused:
        messages.error(request, str(refused))
        return redirect(club)
    messages.success(request, _("You have left “%(name)s”.") % {"name": club.name})
    return redirect("club_list")


@login_required
def club_join(request: MemberRequest, token: str) -> HttpResponse:
    """Anyone signed in with the current invite link may join; old links stop working."""
    club = Club.objects.filter(invite_token=token).first()
    if club is None:
        return render(request, "accounts/invite_invalid.html", status=404)
    if club.role_of(request.user) is not None:
        messages.info(request, _("You are already a member of “%(name)s”.") % {"name": club.name})
        return redirect(club)
    if request.method == "POST":
        actions.join_club(club, request.user)
        messages.success(request, _("Welcome to “%(name)s”!") % {"name": club.name})
        return redirect(club)
    return render(request, "accounts/join.html", {"club": club})
