"""Teacher URLs (per language prefix; slugs translatable).

``/scenarios/new/`` starts or imports a scenario; ``/scenarios/<code>/`` is its share page with
``…/edit/`` (creator only), ``…/present/<step>/``, ``…/print/`` and ``…/export/``.
Tutorials are presented at ``/scenarios/tutorial/<game>/<slug>/present/<step>/``.
"""

from django.urls import include
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

import tutorials.converters  # noqa: F401  (the <lesson:…> part of tutorial addresses)
from web.routes import path

from . import views

# Under one prefix (and a scenario's under its code), so resolving an address compares a few
# prefixes rather than every pattern in turn.
urlpatterns = [
    path(_("scenarios/"), include([
        path(_("new/"), views.new, name="scenarios_new"),
        path(_("create/"), views.create, name="scenarios_create"),
        path(_("import/"), views.import_file, name="scenarios_import"),
        path(_("from-practice/"), views.from_practice, name="scenarios_from_practice"),
        path(format_lazy("{}<str:game>/<lesson:slug>/{}<int:step>/", _("tutorial/"),
                         _("present/")), views.present_tutorial, name="tutorial_present"),
        path("<slug:code>/", include([
            path("", views.detail, name="scenario_detail"),
            path(_("edit/"), include([
                path("", views.edit, name="scenario_edit"),
                path(_("deal/"), views.deal, name="scenario_deal"),
                path(_("rules/"), views.rules, name="scenario_rules"),
                path(_("move/"), views.move, name="scenario_move"),
                path(_("undo/"), views.undo, name="scenario_undo"),
                path(_("save/"), views.save, name="scenario_save"),
            ])),
            path(format_lazy("{}<int:step>/", _("present/")), views.present,
                 name="scenario_present"),
            path(_("print/"), views.print_view, name="scenario_print"),
            path(_("export/"), views.export, name="scenario_export"),
        ])),
    ])),
]
