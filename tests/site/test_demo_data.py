import pytest
from django.core.management import call_command

from accounts.models import Club, Membership, User


@pytest.mark.django_db
def test_it_loads_the_demo_club_once_however_often_it_runs(capsys):
    call_command("demo_data")
    call_command("demo_data")

    club = Club.objects.get(slug="demo-club")
    assert club.memberships.count() == 6
    assert club.memberships.get(role=Membership.ORGANISER).user.username == "organiser"
    assert User.objects.get(username="organiser").check_password("glory-demo-1")
    assert "organiser / glory-demo-1" in capsys.readouterr().out
