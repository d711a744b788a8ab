from django.urls import path
from django.utils.translation import gettext_lazy as _

from . import views

urlpatterns = [
    path("dam/", views.rules_page, {"game": "dam"}, name="rules_dam"),
    path(_("dam-with-hidden-cards/"), views.rules_page, {"game": "dolda"}, name="rules_dolda"),
    path("spardame/", views.rules_page, {"game": "spardame"}, name="rules_spardame"),
    path(_("dam/variants/"), views.variants, {"game": "dam"}, name="variants_dam"),
    path(_("dam-with-hidden-cards/variants/"), views.variants, {"game": "dolda"},
         name="variants_dolda"),
    path(_("spardame/variants/"), views.variants, {"game": "spardame"}, name="variants_spardame"),
    path(_("faq/"), views.faq, name="faq"),
    path(_("glossary/"), views.glossary, name="glossary"),
]
