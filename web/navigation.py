"""The main navigation: URL names with their labels, in menu order.

Later features add their entry here; the header shows an entry only when its URL exists.
"""

from django.utils.translation import gettext_lazy as _

from games.registry import GAMES

NAV_ITEMS = [
    ("home", _("Home")),
    *((f"rules_{game.key}", game.menu_label) for game in GAMES),
    ("tutorials", _("Learn")),
    ("practice", _("Practise")),
    ("scenarios_new", _("Teach")),
    ("faq", _("Questions")),
    ("glossary", _("Glossary")),
    ("cards", _("Cards")),
]
