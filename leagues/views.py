import csv

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.db.models import Prefetch, Q
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.access import get_club_for_member, is_organiser, require_organiser
from games import registry
from games.access import get_table_for_viewer
from leagues import actions, rating_jobs, ratings, tallies
from leagues.access import get_game_for_member, get_league_for_member, get_league_for_organiser
from leagues.forms import LeagueForm, NewPadForm, game_form, posted_number
from leagues.models import League, PlayedGame, PlayedSeat, PlayerRating, RatingHistory

User = get_user_model()
LEADERBOARD_SIZE = 100


# --- leagues -------------------------------------------------------------------------------


@login_required
def league_list(request, slug):
    club, membership = get_club_for_member(request.user, slug)
    return render(
        request,
        "leagues/league_list.html",
        {"club": club, "leagues": club.leagues.all(), "organiser": is_organiser(membership)},
    )


@login_required
def league_create(request, slug):
    club, membership = get_club_for_member(request.user, slug)
    require_organiser(membership)
    form = game_form(LeagueForm, request, club=club)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            league = form.save()
            tallies.league_changed(league)
        messages.success(request, _("League created."))
        return redirect(league)
    return render(request, _form_template(request), {"club": club, "form": form})


@login_required
def league_edit(request, slug, league_id):
    league, _m = get_league_for_organiser(request.user, slug, league_id)
    form = game_form(LeagueForm, request, instance=league, club=league.club)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            league = form.save()
            tallies.league_changed(league)
        messages.success(request, _("League saved."))
        return redirect(league)
    context = {"club": league.club, "form": form, "league": league}
    return render(request, _form_template(request), context)


def _form_template(request) -> str:
    # Another game chosen with htmx: only its option fields.
    return "leagues/league_form.html#options" if request.htmx else "leagues/league_form.html"


def _table_context(league: League, viewer) -> dict:
    return {"league": league, "rows": league.table_with_ratings(), "viewer_key": f"u{viewer.pk}"}


@login_required
def league_detail(request, slug, league_id):
    league, membership = get_league_for_member(request.user, slug, league_id)
    games = league.games.prefetch_related(
        Prefetch("seats", queryset=PlayedSeat.objects.select_related("user"))
    )
    context = {
        **_table_context(league, request.user),
        "club": league.club,
        "organiser": is_organiser(membership),
        "recent": games.filter(status=PlayedGame.CONFIRMED)[:10],
        "open_pads": games.exclude(status=PlayedGame.CONFIRMED)[:10],
        "job": league.recompute_jobs.first() if is_organiser(membership) else None,
    }
    if is_organiser(membership) and league.projector_token:
        context["projector_url"] = request.build_absolute_uri(
            reverse("league_screen", args=[league.projector_token])
        )
    return render(request, "leagues/league.html", context)


@login_required
def league_table_csv(request, slug, league_id):
    league, _m = get_league_for_member(request.user, slug, league_id)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    filename = slugify(league.name) or "league"
    response["Content-Disposition"] = f'attachment; filename="{filename}.csv"'
    writer = csv.writer(response)
    writer.writerow(
        ["position", "player", "points", "games", "wins", "average", "ratio", "best_round", "form"]
    )
    for row in league.table:
        form = " ".join(f"{place}/{n}" for place, n in row["form"])
        writer.writerow(
            [
                row["position"],
                row["name"],
                row["points"],
                row["games"],
                row["wins"],
                row["average"],
                row["ratio"],
                row["best_round"],
                form,
            ]
        )
    return response


@login_required
def league_job(request, slug, league_id):
    league, _m = get_league_for_organiser(request.user, slug, league_id)
    return render(
        request,
        "leagues/league.html#job",
        {"league": league, "job": league.recompute_jobs.first(), "club": league.club},
    )


@login_required
@require_POST
def league_recompute(request, slug, league_id):
    league, _m = get_league_for_organiser(request.user, slug, league_id)
    rating_jobs.request_full_recompute(league)
    messages.success(request, _("Ratings are being recomputed."))
    return redirect(league)


@login_required
@require_POST
def league_link_guest(request, slug, league_id):
    league, _m = get_league_for_organiser(request.user, slug, league_id)
    guest = request.POST.get("guest", "").strip()
    member = league.club.members.filter(pk=posted_number(request.POST, "user")).first()
    if not guest or member is None:
        messages.error(request, _("Choose a guest and a member."))
        return redirect(league)
    count = actions.link_guest(league.club, guest, member)
    messages.success(
        request,
        _("%(count)s games of %(guest)s now count for %(member)s.")
        % {"count": count, "guest": guest, "member": member},
    )
    return redirect(league)


@login_required
@require_POST
def projector_link(request, slug, league_id):
    """The organiser makes the projector's link, or replaces it: the old one stops working."""
    league, _m = get_league_for_organiser(request.user, slug, league_id)
    actions.reset_projector_link(league)
    messages.success(request, _("The projector link is new; any older link no longer works."))
    return redirect(league)


def screen_context(league: League) -> dict:
    """What the projector screen shows; the page and its push share it."""
    recent = league.games.filter(status=PlayedGame.CONFIRMED).prefetch_related(
        Prefetch("seats", queryset=PlayedSeat.objects.select_related("user"))
    )
    return {"league": league, "rows": league.table, "viewer_key": "", "recent": recent[:6]}


def projector_screen(request, token: str):
    """The projector screen, opened by its link alone: no login, no site navigation."""
    league = actions.by_projector_token(token)
    if league is None:
        raise Http404(_("This projector link does not work (any more)."))
    response = render(
        request,
        "leagues/screen.html",
        screen_context(league) | {"club": league.club, "token": token},
    )
    # The link is the key: keep it out of the Referer of anything the page loads.
    response["Referrer-Policy"] = "no-referrer"
    return response


# --- score pad --------------------------------------------------------------------------


@login_required
def pad_new(request, slug, league_id):
    league, _m = get_league_for_member(request.user, slug, league_id)
    if registry.get(league.game).pad is None:
        raise Http404(_("This game is not kept on a score pad."))
    if not league.is_open:
        messages.error(request, _("This league is closed for new results."))
        return redirect(league)
    form = NewPadForm(request.POST or None, club=league.club, seats=registry.get(league.game).seats)
    if request.method == "POST" and form.is_valid():
        players = [actions.Player(user=m, guest_name=g) for m, g in form.cleaned_data["seats"]]
        game = actions.start_pad_game(league, request.user, players)
        return redirect(game)
    return render(request, "leagues/pad_new.html", {"league": league, "form": form})


def _pad_of(game: PlayedGame) -> registry.ScorePad:
    pad = registry.get(game.game).pad
    if pad is None:
        raise Http404(_("This game is not kept on a score pad."))
    return pad


def _open_ended(game: PlayedGame) -> bool:
    """Whether the game goes on until someone wins (no round counts of its own): its rounds
    are not numbered "of" a count."""
    return not registry.get(game.game).rounds


@login_required
def pad(request, slug, game_id):
    game, membership = get_game_for_member(request.user, slug, game_id)
    organiser = is_organiser(membership)
    pad = _pad_of(game)
    seats = sorted(game.seats.all(), key=lambda s: s.seat)
    names = [s.name for s in seats]
    entries = game.pad_entries
    sheet = pad.sheet(names, entries, options=game.options, rounds=game.rounds, finished=False)
    totals = [sum(scores) for scores in sheet.round_scores]
    can_enter = game.can_be_entered_by(request.user, organiser)
    next_round = None if sheet.placings is not None else len(entries) + 1
    form = None
    if can_enter and next_round:
        form = pad.form(
            None, names=names, round_no=next_round, entries=entries, options=game.options
        )
    context = {
        "game": game,
        "club": game.club,
        "seats": seats,
        "names": names,
        "sheet": sheet,
        "totals": totals,
        "next_round": next_round,
        "open_ended": _open_ended(game),
        "form": form,
        "sheet_template": f"{pad.template}#sheet",
        "fields_template": f"{pad.template}#fields",
        "can_enter": can_enter,
        "can_confirm": game.can_be_confirmed_by(request.user, organiser),
        "organiser": organiser,
        "expected": rating_jobs.expected_places(game) if not entries else None,
    }
    return render(request, "leagues/pad.html", context)


@login_required
def pad_round(request, slug, game_id, round_no):
    """A round of a score pad: its form, and the game's refusal when the rules cannot
    produce it."""
    game, membership = get_game_for_member(request.user, slug, game_id)
    organiser = is_organiser(membership)
    correcting = game.status == PlayedGame.CONFIRMED
    if correcting:
        require_organiser(membership)
    elif not game.can_be_entered_by(request.user, organiser):
        raise Http404(_("This score pad is not open for entering."))
    pad = _pad_of(game)
    names = [s.name for s in sorted(game.seats.all(), key=lambda s: s.seat)]
    entries = game.pad_entries
    if not 1 <= round_no <= actions.last_round(game, entries):
        raise Http404
    form = pad.form(
        request.POST if request.method == "POST" else None,
        names=names,
        round_no=round_no,
        entries=entries,
        options=game.options,
    )
    problems = []
    if request.method == "POST" and form.is_valid():
        try:
            actions.enter_pad_entry(game, round_no, form.entry())
        except actions.RoundInvalid as invalid:
            problems = invalid.problems
        else:
            if correcting:
                messages.success(request, _("Round corrected; the table and ratings follow."))
            return redirect(game)
    status = 422 if problems or form.errors else 200
    return render(
        request,
        "leagues/pad_round.html",
        {
            "game": game,
            "club": game.club,
            "form": form,
            "round_no": round_no,
            "problems": problems,
            "correcting": correcting,
            "fields_template": f"{pad.template}#fields",
            "open_ended": _open_ended(game),
        },
        status=status,
    )


@login_required
@require_POST
def pad_preview(request, slug, game_id, round_no):
    """What a round being entered scores, and the totals with it, as the game reads it."""
    game, membership = get_game_for_member(request.user, slug, game_id)
    organiser = is_organiser(membership)
    correcting = organiser and game.status == PlayedGame.CONFIRMED
    if not (correcting or game.can_be_entered_by(request.user, organiser)):
        raise Http404
    pad = _pad_of(game)
    names = [s.name for s in sorted(game.seats.all(), key=lambda s: s.seat)]
    entries = game.pad_entries
    if not 1 <= round_no <= len(entries) + 1:
        raise Http404
    form = pad.form(
        request.POST, names=names, round_no=round_no, entries=entries, options=game.options
    )
    context: dict = {"names": names, "round_no": round_no, "preview": None, "problem": ""}
    if form.is_valid():
        entries[round_no - 1 : round_no] = [form.entry()]
        try:
            sheet = pad.sheet(
                names,
                entries[:round_no],
                options=game.options,
                rounds=game.rounds,
                finished=False,
                entered=round_no,
            )
        except registry.PadRefused as refused:
            context["problem"] = refused.message
        else:
            context["preview"] = {
                "scores": [scores[round_no - 1] for scores in sheet.round_scores],
                "totals": [sum(scores) for scores in sheet.round_scores],
                "over": sheet.placings is not None,
            }
    return render(request, f"{pad.template}#preview", context)


@login_required
@require_POST
def pad_submit(request, slug, game_id):
    game, membership = get_game_for_member(request.user, slug, game_id)
    if not game.can_be_entered_by(request.user, is_organiser(membership)):
        raise Http404
    try:
        actions.submit_for_confirmation(game)
    except actions.NotAllowed:
        messages.error(request, _("Enter every round first."))
    except actions.RoundInvalid as invalid:
        for problem in invalid.problems:
            messages.error(request, problem)
    return redirect(game)


@login_required
@require_POST
def pad_reopen(request, slug, game_id):
    game, membership = get_game_for_member(request.user, slug, game_id)
    if game.status == PlayedGame.AWAITING and (
        is_organiser(membership) or game.has_player(request.user)
    ):
        actions.reopen(game)
    return redirect(game)


@login_required
@require_POST
def pad_confirm(request, slug, game_id):
    game, membership = get_game_for_member(request.user, slug, game_id)
    if actions.confirm(game, request.user, is_organiser(membership)):
        messages.success(request, _("Result confirmed. It counts now."))
    elif game.status != PlayedGame.CONFIRMED:
        messages.error(
            request,
            _("Another player at the table, or an organiser, confirms the result."),
        )
    return redirect(game)


# --- ratings ---------------------------------------------------------------------------


def rating_game(request) -> str:
    """The game whose ratings a page shows: ``?game=<key>``, else the site's first."""
    key = request.GET.get("game") or registry.first().key
    if key not in registry.all_games():
        raise Http404(_("There is no such game."))
    return key


def game_switch(key: str) -> list[dict]:
    """Links to the same page for each game (templates/leagues/_game_switch.html); none
    when the site hosts one game."""
    if len(registry.all_games()) < 2:
        return []
    return [{"key": k, "name": name, "current": k == key} for k, name in registry.choices()]


def _leaderboard(queryset, game: str):
    rows = queryset.filter(game=game, games__gt=0).select_related("user")
    return rows.order_by("-display", "user__username")[:LEADERBOARD_SIZE]


@login_required
def club_ratings(request, slug):
    club, _m = get_club_for_member(request.user, slug)
    game = rating_game(request)
    rows = _leaderboard(PlayerRating.objects.filter(user__memberships__club=club), game)
    context = {"club": club, "rows": rows, "scope": club.name, "games": game_switch(game)}
    return render(request, "leagues/leaderboard.html", context)


def site_ratings(request):
    game = rating_game(request)
    rows = _leaderboard(PlayerRating.objects.filter(user__is_active=True), game)
    context = {"rows": rows, "scope": _("All players"), "games": game_switch(game)}
    return render(request, "leagues/leaderboard.html", context)


def ratings_help(request):
    return render(
        request,
        "leagues/ratings_help.html",
        {
            "provisional": ratings.PROVISIONAL_GAMES,
            "mu": ratings.MU,
            "sigma": round(ratings.SIGMA, 3),
            "beta": round(ratings.BETA, 3),
            "tau": round(ratings.TAU, 4),
        },
    )


@login_required
def player_results_csv(request, username):
    """A player's confirmed results in the clubs the visitor shares, and club-less games."""
    person = get_object_or_404(User, username=username, is_active=True)
    visible_clubs = request.user.clubs.values("pk")
    rows = (
        PlayedSeat.objects.filter(user=person, game__status=PlayedGame.CONFIRMED)
        .filter(Q(game__club__isnull=True) | Q(game__club__in=visible_clubs))
        .select_related("game__club", "game__league")
        .prefetch_related(
            Prefetch("game__seats", queryset=PlayedSeat.objects.select_related("user"))
        )
        .order_by("game__played_at", "game_id")
    )
    history = dict(RatingHistory.objects.filter(user=person).values_list("game_id", "display"))
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{slugify(username)}-results.csv"'
    writer = csv.writer(response)
    writer.writerow(
        [
            "played_at",
            "club",
            "league",
            "source",
            "players",
            "place",
            "score",
            "opponents",
            "rating_after",
        ]
    )
    for seat in rows:
        game = seat.game
        others = [s for s in game.seats.all() if s.pk != seat.pk]
        writer.writerow(
            [
                game.played_at.isoformat(timespec="minutes"),
                game.club.name if game.club else "",
                game.league.name if game.league else "",
                game.source,
                len(others) + 1,
                seat.place,
                seat.total,
                "; ".join(f"{s.name} {s.total}" for s in others),
                history.get(game.pk, ""),
            ]
        )
    return response


def profile_ratings_context(person, game: str = "") -> dict:
    """Context for templates/leagues/_profile_ratings.html on a player's profile page: the
    player's rating in one game (a registered game's key; the site's first by default)."""
    game = game or registry.first().key
    rating = PlayerRating.objects.filter(user=person, game=game).first()
    points = list(
        RatingHistory.objects.filter(user=person, game_key=game)
        .order_by("played_at", "game_id")
        .values_list("display", flat=True)
    )
    return {
        "lg_person": person,
        "lg_rating": rating,
        "lg_chart": _chart(points),
        "lg_games": game_switch(game),
    }


def _chart(points: list[int], width: int = 320, height: int = 120) -> dict | None:
    """An SVG polyline of the displayed rating over games; no JavaScript needed."""
    if len(points) < 2:
        return None
    low, high = min(points), max(points)
    span = max(high - low, 1)
    step = width / (len(points) - 1)
    coords = " ".join(
        f"{i * step:.1f},{height - (p - low) * height / span:.1f}" for i, p in enumerate(points)
    )
    return {
        "width": width,
        "height": height,
        "points": coords,
        "low": low,
        "high": high,
        "last": points[-1],
        "games": len(points),
    }


def table_ratings(request, table_id: int):
    """What a finished online game did to its players' ratings, for the table's result page."""
    table, _seat = get_table_for_viewer(request, table_id)
    game = PlayedGame.objects.filter(table_id=table.pk).first()
    rows = []
    kind = game.game if game else ""
    for row in RatingHistory.objects.filter(game=game).select_related("user") if game else []:
        before = (
            RatingHistory.objects.filter(user=row.user, game__game=kind)
            .filter(
                Q(played_at__lt=row.played_at) | Q(played_at=row.played_at, game_id__lt=row.game_id)
            )
            .order_by("-played_at", "-game_id")
            .values_list("display", flat=True)
            .first()
        )
        delta = None if before is None else row.display - before
        rows.append({"name": row.user.username, "after": row.display, "delta": delta})
    return render(request, "leagues/_table_ratings.html", {"rows": rows, "table": table})
