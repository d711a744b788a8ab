from django.contrib import admin
from modeltranslation.admin import TranslationAdmin

from .models import FaqEntry, GlossaryTerm


@admin.register(FaqEntry)
class FaqEntryAdmin(TranslationAdmin):
    list_display = ("question", "game", "order")
    list_filter = ("game",)
    search_fields = ("question_sv", "question_fi", "question_nb", "question_en")


@admin.register(GlossaryTerm)
class GlossaryTermAdmin(TranslationAdmin):
    list_display = ("term", "game", "order")
    list_filter = ("game",)
    search_fields = ("term_sv", "term_fi", "term_nb", "term_en")
