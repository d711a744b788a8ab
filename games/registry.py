"""The one list of the games the site offers, with what the pages need to know of each that is
data rather than behaviour: its title, its address, its rule sets' names, the number of
players its statistics are simulated for, the coach's work per decision and its floor for a
mistake.  URLs, model
choices, menus, lessons, simulations and templates loop over ``GAMES``; behaviour (tables,
moves, narration, hints) is the game's adapter (``games.adapters``); the rules are the engine's.

Adding a game adds one entry here (see docs/adding-a-game.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from rules.engine import cards

if TYPE_CHECKING:
    from django.utils.functional import _StrPromise

    type StrOrPromise = str | _StrPromise


@dataclass(frozen=True)
class Game:
    key: str  # the engine's name of the game (scenario files, records, URL names)
    title: Promise  # the game's name on every page (one msgid)
    # The address segment, translated where it is a description rather than a name.
    segment: StrOrPromise
    # The game's entry in the site's menu (short: the menu has room for little).
    menu_label: Promise
    # The rule sets' names by their slug (the slugs stay in URLs and files, never in text).
    preset_labels: Mapping[str, Promise] = field(default_factory=dict)
    # A card under the name this game gives it (the queen of spades).
    card_names: Mapping[int, Promise] = field(default_factory=dict)
    # A place of a scenario file's deal under this game's own word, where it has one (the
    # discard pile of Dam med dolda kort is a "slänghög" in Swedish, Dam's a "kasthög").
    place_names: Mapping[str, Promise] = field(default_factory=dict)
    # The table size the variant pages' statistics are simulated for.
    simulated_players: int = 4
    # The coach's one analysis of a decision (a hint, and the review of that decision): at most
    # this many playouts (rules/engine/bots/coach.py stops earlier once one move is clearly
    # ahead), sized so that a hint's 95th percentile stays under 150 ms of CPU
    # (bench/coach.py prints it).
    analysis_playouts: int = 176
    # A move is called a mistake only when the better move's advantage exceeds this (in the
    # game's unit: its bot module's value) and its 95% interval excludes zero; the analysis
    # also stops when every move left is within half of it of the best (coach.SETTLE).
    mistake_floor: float = 0.5
    # Puzzle generation (puzzles/generate.py): the table it plays its deals at (the usual
    # game), and the most puzzles one deal may give (variety).
    puzzle_players: int = 3
    puzzles_per_deal: int = 3


DAM = Game(
    "dam", _("Dam (Svarta Maja)"), "dam/", pgettext_lazy("menu: the attack game", "Dam"),
    preset_labels={
        "svarta-maja": pgettext_lazy("rule set", "Svarta Maja (Swedish rules)"),
        "musta-maija": pgettext_lazy("rule set", "Musta Maija (Finnish rules)"),
        "kolme-korttia": pgettext_lazy("rule set", "Three cards"),
        "aldre-svensk": pgettext_lazy("rule set", "Older Swedish rules"),
        "fast-trumf": pgettext_lazy("rule set", "Fixed trump"),
    },
    card_names={cards.QUEEN_OF_SPADES: pgettext_lazy("card in the game Dam",
                                                     "queen of spades (Svarta Maja)")},
    # Dam's unit is the chance of losing the deal: 2 percentage points.
    mistake_floor=0.02,
    # The compiled engine plays a Dam playout about twice as fast as Python: the cap went from
    # 144 to 480 (agreement with the reference 0.453 -> 0.550, the old hint's; hint CPU p95
    # 143 ms on a quiet machine).  Twin beats raced once: over three seeds 0.538 -> 0.549
    # (the old hint's 0.546), on 300 other positions 0.502 (0.517).  On a machine slower
    # than that one the CPU budget (practice.service.ANALYSIS_CPU_SECONDS) ends the race first.
    # The bots of a playout sharing one generator made a playout 8% cheaper: 480 -> 520, the
    # same CPU at the cap (agreement with the site's budget over 600 positions 0.527 -> 0.530,
    # the old hint's 0.532; hint CPU p95 140 ms).
    analysis_playouts=520,
    puzzles_per_deal=4,
)
DOLDA = Game(
    "dolda", _("Dam med dolda kort"), _("dam-with-hidden-cards/"), _("Hidden cards"),
    preset_labels={
        "dolda-kort": pgettext_lazy("rule set", "Basic game"),
        "sju-kort": pgettext_lazy("rule set", "Seven cards in the row"),
        "hemligt-kort": pgettext_lazy("rule set", "With a secret card"),
        "avancerad": pgettext_lazy("rule set", "Advanced game"),
        "avancerad-max-5": pgettext_lazy("rule set",
                                         "Advanced game, special cards at most 5 points"),
    },
    # A playout costs about twice a Dam one (the policy weighs the whole row at every move),
    # and most choices are two-way: fewer playouts agreed with the reference nearly as often.
    # Compiled, 96 -> 280 (agreement 0.923 -> 0.937, hint CPU p95 100 ms); more playouts
    # agreed no more often (360 and 440: 0.937) while the race settled at the whole floor.
    # Then the card values worked out once per rules instead of once per playout, and the
    # bots' narrower view (a playout 1.7x cheaper), and a race that settles at half the
    # floor: 280 -> 480 (agreement over three seeds 0.931 -> 0.938, the old hint's 0.946;
    # over 600 positions 0.939 against 0.938; hint CPU p95 102 ms on a machine where 280 took
    # 57).
    analysis_playouts=480,
    puzzles_per_deal=2,
    place_names={"discard": pgettext_lazy("place in a deal of Dam med dolda kort",
                                          "the discard pile")},
)
SPARDAME = Game(
    "spardame", _("Spardame"), "spardame/", pgettext_lazy("menu: the trick-taking game",
                                                          "Spardame"),
    preset_labels={
        "standard": pgettext_lazy("rule set", "Standard rules"),
        "husregler": pgettext_lazy("rule set", "House rules"),
    },
    card_names={cards.QUEEN_OF_SPADES: pgettext_lazy("card in the game Spardame",
                                                     "queen of spades (the Black Maria)")},
    # Playouts became 1.7x cheaper when the bots read only their part of the view: the cap
    # went from 176 to 400 within the same 150 ms (agreement with the reference 0.820 -> 0.843).
    # Compiled, 1.6x faster (its bots' view is most of a move): 400 -> 640 (agreement 0.843
    # -> 0.863, hint CPU p95 127 ms).  Then resampling without a JSON round trip, a narrower
    # bots' view, interchangeable cards raced once and a race that settles at half the floor:
    # 640 -> 720 (agreement over three seeds 0.869 -> 0.888, the old hint's 0.881; over 600
    # positions 0.862 against 0.865; hint CPU p95 104 ms on a machine where Dam's took 101).
    analysis_playouts=720,
    puzzle_players=4,
)

GAMES: tuple[Game, ...] = (DAM, DOLDA, SPARDAME)
BY_KEY: dict[str, Game] = {g.key: g for g in GAMES}
KEYS: tuple[str, ...] = tuple(BY_KEY)
GAME_TITLES: dict[str, Promise] = {g.key: g.title for g in GAMES}


def get(key: str) -> Game:
    """The game ``key``; KeyError for a name that is not a game."""
    return BY_KEY[key]


def choices() -> list[tuple[str, Promise]]:
    """The games as a model field's or a form's choices."""
    return [(g.key, g.title) for g in GAMES]
