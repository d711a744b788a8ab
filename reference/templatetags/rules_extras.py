from django import template

from reference import variants

register = template.Library()


@register.filter
def get_item(mapping: dict, key):
    """``mapping[key]`` in a template, or None when the key is missing."""
    return mapping.get(key) if mapping else None


@register.filter
def option_label(option: str) -> str:
    """An option key as its translated name (reference.variants.OPTION_LABELS)."""
    return variants.option_label(option)


@register.filter
def preset_label(preset: str, game: str) -> str:
    """A rule set's slug as its translated name: ``{{ slug|preset_label:game }}``."""
    return variants.preset_label(game, preset)
