from django import template

register = template.Library()


@register.filter
def get_item(mapping: dict, key):
    """``mapping[key]`` in a template, or None when the key is missing."""
    return mapping.get(key) if mapping else None
