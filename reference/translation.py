from modeltranslation.translator import TranslationOptions, register

from .models import FaqEntry, GlossaryTerm


@register(FaqEntry)
class FaqEntryTranslation(TranslationOptions):
    fields = ("question", "answer")
    required_languages = ("sv", "fi", "nb", "en")


@register(GlossaryTerm)
class GlossaryTermTranslation(TranslationOptions):
    fields = ("term", "definition")
    required_languages = ("sv", "fi", "nb", "en")
