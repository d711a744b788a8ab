"""Live classroom URLs outside the language prefix: the short address on the projector
(``/j/``, which picks the visitor's language) and the event streams, which production serves
from the ASGI process (README, "Production")."""

from django.urls import path

from . import stream, views

urlpatterns = [
    path("j/", views.short, name="live_short_blank"),
    path("j/<slug:code>/", views.short, name="live_short"),
    path("live/<slug:code>/<slug:lang>/", stream.follow_stream, name="live_stream"),
    path("live/<slug:code>/<slug:lang>/teacher/", stream.teacher_stream,
         name="live_stream_teacher"),
]
