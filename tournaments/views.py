"""Organiser and player pages of tournaments; the writes go through tournaments.actions."""

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from accounts import presence
from accounts.access import get_club_for_member, is_organiser, require_organiser
from games import registry
from games.models import Table
from leagues.forms import GameOptionsForm, game_form, posted_number
from tournaments import actions as tournaments
from tournaments import pairing
from tournaments.live import tournament_group
from tournaments.models import AbsenteePlace, Stage, Tournament, TournamentRound, TournamentTable

User = get_user_model()


class TournamentForm(GameOptionsForm, forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=80)
    # The site's first game unless the organiser chooses another.
    game = forms.ChoiceField(label=gettext_lazy("Game"), choices=registry.choices, required=False)
    mode = forms.ChoiceField(
        label=gettext_lazy("Where it is played"),
        choices=Tournament.MODES,
        initial=Tournament.PHYSICAL,
    )
    max_table = forms.TypedChoiceField(
        label=gettext_lazy("Players per table at most"),
        # The chosen game's own sizes (__init__).
        choices=[],
        coerce=int,
    )
    seeding = forms.ChoiceField(
        label=gettext_lazy("First round seeding"), choices=Tournament.SEEDINGS
    )
    first_kind = forms.ChoiceField(
        label=gettext_lazy("First stage"),
        choices=[(Stage.SWISS, Stage.KINDS[0][1]), (Stage.ROUND_ROBIN, Stage.KINDS[2][1])],
    )
    first_rounds = forms.IntegerField(
        label=gettext_lazy("Rounds of the first stage"), min_value=1, max_value=20, initial=3
    )
    cut = forms.IntegerField(
        label=gettext_lazy("Cut to the top (0: no bracket)"),
        min_value=0,
        max_value=256,
        initial=0,
        required=False,
    )
    bracket_rounds = forms.IntegerField(
        label=gettext_lazy("Rounds of tables in the bracket"),
        min_value=1,
        max_value=8,
        initial=1,
        required=False,
    )
    advance = forms.IntegerField(
        label=gettext_lazy("Players advancing from each bracket table"),
        min_value=1,
        max_value=3,
        initial=1,
        required=False,
    )
    rated = forms.BooleanField(label=gettext_lazy("Rated"), required=False, initial=True)
    allow_ai = forms.BooleanField(
        label=gettext_lazy("An AI player may fill a no-show's seat"), required=False
    )
    # The online tables' time control, as a live table's (games.forms.TableForm).
    clock = forms.ChoiceField(
        label=gettext_lazy("Clock of the online tables"),
        choices=Table.CLOCKS,
        initial=Table.NO_CLOCK,
        required=False,
    )
    clock_seconds = forms.IntegerField(
        label=gettext_lazy("Seconds per decision"),
        min_value=10,
        max_value=7 * 24 * 3600,
        initial=60,
        required=False,
    )
    timeout_policy = forms.ChoiceField(
        label=gettext_lazy("When time runs out"),
        choices=Table.TIMEOUT_POLICIES,
        required=False,
    )

    starts_at = forms.DateTimeField(
        label=gettext_lazy("Starts at"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text=gettext_lazy(
            "Online events: the first round is drawn then, from the players checked in, and "
            "every round after starts by itself. Leave empty to run the rounds by hand."
        ),
    )
    checkin_minutes = forms.IntegerField(
        label=gettext_lazy("Check-in opens (minutes before the start)"),
        min_value=1,
        max_value=24 * 60,
        initial=30,
        required=False,
    )

    round_interval = forms.IntegerField(
        label=gettext_lazy("Seconds between rounds"),
        min_value=0,
        max_value=3600,
        initial=60,
        required=False,
        help_text=gettext_lazy("From the end of a round's last table to the next draw."),
    )

    no_show_seconds = forms.IntegerField(
        label=gettext_lazy("Seconds before a player away from his table is absent"),
        min_value=10,
        max_value=3600,
        initial=60,
        required=False,
        help_text=gettext_lazy(
            "An AI player then plays his seat, and he is not drawn again until he checks in again."
        ),
    )
    absentee_place = forms.ChoiceField(
        label=gettext_lazy("An absent player takes"),
        choices=AbsenteePlace.choices,
        required=False,
    )

    SETTINGS = (
        "name",
        "game",
        "mode",
        "max_table",
        "seeding",
        "rated",
        "allow_ai",
        "clock",
        "clock_seconds",
        "timeout_policy",
        "starts_at",
        "checkin_minutes",
        "round_interval",
        "no_show_seconds",
        "absentee_place",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game"].initial = registry.first().key
        self.game = game = self.chosen_game()
        self.add_option_fields(self.game.tournament_option_fields())
        # Only the table sizes the game has, largest first; its best one to begin with.
        size = self.fields["max_table"]
        size.choices = [(n, str(n)) for n in reversed(game.seats)]
        size.error_messages = size.error_messages | {
            "invalid_choice": _("A table of %(game)s seats %(low)s to %(high)s players.")
            % {"game": game.name, "low": game.seats.start, "high": game.seats.stop - 1}
        }
        if str(self.initial.get("max_table")) not in {str(n) for n in game.seats}:
            self.initial["max_table"] = max(game.preferred_seats)

    def clean_game(self):
        return self.cleaned_data.get("game") or registry.first().key

    def clean(self):
        data = super().clean()
        # Left out (an older form): no clock, as before events had one.
        data["clock"] = data.get("clock") or Table.NO_CLOCK
        data["clock_seconds"] = data.get("clock_seconds") or 60
        data["timeout_policy"] = data.get("timeout_policy") or Table.AI_MOVES
        data["checkin_minutes"] = data.get("checkin_minutes") or 30
        data["no_show_seconds"] = data.get("no_show_seconds") or 60
        data["absentee_place"] = data.get("absentee_place") or AbsenteePlace.LAST
        if data.get("round_interval") is None:
            data["round_interval"] = 60
        game = self.game
        if not game.online and data.get("mode") not in (None, Tournament.PHYSICAL):
            self.add_error(
                "mode", _("%(game)s is played at the table only, for now.") % {"game": game.name}
            )
        return data

    @classmethod
    def initial_for(cls, tournament: Tournament) -> dict:
        initial = {name: getattr(tournament, name) for name in cls.SETTINGS} | tournament.options
        first, bracket, *_rest = [*tournament.stages.all(), None, None]
        if first is not None:
            initial |= {"first_kind": first.kind, "first_rounds": first.rounds}
        if bracket is not None:
            initial |= {"cut": bracket.cut, "bracket_rounds": bracket.rounds}
            initial["advance"] = bracket.advance
        return initial

    def settings(self) -> dict:
        chosen = {name: self.cleaned_data[name] for name in self.SETTINGS}
        return chosen | {"options": self.options()}

    def stages(self) -> list[dict]:
        data = self.cleaned_data
        stages = [{"kind": data["first_kind"], "rounds": data["first_rounds"]}]
        if data.get("cut"):
            stages.append(
                {
                    "kind": Stage.BRACKET,
                    "rounds": data.get("bracket_rounds") or 1,
                    "cut": data["cut"],
                    "advance": data.get("advance") or 1,
                }
            )
        return stages


def _tournament(user, slug, tournament_id, *, organiser=False):
    """One access helper for every tournament page: members see, organisers manage."""
    club, membership = get_club_for_member(user, slug)
    if organiser:
        require_organiser(membership)
    tournament = get_object_or_404(
        Tournament.objects.select_related("club"), pk=tournament_id, club=club
    )
    return tournament, membership


def live_context(tournament: Tournament, viewer) -> dict:
    """Everything the projector shows; the page, the organiser view and the push share it."""
    rounds = tournaments.rounds_of(tournament)
    current = rounds[-1] if rounds else None
    stage = current.stage if current else tournament.stages.order_by("order").first()
    ids = set(tournament.entries.values_list("user_id", flat=True))
    ids |= {p for r in rounds for t in r.tables.all() for p in t.players}
    names = {u.pk: str(u) for u in User.objects.filter(pk__in=ids)}
    rows = tournaments.stage_standings(stage, rounds) if stage else []
    marks = tournaments.qualification(stage, rows) if stage else {}
    cards = []
    if current is not None:
        for table in current.tables.all():
            done = tournaments.table_result(table) is not None
            cards.append({"table": table, "done": done, "seats": _card_seats(table, names, done)})
    columns = tournaments.bracket(tournament, rounds)
    for column in columns:
        for table in column["tables"]:
            for player in table["players"]:
                player["name"] = names.get(player["id"], "?")
    return {
        "tournament": tournament,
        "club": tournament.club,
        "stage": stage,
        "current": current,
        "cards": cards,
        "round_done": current is not None and tournaments.round_complete(current),
        "tables_playing": sum(not card["done"] for card in cards),
        "tables_finished": sum(card["done"] for card in cards),
        "standing": [
            {"row": r, "name": names.get(r.player, "?"), "mark": marks.get(r.player, "")}
            for r in rows
        ],
        "bracket": columns,
        "viewer_id": viewer.pk,
        "my_table": _my_table(cards, viewer),
    }


def _my_table(cards: list[dict], viewer) -> TournamentTable | None:
    """The viewer's table of the round under way, while its game waits for him."""
    for card in cards:
        table = card["table"]
        online = table.online_table
        if card["done"] or online is None or online.status != Table.RUNNING:
            continue
        if any(seat["id"] == viewer.pk and seat["plays"] for seat in card["seats"]):
            return table
    return None


def _card_seats(table: TournamentTable, names: dict[int, str], done: bool) -> list[dict]:
    """A table's seats as its card shows them, in seat order: the player drawn there, or the
    AI player in his place, and once the result is in the seat's place and total."""
    played = {s.seat: s for s in table.game.seats.all()} if done and table.game else {}
    online_table = table.online_table
    online = {s.position: s for s in online_table.seats.all()} if online_table else {}
    seats = []
    for seat in table.seats.all():
        sitting = online.get(seat.position)
        # Whoever sits at an online table plays; a seat left free (its player removed before
        # tournament tables were the event's) still shows who was drawn for it.
        plays = not seat.replaced and (
            sitting is None or not online or sitting.user_id == seat.user_id
        )
        drawn = names.get(seat.user_id, "?")
        if plays or sitting is None:
            name = drawn
        elif sitting.is_ai:
            name = sitting.display_name
        elif sitting.user_id == seat.user_id and online_table is not None:
            # The AI that stands in for the player replaced during the game.
            game = registry.get(online_table.game)
            name = str(game.ai_levels[game.stand_in_level][0])
        else:
            name = names.get(sitting.user_id or 0, sitting.name)
        result = played.get(seat.position)
        seats.append(
            {
                "id": seat.user_id,
                "name": name,
                "plays": plays,
                "ai": not plays and sitting is not None and (sitting.is_ai or sitting.left),
                "in_place_of": "" if plays or sitting is None else drawn,
                "place": result.place if result else None,
                "score": result.total if result else None,
            }
        )
    return seats


@login_required
def tournament_list(request, slug):
    club, membership = get_club_for_member(request.user, slug)
    return render(
        request,
        "tournaments/list.html",
        {
            "club": club,
            "tournaments": club.tournaments.all(),
            "organiser": is_organiser(membership),
        },
    )


@login_required
def tournament_create(request, slug):
    club, membership = get_club_for_member(request.user, slug)
    require_organiser(membership)
    form = game_form(TournamentForm, request)
    if request.method == "POST" and form.is_valid():
        tournament = tournaments.create(club, stages=form.stages(), **form.settings())
        messages.success(request, _("Tournament created. Players can register now."))
        return redirect(tournament)
    return render(request, _form_template(request), {"club": club, "form": form})


@login_required
def tournament_edit(request, slug, tournament_id):
    """Change the settings or call the event off, until its first round is drawn."""
    tournament, _m = _tournament(request.user, slug, tournament_id, organiser=True)
    form = game_form(TournamentForm, request, initial=TournamentForm.initial_for(tournament))
    try:
        if request.method == "POST" and "delete" in request.POST:
            if "confirm" not in request.POST:
                messages.error(request, _("Tick the box to call the tournament off."))
                return redirect("tournament_edit", slug, tournament.pk)
            tournaments.delete(tournament)
            messages.success(request, _("%(name)s is called off.") % {"name": tournament.name})
            return redirect("tournament_list", slug)
        if tournament.status != Tournament.REGISTRATION:
            raise tournaments.NotReady("started")
        if request.method == "POST" and form.is_valid():
            tournaments.change(tournament, stages=form.stages(), **form.settings())
            messages.success(request, _("Tournament changed."))
            return redirect(tournament)
    except tournaments.NotReady as refused:
        messages.error(request, _refusal(refused.code))
        return redirect(tournament)
    context = {"club": tournament.club, "form": form, "tournament": tournament}
    return render(request, _form_template(request), context)


def _form_template(request) -> str:
    # Another game chosen with htmx: only its option fields.
    return "tournaments/form.html#options" if request.htmx else "tournaments/form.html"


@login_required
def tournament_detail(request, slug, tournament_id):
    tournament, membership = _tournament(request.user, slug, tournament_id)
    organiser = is_organiser(membership)
    entries = list(tournament.entries.select_related("user").order_by("user__username"))
    context = {
        **live_context(tournament, request.user),
        "organiser": organiser,
        "entries": entries,
        "my_entry": next((e for e in entries if e.user_id == request.user.pk), None),
        "stages": list(tournament.stages.all()),
    }
    tables = [card["table"] for card in context["cards"]]
    context["tables_online"] = any(table.online for table in tables)
    context["tables_on_pads"] = any(not table.online for table in tables)
    if organiser and tournament.projector_token:
        context["projector_url"] = request.build_absolute_uri(
            reverse("projector_screen", args=[tournament.projector_token])
        )
    context["here"] = presence.present(
        tournament_group(tournament.pk), [e.user_id for e in entries]
    )
    context["checkin_open"] = tournament.checkin_open(timezone.now())
    if organiser:
        registered = {e.user_id for e in entries}
        context["others"] = tournament.club.members.exclude(pk__in=registered).order_by("username")
    return render(request, "tournaments/tournament.html", context)


@login_required
def tournament_projector(request, slug, tournament_id):
    tournament, _m = _tournament(request.user, slug, tournament_id)
    return render(request, "tournaments/projector.html", live_context(tournament, request.user))


@login_required
@require_POST
def projector_link(request, slug, tournament_id):
    """The organiser makes the projector's link, or replaces it: the old one stops working."""
    tournament, _m = _tournament(request.user, slug, tournament_id, organiser=True)
    tournaments.reset_projector_link(tournament)
    messages.success(request, _("The projector link is new; any older link no longer works."))
    return redirect(tournament)


def projector_screen(request, token: str):
    """The projector screen, opened by its link alone: no login, no site navigation."""
    tournament = tournaments.by_projector_token(token)
    if tournament is None:
        raise Http404(_("This projector link does not work (any more)."))
    context = live_context(tournament, AnonymousUser()) | {"token": token}
    response = render(request, "tournaments/screen.html", context)
    # The link is the key: keep it out of the Referer of anything the page loads.
    response["Referrer-Policy"] = "no-referrer"
    return response


@login_required
@require_POST
def tournament_register(request, slug, tournament_id):
    """A member registers (or withdraws) themselves; an organiser adds a member."""
    tournament, membership = _tournament(request.user, slug, tournament_id)
    if tournament.status == Tournament.FINISHED:
        messages.error(request, _("This tournament is over."))
        return redirect(tournament)
    user = request.user
    # "Add and check in": whoever an organiser adds is present, himself included.
    added = bool(request.POST.get("user"))
    if added:
        require_organiser(membership)
        user = get_object_or_404(tournament.club.members, pk=posted_number(request.POST, "user"))
    if request.POST.get("withdraw") and user == request.user:
        entry = tournament.entries.filter(user=user).first()
        if entry is not None:
            tournaments.set_presence(entry, dropped=True)
        return redirect(tournament)
    if not added and tournament.status != Tournament.REGISTRATION:
        # Late arrivals come in through an organiser, who checks them in as he adds them.
        messages.error(request, _("Registration has closed: an organiser can still add you."))
        return redirect(tournament)
    tournaments.register(tournament, user, checked_in=added)
    return redirect(tournament)


@login_required
@require_POST
def tournament_checkin(request, slug, tournament_id):
    """A member checks himself in, within the window before the start (or back in)."""
    tournament, _m = _tournament(request.user, slug, tournament_id)
    try:
        tournaments.check_in(tournament, request.user)
    except tournaments.NotReady as refused:
        messages.error(request, _refusal(refused.code))
    else:
        messages.success(request, _("You are checked in."))
    return redirect(tournament)


@login_required
@require_POST
def tournament_presence(request, slug, tournament_id):
    """Check-in, check-out, drop-out and return, one entry or everyone registered."""
    tournament, _m = _tournament(request.user, slug, tournament_id, organiser=True)
    action = request.POST.get("action")
    changes = {
        "in": {"checked_in": True},
        "out": {"checked_in": False},
        "drop": {"dropped": True},
        "return": {"dropped": False, "checked_in": True},
    }
    if action == "all-in":
        for entry in tournament.entries.filter(checked_in=False, dropped=False):
            tournaments.set_presence(entry, checked_in=True)
    elif action in changes:
        entry = get_object_or_404(tournament.entries, pk=posted_number(request.POST, "entry"))
        tournaments.set_presence(entry, **changes[action])
    return redirect(tournament)


def _refusal(code: str, table: int | None = None) -> str:
    at_table = {
        "not-at-table": _("This player has no seat at table %(n)s."),
        "ai-already": _("An AI player has this seat already."),
        "not-online": _("Table %(n)s is played at a physical table, not online."),
        "game-over": _("The game at table %(n)s is over."),
        "not-started": _("The game at table %(n)s has not started."),
        "table-stopped": _("The game at table %(n)s was cancelled or closed."),
    }
    if code in at_table:
        return at_table[code] % {"n": table}
    texts = {
        "round-open": _("Every table of the current round needs a confirmed result first."),
        "finished": _("Every stage has been played."),
        "no-stages": _("This tournament has no stages."),
        "round-started": _("The round has started: its tables can no longer change."),
        "not-seated": _("Choose two different players of this round."),
        "rounds-left": _("Rounds are still to be played."),
        "not-mixed": _("Only a mixed event has both online and physical tables."),
        "no-ai": _("This tournament does not let AI players fill seats."),
        "not-open": _("This online table has already started."),
        "not-full": _("The online table starts when every seat is taken."),
        "last-player": _("At least one player must stay at the table."),
        "started": _("The first round is drawn: the settings can no longer change."),
        "check-in-closed": _("Check-in is not open now."),
        "not-automatic": _("Only an online event with a start time runs, and pauses, itself."),
        "automatic": _(
            "This event draws and starts its rounds itself: pause it to hold the next draw, "
            "or end it now."
        ),
        "not-running": _("The event is not under way."),
        "registration-closed": _("Registration has closed: an organiser can still add you."),
        "player-left": _(
            "A player drawn for this round has left the club: swap or drop them first."
        ),
    }
    return texts.get(code, _("This cannot be done now."))


def _pairing_refusal(error: pairing.PairingError) -> str:
    texts = {
        "too-few-players": _("Too few players are present to fill a table."),
        "tie-at-cut": _("Players are tied across the cut at a table; correct a result first."),
        "bad-advance": _("Too many players would advance from a table."),
    }
    return texts.get(error.code, _("The tables cannot be drawn: %(reason)s") % {"reason": error})


@login_required
@require_POST
def tournament_step(request, slug, tournament_id):
    """The organiser's buttons: draft the next round, swap two players, start; at a table
    of a round under way: an AI player for a player, end the game, restart it; finish."""
    tournament, _m = _tournament(request.user, slug, tournament_id, organiser=True)
    step = request.POST.get("step")
    try:
        if tournament.runs_itself and step in ("draft", "swap", "begin", "online", "physical"):
            # Its rounds are drawn and started by the event itself, at their times.
            raise tournaments.NotReady("automatic")
        if step == "draft":
            tournaments.draft_round(tournament)
        elif step in ("ai", "online", "physical", "start", "adjudicate", "restart"):
            table = get_object_or_404(
                TournamentTable,
                pk=posted_number(request.POST, "table"),
                round__stage__tournament=tournament,
            )
            if step == "ai":
                tournaments.fill_with_ai(table, posted_number(request.POST, "player") or 0)
            elif step == "start":
                tournaments.start_online(table)
            elif step == "adjudicate":
                tournaments.adjudicate(table, posted_number(request.POST, "forfeit"))
            elif step == "restart":
                tournaments.restart(table)
            else:
                tournaments.set_online(table, step == "online")
        elif step in ("swap", "begin"):
            round_ = get_object_or_404(
                TournamentRound,
                pk=posted_number(request.POST, "round"),
                stage__tournament=tournament,
            )
            if step == "swap":
                tournaments.swap(
                    round_,
                    posted_number(request.POST, "a") or 0,
                    posted_number(request.POST, "b") or 0,
                )
            else:
                tournaments.begin_round(round_, request.user)
        elif step == "finish":
            tournaments.finish(tournament)
        elif step in ("pause", "resume"):
            tournaments.pause(tournament, step == "pause")
        elif step == "finish-now":
            tournaments.finish_now(tournament)
        else:
            messages.error(request, _("This is not a step of the event."))
    except tournaments.NotReady as refused:
        messages.error(request, _refusal(refused.code, refused.table))
    except pairing.PairingError as error:
        messages.error(request, _pairing_refusal(error))
    return redirect(tournament)
