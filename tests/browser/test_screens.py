"""Every screen fits and every word is right (issue "Every screen fits"): what a learner sees
at 1280×800, on a projector at 1920×1080 and on a 375 px phone, measured in Debian's
Chromium."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 375, "height": 740}


def address(live_server, name: str, language: str = "en", **kwargs) -> str:
    with translation.override(language):
        return live_server.url + reverse(name, **kwargs)


# ---------------------------------------------------------------------- variant charts
CHARTS = """() => {
  const column = document.querySelector('.variants').getBoundingClientRect().width;
  return [...document.querySelectorAll('figure.chart svg')].map(svg => ({
    share: svg.getBoundingClientRect().width / column,
    font: Math.min(...[...svg.querySelectorAll('text')].map(t => parseFloat(getComputedStyle(t).fontSize))),
    shown: svg.getBoundingClientRect().width / (svg.viewBox.baseVal && svg.viewBox.baseVal.width || svg.getBoundingClientRect().width),
  }));
}"""


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["1280", "375"])
def test_variant_charts_fill_the_column_with_readable_words(page, live_server, viewport):
    """They were 360 px pictures with 11 px words (about 200 px wide at 1280)."""
    page.set_viewport_size(viewport)
    page.goto(address(live_server, "variants_dam"))
    charts = page.evaluate(CHARTS)
    assert len(charts) >= 3
    for chart in charts:
        assert chart["share"] > 0.97, chart
        assert chart["font"] * chart["shown"] >= 13, chart  # as drawn, in CSS pixels
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
