import pytest
from django.urls import reverse
from django.utils import translation

from tutorials import lessons

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("game", ["dam", "dolda", "spardame"])
def test_tutorial_step_links_to_presenter_mode_for_the_same_step(client, game):
    tutorial = next(t for t in lessons.TUTORIALS.values() if t.game == game)
    with translation.override("en"):
        url = reverse(f"tutorial_step_{game}", kwargs={"slug": tutorial.slug, "step": 2})
        present = reverse("tutorial_present", kwargs={"game": game, "slug": tutorial.slug, "step": 2})
        html = client.get(url).content.decode()
    assert f'id="tutorial-present" href="{present}"' in html
    # the link of earlier versions of the page still leads there
    response = client.get(url + "?go=present")
    assert response.status_code == 302 and response["Location"] == present
    assert client.get(present).status_code == 200
