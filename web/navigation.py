"""The main navigation: URL names with their labels, in menu order.

Later features add their entry here; the header shows an entry only when its URL exists.
"""

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games import registry


def nav_items() -> list[tuple[str, Promise]]:
    """The menu: home, each game's rules (from the registry, read at each call so the menu
    follows the registry), then the site's sections."""
    return [
        ("home", _("Home")),
        *((f"rules_{game.key}", game.menu_label) for game in registry.GAMES),
        ("tutorials", _("Learn")),
        ("practice", _("Practise")),
        ("puzzles", _("Puzzles")),
        ("scenarios_new", _("Teach")),
        ("faq", _("Questions")),
        ("glossary", _("Glossary")),
        ("cards", _("Cards")),
    ]
