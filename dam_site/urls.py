from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include
from django.utils.translation import gettext_lazy as _

from web import views
from web.routes import path

urlpatterns = [
    path("", views.root_redirect, name="root"),
    path("admin/", admin.site.urls),
    path("preferences/deck/", views.deck_preference, name="deck_preference"),
    path("healthz/", views.healthz, name="healthz"),
    path("favicon.ico", views.favicon, name="favicon"),
    # Outside the language prefix: the short addresses of QR codes and the event streams.
    path("", include("tables.root_urls")),
    path("", include("live.root_urls")),
]
urlpatterns += i18n_patterns(
    path("", views.home, name="home"),
    path(_("cards/"), views.deck, name="cards"),
    path("", include("reference.urls")),
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
