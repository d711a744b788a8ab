"""Practice-mode URLs (per language prefix).

``/practice/`` (translated slug) lists the games; ``/<game>/practice/`` is a game's new-game
form and ``/<game>/practice/<uuid>/`` the game, with its POST endpoints below it;
``…/<uuid>/review/<n>/`` is the review's position after move n of a finished deal.  The game
segments are the registry's (games/registry.py).
"""

from django.urls import path
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from games.registry import GAMES

from . import views

urlpatterns = [
    path(_("practice/"), views.overview, name="practice"),
    path(format_lazy("{}{}", _("practice/"), _("bot-pace/")), views.pace, name="practice_pace"),
]

for _entry in GAMES:
    _game, _segment = _entry.key, _entry.segment
    _base = format_lazy("{}{}", _segment, _("practice/"))
    _kw = {"game": _game}
    urlpatterns += [
        path(_base, views.new_game, _kw, name=f"practice_{_game}"),
        path(format_lazy("{}<uuid:game_id>/", _base), views.play, _kw,
             name=f"practice_{_game}_play"),
        path(format_lazy("{}<uuid:game_id>/move/", _base), views.move, _kw,
             name=f"practice_{_game}_move"),
        path(format_lazy("{}<uuid:game_id>/step/", _base), views.step, _kw,
             name=f"practice_{_game}_step"),
        path(format_lazy("{}<uuid:game_id>/undo/", _base), views.undo, _kw,
             name=f"practice_{_game}_undo"),
        path(format_lazy("{}<uuid:game_id>/next/", _base), views.next_deal, _kw,
             name=f"practice_{_game}_next"),
        path(format_lazy("{}<uuid:game_id>/share/", _base), views.share, _kw,
             name=f"practice_{_game}_share"),
        path(format_lazy("{}<uuid:game_id>/{}", _base, _("log/")), views.log, _kw,
             name=f"practice_{_game}_log"),
        path(format_lazy("{}<uuid:game_id>/export/", _base), views.export, _kw,
             name=f"practice_{_game}_export"),
        path(format_lazy("{}<uuid:game_id>/{}", _base, _("review/")), views.review, _kw,
             name=f"practice_{_game}_review"),
        path(format_lazy("{}<uuid:game_id>/{}<int:step>/", _base, _("review/")),
             views.review_at, _kw, name=f"practice_{_game}_review_step"),
        path(format_lazy("{}<uuid:game_id>/{}", _base, _("puzzle/")), views.puzzle, _kw,
             name=f"practice_{_game}_puzzle"),
        path(format_lazy("{}{}<uuid:token>/", _base, _("replay/")), views.replay, _kw,
             name=f"practice_{_game}_replay"),
    ]
