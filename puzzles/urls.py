"""Puzzle URLs (per language prefix): ``/puzzles/`` (translated slug) the sets,
``/puzzles/next/<set>/`` the next puzzle of a set, ``/puzzles/<id>/`` a puzzle and
``…/answer/`` its answer."""

from django.urls import path
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from . import views

_base = _("puzzles/")
urlpatterns = [
    path(_base, views.overview, name="puzzles"),
    path(format_lazy("{}next/<str:set_code>/", _base), views.next_puzzle, name="puzzles_next"),
    path(format_lazy("{}reset/", _base), views.reset, name="puzzles_reset"),
    path(format_lazy("{}<slug:pid>/", _base), views.puzzle_page, name="puzzle"),
    path(format_lazy("{}<slug:pid>/answer/", _base), views.answer, name="puzzle_answer"),
]
