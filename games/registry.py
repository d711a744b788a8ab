"""The names of the three games as every page shows them (one msgid each)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

GAME_TITLES = {
    "dam": _("Dam (Svarta Maja)"),
    "dolda": _("Dam med dolda kort"),
    "spardame": _("Spardame"),
}
