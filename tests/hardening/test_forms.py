"""The forms of the practice and teacher pages: a POST they refuse gets the translated message
and a 4xx and changes nothing; a query parameter they refuse shows the default view."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from practice.models import PracticeGame
from teacher.models import TeacherScenario
from tests.practice.helpers import start, url

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.mark.parametrize("version", ["", "abc", "1.5", "9" * 5000])
@pytest.mark.parametrize("what", ["move", "step", "undo", "next"])
def test_a_practice_post_without_a_readable_version_is_refused(client, what, version):
    record = start(client, "dam")
    r = client.post(url(record, what), {"version": version, "move": "take"})
    assert r.status_code == 400
    assert "The form was incomplete; nothing was changed." in r.content.decode()
    after = PracticeGame.objects.get(pk=record.pk)
    assert (after.version, after.actions) == (record.version, record.actions)


@pytest.mark.parametrize("fields", [{}, {"move": "at tack"}, {"move": "x" * 21},
                                    {"move": "beat", "card": ["5C", "6C"]}])
def test_a_practice_move_the_form_cannot_read_is_refused(client, fields):
    record = start(client, "dam")
    r = client.post(url(record, "move"), {"version": record.version, **fields})
    assert r.status_code == 400
    assert PracticeGame.objects.get(pk=record.pk).actions == record.actions


@pytest.mark.parametrize("hint", ["2", "yes", "\x00"])
def test_an_unknown_hint_parameter_shows_the_page_without_a_hint(client, hint):
    record = start(client, "dam")
    assert client.get(url(record), {"hint": hint}).status_code == 200


def scenario(client) -> TeacherScenario:
    r = client.post(reverse("scenarios_create"), {"rules": "dam:svarta-maja",
                                                  "players": "Anna Bo Cilla"})
    assert r.status_code == 303
    return TeacherScenario.objects.get()


@pytest.mark.parametrize("name, data", [
    ("scenario_deal", {"action": "shuffle"}),
    ("scenario_deal", {}),
    ("scenario_move", {"action": "maybe", "move": "Anna take"}),
    ("scenario_undo", {"steps": "abc"}),
    ("scenario_undo", {"steps": "-1"}),
])
def test_a_teacher_post_the_form_cannot_read_is_refused(client, name, data):
    obj = scenario(client)
    r = client.post(reverse(name, args=[obj.code]), data)
    assert r.status_code == 400
    assert "That form could not be read." in r.content.decode()
    assert TeacherScenario.objects.get().data == obj.data


@pytest.mark.parametrize("seat", ["9", "-1", "01x", "all", ""])
def test_an_unknown_seat_shows_every_hand(client, seat):
    obj = scenario(client)
    for target, typed in (("hand:0", "4D 6D 9D KC 3S 8H"), ("hand:1", "7D 2D JS 5C TH AS"),
                          ("hand:2", "3C 8C QD 2H 6S KS"), ("turned", "9H")):
        client.post(reverse("scenario_deal", args=[obj.code]),
                    {"action": "assign", "target": target, "typed": typed})
    page = client.get(reverse("scenario_present", args=[obj.code, 0]), {"seat": seat})
    assert page.status_code == 200
    assert 'data-seat="all" aria-current="true"' in page.content.decode()
