"""Table URLs under the language prefix; the stream and ``/t/<code>/`` are in
``root_urls.py``, outside it (``/live/`` is what the load balancer sends to ASGI)."""

from django.urls import path
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from games.registry import GAMES

from . import class_views, views

_base = _("tables/")
urlpatterns = [
    path(format_lazy("{}{}", _base, _("join/")), views.join, name="tables_join"),
    path(format_lazy("{}<slug:code>/", _base), views.table, name="tables_table"),
    path(format_lazy("{}<slug:code>/now/", _base), views.now, name="tables_now"),
    path(format_lazy("{}<slug:code>/sit/", _base), views.sit, name="tables_sit"),
    path(format_lazy("{}<slug:code>/move/", _base), views.move, name="tables_move"),
    path(format_lazy("{}<slug:code>/step/", _base), views.step, name="tables_step"),
    path(format_lazy("{}<slug:code>/start/", _base), views.start, name="tables_start"),
    path(format_lazy("{}<slug:code>/next/", _base), views.next_deal, name="tables_next"),
    path(format_lazy("{}<slug:code>/leave/", _base), views.leave, name="tables_leave"),
    path(format_lazy("{}<slug:code>/back/", _base), views.back, name="tables_back"),
]
# A live session's class tables and its summary live under the session's address (the names
# keep the ``live_`` prefix the live classroom's pages link to).
urlpatterns += [
    path("live/<slug:code>/tables/", class_views.tables, name="live_class_tables"),
    path("live/<slug:code>/tables/split/", class_views.split, name="live_class_split"),
    path("live/<slug:code>/tables/results.csv", class_views.tables_csv,
         name="live_class_csv"),
    path("live/<slug:code>/my-table/", class_views.seat, name="live_class_seat"),
    path("live/<slug:code>/summary/", class_views.summary, name="live_summary"),
    path("live/<slug:code>/summary.csv", class_views.summary_csv, name="live_summary_csv"),
]
for _entry in GAMES:
    urlpatterns.append(path(format_lazy("{}{}{}", _entry.segment, _("practice/"), _("friends/")),
                            views.new, {"game": _entry.key}, name=f"tables_{_entry.key}_new"))
