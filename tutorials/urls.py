"""Tutorial URLs (per language prefix).

``/tutorials/`` (translated slug) is the overview; ``/<game>/tutorials/`` a game's index and
``/<game>/tutorials/<slug>/<step>/`` one step, with ``…/<step>/move/`` for "your move" POSTs.
The game segments are the registry's (games/registry.py).
"""

from django.urls import path
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

import tutorials.converters  # noqa: F401  (the <lesson:…> part of tutorial addresses)
from games.registry import GAMES

from . import views

urlpatterns = [
    path(_("tutorials/"), views.overview, name="tutorials"),
    path(format_lazy("{}{}", _("tutorials/"), _("reset/")), views.reset_progress,
         name="tutorials_reset"),
]

for _entry in GAMES:
    _game, _segment = _entry.key, _entry.segment
    _base = format_lazy("{}{}", _segment, _("tutorials/"))
    _kw = {"game": _game}
    urlpatterns += [
        path(_base, views.game_index, _kw, name=f"tutorials_{_game}"),
        path(format_lazy("{}<lesson:slug>/", _base), views.start, _kw, name=f"tutorial_{_game}"),
        path(format_lazy("{}<lesson:slug>/<int:step>/", _base), views.step, _kw,
             name=f"tutorial_step_{_game}"),
        path(format_lazy("{}<lesson:slug>/<int:step>/move/", _base), views.move, _kw,
             name=f"tutorial_move_{_game}"),
    ]
