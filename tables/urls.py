"""Table URLs under the language prefix; the stream and ``/t/<code>/`` are in
``root_urls.py``, outside it (``/live/`` is what the load balancer sends to ASGI)."""

from django.urls import include
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from games.registry import GAMES
from web.routes import path

from . import class_views, views

# Under one prefix each (and a table's under its code), so resolving an address compares a
# few prefixes rather than every pattern in turn.
urlpatterns = [
    path(_("tables/"), include([
        path(_("join/"), views.join, name="tables_join"),
        path("<slug:code>/", include([
            path("", views.table, name="tables_table"),
            path("now/", views.now, name="tables_now"),
            path("sit/", views.sit, name="tables_sit"),
            path("move/", views.move, name="tables_move"),
            path("step/", views.step, name="tables_step"),
            path("start/", views.start, name="tables_start"),
            path("next/", views.next_deal, name="tables_next"),
            path("leave/", views.leave, name="tables_leave"),
            path("back/", views.back, name="tables_back"),
        ])),
    ])),
    # A live session's class tables and its summary live under the session's address (the
    # names keep the ``live_`` prefix the live classroom's pages link to).
    path("live/<slug:code>/", include([
        path("tables/", class_views.tables, name="live_class_tables"),
        path("tables/split/", class_views.split, name="live_class_split"),
        path("tables/results.csv", class_views.tables_csv, name="live_class_csv"),
        path("my-table/", class_views.seat, name="live_class_seat"),
        path("summary/", class_views.summary, name="live_summary"),
        path("summary.csv", class_views.summary_csv, name="live_summary_csv"),
    ])),
]
for _entry in GAMES:
    urlpatterns.append(path(format_lazy("{}{}{}", _entry.segment, _("practice/"), _("friends/")),
                            views.new, {"game": _entry.key}, name=f"tables_{_entry.key}_new"))
