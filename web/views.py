from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST, require_safe

from rules.engine import cards

from . import pagecache
from .context_processors import LANGUAGE_NAMES


@require_safe
def root_redirect(request: HttpRequest) -> HttpResponse:
    """Send ``/`` to the visitor's language; Swedish when Accept-Language matches none."""
    language = translation.get_language_from_request(request, check_path=False)
    with translation.override(language):
        response = HttpResponseRedirect(reverse("home"))
    response["Vary"] = "Accept-Language, Cookie"
    return response


@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    """A bare "ok" for load balancers, and the baseline the HTTP benchmarks compare with."""
    return HttpResponse("ok", content_type="text/plain")


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """Shipped text and the way in to the lessons: rendered once per process, language and
    state of the tutorials' progress cookies (the "Continue" link; web/pagecache.py)."""
    parts = pagecache.cookies(request, settings.HOME_VARY_COOKIES)
    return pagecache.cached_page(request, "home", parts, lambda holes: render_to_string(
        "home.html", {"queen_of_spades": cards.QUEEN_OF_SPADES, "cards_url": reverse("cards"),
                      **holes}, request=request))


@require_safe
def deck(request: HttpRequest) -> HttpResponse:
    suits = [[cards.make(rank, suit) for rank in range(14, 1, -1)] for suit in range(4)]
    return render(request, "cards.html", {
        "suits": suits,
        "example_hand": ["5C", "9C", "QC", "2H", "7H", "KS"],
        "queen_of_spades": cards.QUEEN_OF_SPADES,
    })


@require_POST
def deck_preference(request: HttpRequest) -> HttpResponse:
    request.session["four_colour"] = request.POST.get("four_colour") == "1"
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                           require_https=request.is_secure()):
        target = reverse("home")
    return HttpResponseRedirect(target)


@require_safe
def favicon(request: HttpRequest) -> HttpResponse:
    """/favicon.ico, asked for by browsers and tools that do not read ``<link rel="icon">``:
    the site's SVG icon (a temporary redirect, so a new icon's hashed name is followed)."""
    response = HttpResponseRedirect(static("favicon.svg"))
    response["Cache-Control"] = "public, max-age=86400"
    return response


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """The 404 page in the site's layout and the address's language; its language links lead
    to the home page in each language (the missing page has no counterpart)."""
    current = translation.get_language()
    alternates = []
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            url = reverse("home")
        alternates.append({"code": code, "name": LANGUAGE_NAMES[code],
                           "url": request.build_absolute_uri(url), "current": code == current})
    return render(request, "404.html", {"language_alternates": alternates}, status=404)
