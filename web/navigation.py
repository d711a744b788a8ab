"""The main navigation: URL names with their labels, in menu order.

Later features add their entry here; the header shows an entry only when its URL exists.
"""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

NAV_ITEMS = [
    ("home", _("Home")),
    ("rules_dam", pgettext_lazy("menu: the attack game", "Dam")),
    ("rules_dolda", _("Hidden cards")),
    ("rules_spardame", _("Spardame")),
    ("tutorials", _("Learn")),
    ("practice", _("Practise")),
    ("scenarios_new", _("Teach")),
    ("faq", _("Questions")),
    ("glossary", _("Glossary")),
    ("cards", _("Cards")),
]
