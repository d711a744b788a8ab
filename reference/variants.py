"""What the variant pages compare: option labels, the sources' readings, the statistics shown."""

from __future__ import annotations

import dataclasses

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games import registry
from rules.engine.games import game_module
from rules.engine.options import build_options

OPTION_LABELS = {
    "hand_size": _("Cards in hand"),
    "max_players_8": _("Up to eight players"),
    "trump": _("How trump is chosen"),
    "spades_can_be_trump": _("Spades can be trump"),
    "fixed_trump_suit": _("Fixed trump suit"),
    "initial_trump": _("Trump before any announcement"),
    "marriage_can_change": _("A later marriage changes trump"),
    "attack_cap": _("Most cards in one attack"),
    "endgame_overplay": _("Attacking with more cards than the defender holds, once the stock is empty"),
    "extra_attack": _("Extra attack after refilling"),
    "row_size": _("Cards in a row"),
    "secret_card": _("Secret card"),
    "special_cards": _("Ten and king of hearts score minus points"),
    "thieves_and_shields": _("Thieves and shields"),
    "cap_special_at_5": _("Special cards score at most 5"),
    "no_points_first_trick": _("No point cards on the first trick"),
    "qs_breaks_hearts": _("The queen of spades breaks hearts"),
    "high_values": _("Hearts 10 points, queen of spades 100"),
    "moon": _("Shooting the moon"),
    "moon_fixed_26": _("The moon gives the others 26 each"),
    "limit": _("Point limit"),
}

def preset_label(game: str, preset: str) -> str:
    """The rule set's name in the current language (the slug itself if it has none)."""
    label = registry.BY_KEY[game].preset_labels.get(preset) if game in registry.BY_KEY else None
    return str(label) if label is not None else preset


def option_label(option: str) -> str:
    """The option's name in the current language (the key itself if it has none)."""
    label = OPTION_LABELS.get(option)
    return str(label) if label is not None else option


VALUE_LABELS = {
    True: pgettext_lazy("option value", "yes"),
    False: pgettext_lazy("option value", "no"),
    None: pgettext_lazy("option value", "none"),
    "turned": pgettext_lazy("option value", "turned up after the first attack"),
    "fixed": pgettext_lazy("option value", "fixed"),
    "marriage": pgettext_lazy("option value", "announced king and queen"),
    "forbidden": pgettext_lazy("option value", "not allowed"),
    "penalty": pgettext_lazy("option value", "allowed but punished"),
    "C": pgettext_lazy("suit", "clubs"),
    "D": pgettext_lazy("suit", "diamonds"),
    "H": pgettext_lazy("suit", "hearts"),
    "S": pgettext_lazy("suit", "spades"),
}

# The one address the source texts give (the Swedish description names pagat.com).
PAGAT = "https://www.pagat.com/"

# Where a source states nothing the cell stays empty; a dash would suggest "no".  ``texts``
# names the source texts by what they are (never by their file names), with a link where the
# texts give an address.
SOURCES = {
    "dam": {
        "columns": [{"name": _("Swedish Wikipedia")},
                    {"name": _("pagat.com (Mustamaija)"), "url": PAGAT},
                    {"name": _("Finnish description")}, {"name": _("Older Swedish description")}],
        "texts": [
            {"name": _("a Swedish description of Svarta Maja, which cites Swedish Wikipedia and "
                       "pagat.com")},
            {"name": _("a Finnish description of Musta Maija")},
            {"name": _("the older Swedish description of Dam")},
        ],
        "rows": [
            (_("Players"), ["2–8", "2–6", "", ""]),
            (_("Cards in hand"), ["6", _("5 (also 3)"), _("5; variants with 6 and 3"), "6"]),
            (_("Trump"), ["", _("turned up after the first attack; never spades"),
                          _("turned up after the first attack and put under the stock; never spades"),
                          _("set by the first player to show king and queen of a suit")]),
            (_("Limit on an attack while the stock lasts"), ["", "", _("five cards, if agreed"), ""]),
            (_("Once the stock is empty"), [_("no more cards than the defender holds"),
                                            _("no more cards than the defender holds"),
                                            _("no more cards than the defender holds"),
                                            _("hand sizes hidden; an overplay hands the defender's cards to the attacker")]),
            (_("Extra attack"), ["", "", _("variant: yes, unless the defender slaps the cards"), ""]),
        ],
    },
    "dolda": {
        "columns": [{"name": _("Swedish Wikipedia")}],
        "texts": [{"name": _("a Swedish description of Dam med dolda kort, after Swedish "
                             "Wikipedia")}],
        "rows": [
            (_("Cards in a row"), [_("6, the last crosswise; variant with 7")]),
            (_("Secret card"), [_("variant: four hidden cards and a secret card held to the forehead")]),
            (_("Special cards"), [_("variant: ten of hearts −1, king of hearts −2")]),
            (_("Thieves and shields"), [_("variant: black jacks steal, red jacks protect")]),
            (_("Cap of five points"), [_("variant, for secret and special cards")]),
        ],
    },
    "spardame": {
        "columns": [{"name": _("Norwegian description")}],
        "texts": [{"name": _("a Norwegian description of Spardame")}],
        "rows": [
            (_("Players"), [_("3–6; twos removed so the hands are equal")]),
            (_("Passing"), [_("three cards: left, right, across, then none")]),
            (_("Points"), [_("hearts 1, queen of spades 13; house rule 10 and 100")]),
            (_("Point limit"), [_("100 or 500")]),
            (_("Shooting the moon"), [_("the others usually get 26 each")]),
            (_("First trick"), [_("house rule: no hearts or queen of spades")]),
        ],
    },
}


def form_value(value) -> str:
    """An option value as a form field sends it (the practice and teacher rule forms)."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def value_label(value) -> str:
    # Only real booleans are "yes"/"no": 1 == True and 0 == False would find them as dict keys.
    if isinstance(value, bool) or value is None or (isinstance(value, str) and value in VALUE_LABELS):
        return str(VALUE_LABELS[value])
    return str(value)


def preset_table(game: str) -> dict:
    """Options by preset, each cell marked when it differs from the game's default preset."""
    module = game_module(game)
    presets = list(module.PRESETS)
    built = {p: build_options(module.Options, module.PRESETS, module.DEFAULT_PRESET, {"preset": p})
             for p in presets}
    default = built[module.DEFAULT_PRESET]
    rows = []
    for f in dataclasses.fields(module.Options):
        cells = []
        for p in presets:
            value = getattr(built[p], f.name)
            cells.append({"text": value_label(value), "differs": value != getattr(default, f.name)})
        rows.append({"option": f.name, "label": OPTION_LABELS[f.name], "cells": cells,
                     "varies": any(c["differs"] for c in cells)})
    return {"presets": presets, "default": module.DEFAULT_PRESET, "rows": rows}
