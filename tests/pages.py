"""Every page of the site that takes no argument, found from the URL configuration."""

from django.urls import URLPattern, URLResolver, get_resolver


def page_names() -> list[str]:
    names = []
    for entry in get_resolver().url_patterns:
        if isinstance(entry, URLResolver) and entry.pattern.__class__.__name__ == "LocalePrefixPattern":
            for pattern in entry.url_patterns:
                if isinstance(pattern, URLPattern) and pattern.name and not pattern.pattern.converters \
                        and "<" not in str(pattern.pattern):
                    names.append(pattern.name)
    return names


LANGUAGES = ["sv", "fi", "nb", "en"]
