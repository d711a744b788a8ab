"""What htmx answers share across apps.

An htmx answer that moves the browser to another address (``HX-Push-Url``) swaps one region of
the page; the links elsewhere that name the address (the language switcher, the hreflang
alternates, the deck form's return address) are sent with it as out-of-band swaps, so that the
page then equals a fresh load of the new address.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.http import HttpRequest
from django.template.loader import render_to_string
from django_htmx.middleware import HtmxDetails

from .context_processors import address_links


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def address_oob(request: HttpRequest, url: str) -> str:
    """Out-of-band swaps of the address links for the page at ``url`` (a path and query)."""
    return render_to_string("includes/address_oob.html",
                            {**address_links(request, urlsplit(url).path), "page_next": url})
