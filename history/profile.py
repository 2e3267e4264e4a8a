"""A player's page: clubs, ratings and statistics, gathered here because history may read
every app and accounts may read none."""

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from accounts.http import MemberRequest
from accounts.models import Club
from history.stats import profile_stats_context
from leagues.views import profile_ratings_context, rating_game


@login_required
def profile(request: MemberRequest, username: str) -> HttpResponse:
    person = get_user_model().objects.filter(username=username, is_active=True).first()
    if person is None:
        raise Http404(_("There is no player with this username."))
    clubs = Club.objects.filter(members=person)
    if person != request.user:
        # Clubs are private: show only the ones the visitor is in too.
        clubs = clubs.filter(members=request.user)
    context = {"person": person, "clubs": clubs}
    context |= profile_ratings_context(person, rating_game(request))
    context |= profile_stats_context(person, request.user)
    return render(request, "accounts/profile.html", context)
