"""Live classroom URLs under the language prefix (the streams and ``/j/`` are in
``root_urls.py``, outside it: ``/live/`` is what the load balancer sends to ASGI)."""

from django.urls import path

from . import views

urlpatterns = [
    path("live/start/", views.start, name="live_start"),
    path("live/join/", views.join, name="live_join"),
    path("live/<slug:code>/", views.follow, name="live_follow"),
    path("live/<slug:code>/now/", views.now, name="live_now"),
    path("live/<slug:code>/answer/", views.answer, name="live_answer"),
    path("live/<slug:code>/projector/", views.projector, name="live_projector"),
    path("live/<slug:code>/control/", views.control, name="live_control"),
]
