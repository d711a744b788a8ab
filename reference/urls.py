from django.urls import path
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from games.registry import GAMES

from . import views

urlpatterns = [
    path(_("faq/"), views.faq, name="faq"),
    path(_("glossary/"), views.glossary, name="glossary"),
]
for _game in GAMES:
    urlpatterns += [
        path(_game.segment, views.rules_page, {"game": _game.key}, name=f"rules_{_game.key}"),
        path(format_lazy("{}{}", _game.segment, _("variants/")), views.variants,
             {"game": _game.key}, name=f"variants_{_game.key}"),
    ]
