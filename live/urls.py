"""Live classroom URLs under the language prefix (the streams and ``/j/`` are in
``root_urls.py``, outside it: ``/live/`` is what the load balancer sends to ASGI)."""

from django.urls import path

from . import class_views, views

urlpatterns = [
    path("live/start/", views.start, name="live_start"),
    path("live/join/", views.join, name="live_join"),
    path("live/<slug:code>/", views.follow, name="live_follow"),
    path("live/<slug:code>/now/", views.now, name="live_now"),
    path("live/<slug:code>/answer/", views.answer, name="live_answer"),
    path("live/<slug:code>/projector/", views.projector, name="live_projector"),
    path("live/<slug:code>/control/", views.control, name="live_control"),
    path("live/<slug:code>/tables/", class_views.tables, name="live_class_tables"),
    path("live/<slug:code>/tables/split/", class_views.split, name="live_class_split"),
    path("live/<slug:code>/tables/results.csv", class_views.tables_csv,
         name="live_class_csv"),
    path("live/<slug:code>/my-table/", class_views.seat, name="live_class_seat"),
    path("live/<slug:code>/summary/", class_views.summary, name="live_summary"),
    path("live/<slug:code>/summary.csv", class_views.summary_csv, name="live_summary_csv"),
]
