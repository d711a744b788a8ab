"""Every page of the site that takes no argument, found from the URL configuration."""

import inspect

from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import LocalePrefixPattern


def _names(patterns, takes_arguments: bool = False) -> list[str]:
    """``takes_arguments``: an enclosing prefix has a converter (``<uuid:game_id>/``)."""
    names = []
    for pattern in patterns:
        own = takes_arguments or "<" in str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            names += _names(pattern.url_patterns, own)
        elif isinstance(pattern, URLPattern) and pattern.name and not own \
                and _accepts_get(pattern.callback):
            names.append(pattern.name)
    return names


def _accepts_get(view) -> bool:
    # require_POST and friends keep the allowed methods in the wrapper's closure.
    while view is not None:
        try:
            methods = inspect.getclosurevars(view).nonlocals.get("request_method_list")
        except TypeError:
            methods = None
        if methods is not None:
            return "GET" in methods
        view = getattr(view, "__wrapped__", None)
    return True


def page_names() -> list[str]:
    """Names of the GET pages under the language prefix (views restricted to POST left out)."""
    for entry in get_resolver().url_patterns:
        if isinstance(entry, URLResolver) and isinstance(entry.pattern, LocalePrefixPattern):
            return _names(entry.url_patterns)
    return []


LANGUAGES = ["sv", "fi", "nb", "en"]
