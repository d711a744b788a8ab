"""Puzzle URLs (per language prefix): ``/puzzles/`` (translated slug) the sets,
``/puzzles/next/<set>/`` the next puzzle of a set, ``/puzzles/<id>/`` a puzzle and
``…/answer/`` its answer."""

from django.urls import include
from django.utils.translation import gettext_lazy as _

from web.routes import path

from . import views

urlpatterns = [
    path(_("puzzles/"), include([
        path("", views.overview, name="puzzles"),
        path("next/<str:set_code>/", views.next_puzzle, name="puzzles_next"),
        path("reset/", views.reset, name="puzzles_reset"),
        path("<slug:pid>/", views.puzzle_page, name="puzzle"),
        path("<slug:pid>/answer/", views.answer, name="puzzle_answer"),
    ])),
]
