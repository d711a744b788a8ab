"""Teacher URLs (per language prefix; slugs translatable).

``/scenarios/new/`` starts or imports a scenario; ``/scenarios/<code>/`` is its share page with
``…/edit/`` (creator only), ``…/present/<step>/``, ``…/print/`` and ``…/export/``.
Tutorials are presented at ``/scenarios/tutorial/<game>/<slug>/present/<step>/``.
"""

from django.urls import path
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

import tutorials.converters  # noqa: F401  (the <lesson:…> part of tutorial addresses)

from . import views

_base = _("scenarios/")
_one = format_lazy("{}<slug:code>/", _base)

urlpatterns = [
    path(format_lazy("{}{}", _base, _("new/")), views.new, name="scenarios_new"),
    path(format_lazy("{}{}", _base, _("create/")), views.create, name="scenarios_create"),
    path(format_lazy("{}{}", _base, _("import/")), views.import_file, name="scenarios_import"),
    path(format_lazy("{}{}", _base, _("from-practice/")), views.from_practice,
         name="scenarios_from_practice"),
    path(format_lazy("{}{}<str:game>/<lesson:slug>/{}<int:step>/", _base, _("tutorial/"),
                     _("present/")), views.present_tutorial, name="tutorial_present"),
    path(_one, views.detail, name="scenario_detail"),
    path(format_lazy("{}{}", _one, _("edit/")), views.edit, name="scenario_edit"),
    path(format_lazy("{}{}{}", _one, _("edit/"), _("deal/")), views.deal, name="scenario_deal"),
    path(format_lazy("{}{}{}", _one, _("edit/"), _("rules/")), views.rules, name="scenario_rules"),
    path(format_lazy("{}{}{}", _one, _("edit/"), _("move/")), views.move, name="scenario_move"),
    path(format_lazy("{}{}{}", _one, _("edit/"), _("undo/")), views.undo, name="scenario_undo"),
    path(format_lazy("{}{}{}", _one, _("edit/"), _("save/")), views.save, name="scenario_save"),
    path(format_lazy("{}{}<int:step>/", _one, _("present/")), views.present,
         name="scenario_present"),
    path(format_lazy("{}{}", _one, _("print/")), views.print_view, name="scenario_print"),
    path(format_lazy("{}{}", _one, _("export/")), views.export, name="scenario_export"),
]
