from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path

from . import views

urlpatterns = [
    path("", views.root_redirect, name="root"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
urlpatterns += i18n_patterns(
    path("", views.home, name="home"),
    prefix_default_language=True,
)
