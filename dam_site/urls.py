from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path
from django.utils.translation import gettext_lazy as _

from live import stream as live_stream
from live import views as live_views
from tables import stream as table_stream
from tables import views as table_views
from web import views

urlpatterns = [
    path("", views.root_redirect, name="root"),
    path("admin/", admin.site.urls),
    path("preferences/deck/", views.deck_preference, name="deck_preference"),
    path("healthz/", views.healthz, name="healthz"),
    path("favicon.ico", views.favicon, name="favicon"),
    # The live classroom: the short address on the projector, and the event streams, which
    # production serves from the ASGI process (README, "Production").
    path("j/", live_views.short, name="live_short_blank"),
    path("j/<slug:code>/", live_views.short, name="live_short"),
    # A table with friends: the QR code's short address, and the table's stream.
    path("t/<slug:code>/", table_views.short, name="tables_short"),
    path("live/table/<slug:code>/<slug:lang>/", table_stream.table_stream,
         name="tables_stream"),
    path("live/<slug:code>/<slug:lang>/", live_stream.follow_stream, name="live_stream"),
    path("live/<slug:code>/<slug:lang>/teacher/", live_stream.teacher_stream,
         name="live_stream_teacher"),
]
urlpatterns += i18n_patterns(
    path("", views.home, name="home"),
    path(_("cards/"), views.deck, name="cards"),
    path("", include("rules.urls")),
    path("", include("tutorials.urls")),
    path("", include("practice.urls")),
    path("", include("teacher.urls")),
    path("", include("live.urls")),
    path("", include("tables.urls")),
    path("", include("puzzles.urls")),
    prefix_default_language=True,
)

# 404 in the site's layout (its language links lead home); 500 is Django's own handler, which
# renders templates/500.html with no request and no context processors.
handler404 = "web.views.page_not_found"
