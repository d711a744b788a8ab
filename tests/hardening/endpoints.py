"""Every endpoint of the URL configuration, with its converters and allowed methods, found by
walking the resolver (new apps and endpoints are picked up without touching these tests)."""

from __future__ import annotations

import inspect
from dataclasses import dataclass

from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import LocalePrefixPattern


@dataclass(frozen=True)
class Endpoint:
    name: str                      # reverse() name, namespaced when included with one
    converters: tuple[tuple[str, str], ...]  # (argument, converter class name)
    methods: tuple[str, ...]       # allowed methods, ("GET", "POST") when unrestricted
    localized: bool                # under the language prefix

    @property
    def id(self) -> str:
        return self.name


def declared_methods(view) -> tuple[str, ...] | None:
    """The methods of require_POST, require_safe and friends (they keep the list in the
    wrapper's closure); None for a view that takes any method."""
    while view is not None:
        try:
            methods = inspect.getclosurevars(view).nonlocals.get("request_method_list")
        except TypeError:
            methods = None
        if methods is not None:
            return tuple(methods)
        view = getattr(view, "__wrapped__", None)
    return None


def allowed_methods(view) -> tuple[str, ...]:
    """The methods worth fuzzing: GET and/or POST among the declared ones."""
    methods = declared_methods(view)
    if methods is None:
        return ("GET", "POST")
    return tuple(m for m in methods if m in ("GET", "POST")) or methods


def _walk(patterns, namespace: str, converters: dict, localized: bool, out: list[Endpoint]):
    for entry in patterns:
        conv = {**converters, **getattr(entry.pattern, "converters", {})}
        if isinstance(entry, URLResolver):
            ns = namespace
            if entry.namespace:
                ns = f"{namespace}{entry.namespace}:"
            _walk(entry.url_patterns, ns, conv,
                  localized or isinstance(entry.pattern, LocalePrefixPattern), out)
        elif isinstance(entry, URLPattern) and entry.name:
            out.append(Endpoint(
                name=namespace + entry.name,
                converters=tuple(sorted((k, type(v).__name__) for k, v in conv.items())),
                methods=allowed_methods(entry.callback), localized=localized))


def endpoints(include_admin: bool = False) -> list[Endpoint]:
    out: list[Endpoint] = []
    _walk(get_resolver().url_patterns, "", {}, False, out)
    seen, unique = set(), []
    for e in out:
        if e.name in seen or (not include_admin and e.name.startswith("admin:")):
            continue
        seen.add(e.name)
        unique.append(e)
    return unique
