from django.core.management.base import BaseCommand
from django.db import transaction

from accounts.models import Club, Membership, User

ORGANISER = ("organiser", "glory-demo-1")
PLAYERS = ["alice", "bob", "charlie", "dave", "erin"]


class Command(BaseCommand):
    help = "Create a demo club with an organiser and a handful of players (safe to run again)."

    @transaction.atomic
    def handle(self, *args, **options):
        club, _ = Club.objects.get_or_create(
            slug="demo-club",
            defaults={"name": "Demo Club", "description": "A club to try the site with."},
        )
        for username, role in [(ORGANISER[0], Membership.ORGANISER)] + [
            (name, Membership.MEMBER) for name in PLAYERS
        ]:
            user, created = User.objects.get_or_create(
                username=username,
                defaults={
                    "display_name": username.capitalize(),
                    "email": f"{username}@example.com",
                },
            )
            if created:
                user.set_password(ORGANISER[1])
                user.save()
            Membership.objects.get_or_create(club=club, user=user, defaults={"role": role})
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo club ready. Organiser login: {ORGANISER[0]} / {ORGANISER[1]} "
                f"(players {', '.join(PLAYERS)} share that password)"
            )
        )
