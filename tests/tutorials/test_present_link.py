import pytest

pytestmark = pytest.mark.django_db
from django.urls import reverse
from django.utils import translation

from tutorials import lessons


@pytest.mark.parametrize("game", ["dam", "dolda", "spardame"])
def test_tutorial_step_links_to_presenter_mode_for_the_same_step(client, game):
    tutorial = next(t for t in lessons.TUTORIALS.values() if t.game == game)
    with translation.override("en"):
        url = reverse(f"tutorial_step_{game}", kwargs={"slug": tutorial.slug, "step": 2})
        present = reverse("tutorial_present", kwargs={"game": game, "slug": tutorial.slug, "step": 2})
        html = client.get(url).content.decode()
    # The link reads the same on every step ("?go=present"): the step sends it to its own
    # presenter page.
    assert 'id="tutorial-present" href="?go=present"' in html
    response = client.get(url + "?go=present")
    assert response.status_code == 302 and response["Location"] == present
    assert client.get(present).status_code == 200
