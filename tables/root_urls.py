"""Table URLs outside the language prefix: the QR code's short address and the table's
stream (under ``/live/``, which production sends to the ASGI process)."""

from django.urls import path

from . import class_views, stream, views

urlpatterns = [
    path("t/<slug:code>/", views.short, name="tables_short"),
    path("live/table/<slug:code>/<slug:lang>/", stream.table_stream, name="tables_stream"),
    # The teacher's view of a live session's class tables' progress (no card in it).
    path("live/<slug:code>/<slug:lang>/tables/", class_views.stream, name="live_class_stream"),
]
