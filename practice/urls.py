"""Practice-mode URLs (per language prefix).

``/practice/`` (translated slug) lists the games; ``/<game>/practice/`` is a game's new-game
form and ``/<game>/practice/<uuid>/`` the game, with its POST endpoints below it;
``…/<uuid>/review/<n>/`` is the review's position after move n of a finished deal.  The game
segments are the registry's (games/registry.py).
"""

from django.urls import include
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from games.registry import GAMES
from web.routes import path

from . import views

urlpatterns = [
    path(_("practice/"), views.overview, name="practice"),
    path(format_lazy("{}{}", _("practice/"), _("bot-pace/")), views.pace, name="practice_pace"),
]

# Each game's addresses sit under one prefix (and a game's under its id), so resolving an
# address compares a few prefixes rather than every pattern of every game in turn.
for _entry in GAMES:
    _game = _entry.key
    _kw = {"game": _game}
    _one = [
        path("", views.play, _kw, name=f"practice_{_game}_play"),
        path("move/", views.move, _kw, name=f"practice_{_game}_move"),
        path("step/", views.step, _kw, name=f"practice_{_game}_step"),
        path("undo/", views.undo, _kw, name=f"practice_{_game}_undo"),
        path("next/", views.next_deal, _kw, name=f"practice_{_game}_next"),
        path("share/", views.share, _kw, name=f"practice_{_game}_share"),
        path(_("log/"), views.log, _kw, name=f"practice_{_game}_log"),
        path("export/", views.export, _kw, name=f"practice_{_game}_export"),
        path(_("review/"), views.review, _kw, name=f"practice_{_game}_review"),
        path(format_lazy("{}<int:step>/", _("review/")), views.review_at, _kw,
             name=f"practice_{_game}_review_step"),
        path(_("puzzle/"), views.puzzle, _kw, name=f"practice_{_game}_puzzle"),
    ]
    urlpatterns.append(path(format_lazy("{}{}", _entry.segment, _("practice/")), include([
        path("", views.new_game, _kw, name=f"practice_{_game}"),
        path("<uuid:game_id>/", include(_one)),
        path(format_lazy("{}<uuid:token>/", _("replay/")), views.replay, _kw,
             name=f"practice_{_game}_replay"),
    ])))
