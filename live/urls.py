"""Live classroom URLs under the language prefix (the streams and ``/j/`` are in
``root_urls.py``, outside it: ``/live/`` is what the load balancer sends to ASGI)."""

from django.urls import include

from web.routes import path

from . import views

# Under one prefix (and a session's under its code), so resolving an address compares a few
# prefixes rather than every pattern in turn.
urlpatterns = [
    path("live/", include([
        path("start/", views.start, name="live_start"),
        path("join/", views.join, name="live_join"),
        path("<slug:code>/", include([
            path("", views.follow, name="live_follow"),
            path("now/", views.now, name="live_now"),
            path("answer/", views.answer, name="live_answer"),
            path("projector/", views.projector, name="live_projector"),
            path("control/", views.control, name="live_control"),
        ])),
    ])),
]
