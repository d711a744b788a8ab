"""Site-wide template context: language alternates of the current page and the navigation."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from django.urls import NoReverseMatch, reverse, translate_url
from django.utils.translation import get_language

from .navigation import NAV_ITEMS


# Each language named in itself, as the switcher shows it.
LANGUAGE_NAMES = {"sv": "Svenska", "fi": "Suomi", "nb": "Norsk bokmål", "en": "English"}


def site(request: HttpRequest) -> dict:
    current = get_language()
    path = request.path
    alternates = []
    for code, _name in settings.LANGUAGES:
        url = translate_url(path, code)
        alternates.append({
            "code": code,
            "name": LANGUAGE_NAMES[code],
            "url": request.build_absolute_uri(url),
            "current": code == current,
        })
    nav = []
    for url_name, label in NAV_ITEMS:
        try:
            url = reverse(url_name)
        except NoReverseMatch:  # only pages that exist are offered
            continue
        current_page = path == url if url_name == "home" else path.startswith(url)
        nav.append({"url": url, "label": label, "current": current_page})
    return {
        "language_alternates": alternates,
        "alternate_default": request.build_absolute_uri("/"),
        "nav_items": nav,
    }
