"""Tutorial URLs (per language prefix).

``/tutorials/`` (translated slug) is the overview; ``/<game>/tutorials/`` a game's index and
``/<game>/tutorials/<slug>/<step>/`` one step, with ``…/<step>/move/`` for "your move" POSTs.
The game segments are the registry's (games/registry.py).
"""

from django.urls import include
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

import tutorials.converters  # noqa: F401  (the <lesson:…> part of tutorial addresses)
from games.registry import GAMES
from web.routes import path

from . import views

urlpatterns = [
    path(_("tutorials/"), views.overview, name="tutorials"),
    path(format_lazy("{}{}", _("tutorials/"), _("reset/")), views.reset_progress,
         name="tutorials_reset"),
]

# Each game's tutorials sit under one prefix, so resolving an address compares a few prefixes
# rather than every pattern of every game in turn.
for _entry in GAMES:
    _game = _entry.key
    _kw = {"game": _game}
    urlpatterns.append(path(format_lazy("{}{}", _entry.segment, _("tutorials/")), include([
        path("", views.game_index, _kw, name=f"tutorials_{_game}"),
        path("<lesson:slug>/", views.start, _kw, name=f"tutorial_{_game}"),
        path("<lesson:slug>/<int:step>/", views.step, _kw, name=f"tutorial_step_{_game}"),
        path("<lesson:slug>/<int:step>/move/", views.move, _kw, name=f"tutorial_move_{_game}"),
    ])))
