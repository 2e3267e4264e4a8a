from django.urls import reverse

from accounts.models import Club, Membership
from tests.accounts.conftest import client_for


def test_it_shows_an_empty_club_list(charlie):
    response = client_for(charlie).get(reverse("club_list"))
    assert "You are not in a club yet." in response.content.decode()


def test_it_lists_my_clubs_with_my_role(club, bob):
    body = client_for(bob).get(reverse("club_list")).content.decode()
    assert "Samurai Club" in body and "member" in body


def test_it_rejects_a_duplicate_club_name_whatever_the_case(club, charlie):
    response = client_for(charlie).post(reverse("club_create"), {"name": "  samurai CLUB "})
    assert response.status_code == 200
    assert "A club called “samurai CLUB” already exists." in response.content.decode()
    assert Club.objects.count() == 1


def test_it_requires_a_club_name(charlie):
    response = client_for(charlie).post(reverse("club_create"), {"name": ""})
    assert response.status_code == 200
    assert "This field is required." in response.content.decode()


def test_it_keeps_club_slugs_off_the_fixed_paths(charlie):
    client = client_for(charlie)
    client.post(reverse("club_create"), {"name": "New"})
    client.post(reverse("club_create"), {"name": "Join"})
    client.post(reverse("club_create"), {"name": "皇帝"})
    assert sorted(Club.objects.values_list("slug", flat=True)) == ["club", "join-club", "new-club"]
    assert client.get(reverse("club", args=["new-club"])).status_code == 200


def test_it_gives_clubs_with_similar_names_distinct_slugs(charlie):
    client = client_for(charlie)
    client.post(reverse("club_create"), {"name": "Monk's Table"})
    client.post(reverse("club_create"), {"name": "Monks Table"})
    assert sorted(Club.objects.values_list("slug", flat=True)) == ["monks-table", "monks-table-2"]


def test_it_shows_the_join_page_for_an_invite(club, charlie):
    response = client_for(charlie).get(reverse("club_join", args=[club.invite_token]))
    body = response.content.decode()
    assert response.status_code == 200
    assert "Join Samurai Club" in body
    assert 'method="post"' in body


def test_it_sends_anonymous_visitors_to_log_in_and_back(club, charlie, client):
    url = reverse("club_join", args=[club.invite_token])
    response = client.get(url)
    assert response.url == f"{reverse('login')}?next={url}"
    response = client.post(
        response.url, {"username": "charlie", "password": "glory-of-the-emperor-41", "next": url}
    )
    assert response.url == url


def test_it_explains_a_bad_invite_token(charlie):
    response = client_for(charlie).get(reverse("club_join", args=["not-a-token"]))
    assert response.status_code == 404
    assert "This invite link is not valid any more" in response.content.decode()


def test_it_stops_accepting_a_rotated_invite(club, alice, charlie):
    old = club.invite_token
    client_for(alice).post(reverse("club_rotate_invite", args=[club.slug]))
    response = client_for(charlie).post(reverse("club_join", args=[old]))
    assert response.status_code == 404
    assert club.role_of(charlie) is None


def test_it_tells_a_member_who_follows_the_invite_again(club, bob):
    response = client_for(bob).get(reverse("club_join", args=[club.invite_token]), follow=True)
    assert response.redirect_chain[-1][0] == club.get_absolute_url()
    assert "You are already a member of “Samurai Club”." in response.content.decode()


def test_it_lets_a_user_be_in_several_clubs(club, bob):
    client = client_for(bob)
    client.post(reverse("club_create"), {"name": "Ninja Nights"})
    assert sorted(bob.clubs.values_list("name", flat=True)) == ["Ninja Nights", "Samurai Club"]


def test_it_explains_why_the_last_organiser_cannot_leave(club, alice):
    response = client_for(alice).post(reverse("club_leave", args=[club.slug]), follow=True)
    assert "You are the last organiser of this club." in response.content.decode()


def test_it_swaps_only_the_member_list_for_htmx(club, alice, bob):
    response = client_for(alice).post(
        reverse("club_promote", args=[club.slug, bob.pk]), headers={"HX-Request": "true"}
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert body.lstrip().startswith('<section class="panel" id="members">')
    assert "Bob is now an organiser." in body
    assert club.role_of(bob) == Membership.ORGANISER


def test_it_reloads_the_page_when_an_organiser_demotes_themselves(club, alice, bob):
    Membership.objects.filter(user=bob).update(role=Membership.ORGANISER)
    response = client_for(alice).post(
        reverse("club_demote", args=[club.slug, alice.pk]), headers={"HX-Request": "true"}
    )
    assert response.headers["HX-Redirect"] == club.get_absolute_url()
    assert club.role_of(alice) == Membership.MEMBER


def test_it_shows_the_member_list_with_roles(club, bob):
    body = client_for(bob).get(club.get_absolute_url()).content.decode()
    assert "Alice" in body and "organiser" in body and "Tuesdays." in body
    # Members see no organiser controls.
    assert "Make organiser" not in body
