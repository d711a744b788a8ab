from django.urls import include
from django.utils.translation import gettext_lazy as _

from games.registry import GAMES
from web.routes import path

from . import views

urlpatterns = [
    path(_("faq/"), views.faq, name="faq"),
    path(_("glossary/"), views.glossary, name="glossary"),
]
for _game in GAMES:
    urlpatterns.append(path(_game.segment, include([
        path("", views.rules_page, {"game": _game.key}, name=f"rules_{_game.key}"),
        path(_("variants/"), views.variants, {"game": _game.key}, name=f"variants_{_game.key}"),
    ])))
