"""Dam med dolda kort: swap cards into a face-down row for the lowest score."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any, ClassVar

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

from games import table_parts as parts
from games.coach_reasons import dolda as coach
from games.reasons import reason_text
from rules.engine import cards as C
from rules.engine import dolda as engine
from rules.engine.bots import dolda as bots
from rules.engine.match import Standing

from .base import (
    Figure,
    GameAdapter,
    Slot,
    discard_slot,
    said,
    scores_text,
    stock_slot,
    who,
    write_common,
)

# The Swedish seed of this game has its own word for the pile (slänghögen, not Dam's kasthög).
DISCARD_PILE = pgettext_lazy("Dam med dolda kort", "Discard pile")
JACK_ITSELF = gettext_lazy("This is the jack itself: lay it on another card of your row.")


class DoldaAdapter(GameAdapter):
    name = "dolda"
    engine: ClassVar[ModuleType] = engine
    bots: ClassVar[dict[str, type[Any]]] = {"easy": bots.RandomBot, "normal": bots.HeuristicBot}
    choice_kinds = ("shield", "steal")
    picks_from_hand = False  # moves are buttons and positions: there is no hand
    default_players = 4
    memory_aid = True  # H-T5: rows seen once are face down again
    blurb = gettext_lazy("Swap cards into your face-down row for the lowest score. A match is "
                         "one deal per player.")

    # ------------------------------------------------------------------ deals and series
    def explicit_deal(self, state: Any) -> dict[str, Any]:
        j = state.to_json()
        names = j["names"]
        deal: dict[str, Any] = {"rows": {names[s]: C.codes(r) for s, r in enumerate(j["rows"])},
                                "stock": C.codes(j["stock"])}
        if j["secret"] is not None:
            deal["secret"] = {names[s]: C.code(c) for s, c in enumerate(j["secret"])}
        return deal

    def summary_title(self, standing: Standing, options: Any) -> str:
        return _("Match totals (one deal per player, %(n)s deals)") % {
            "n": standing.deals_in_match}

    # ------------------------------------------------------------------ moves
    def kind(self, action: Any) -> str:
        return str(action.kind)

    def seat(self, action: Any) -> int:
        return int(action.seat)

    def describe(self, action: Any, names: Sequence[str]) -> str:
        if action.kind == "draw":
            return str(_("Draw from the stock.") if action.source == "stock"
                       else _("Take the top card of the discard pile."))
        if action.kind == "swap":
            return _("Swap the card you hold into your row.")
        if action.kind == "discard":
            return _("Discard the card you hold.")
        if action.kind == "shield":
            shielded = [p + 1 for p in action.positions]  # one or two positions
            if len(shielded) == 1:
                return _("Shield position %(n)d.") % {"n": shielded[0]}
            return _("Shield positions %(n)d and %(m)d.") % {"n": shielded[0], "m": shielded[1]}
        n, m = action.positions
        return _("Lay your thief on position %(n)d and steal %(victim)s's position %(m)d.") % {
            "n": n + 1, "victim": action.victim_name, "m": m + 1}

    def pile_tap(self, action: Any) -> str | None:
        if action.kind == "draw":
            return str(action.source)  # "stock" or "discard": tap the pile to draw from it
        return {"discard": "discard", "swap": "next"}.get(action.kind)

    def move_cards(self, view: Mapping[str, Any], action: Any) -> tuple[int, ...]:
        """A draw from the pile: its top card; a swap: the row card the held card replaces; a
        discard: the held card; a shield or a thief: the row cards it lies on or takes (a draw
        from the stock uses no card the table shows)."""
        rows = view["rows"]
        seat = action.seat
        if action.kind == "draw":
            cards = [view["discard_top"]] if action.source == "discard" else []
        elif action.kind == "swap":
            pos = view["next_position"]
            cards = [rows[seat][pos - 1]] if pos is not None and pos <= len(rows[seat]) else []
        elif action.kind == "discard":
            cards = [view["held"]]
        elif action.kind == "shield":
            cards = [rows[seat][p] for p in action.positions]
        else:
            n, m = action.positions
            cards = [rows[seat][n], rows[action.victim][m]]
        return tuple(c for c in cards if c is not None)

    def idle_own_reason(self, view: Mapping[str, Any], seat: int) -> str:
        """A place of the player's row that is not the next one (H-T3: swaps go left to
        right)."""
        if view["holder"] == seat and view["next_position"]:
            return _("Swaps go into your row from left to right: the next place is place "
                     "%(n)d.") % {"n": view["next_position"]}
        return ""

    def form_fields(self, action: Any) -> dict[str, Any]:
        if action.kind == "draw":
            return {"move": "draw", "source": action.source}
        if action.kind == "shield":
            return {"move": "shield", "position": [str(p + 1) for p in action.positions]}
        if action.kind == "steal":
            n, m = action.positions
            return {"move": "steal", "position": [str(n + 1)],
                    "target": f"{action.victim_name}:{m + 1}"}
        return {"move": action.kind}

    def move_words(self, move: str, data: Mapping[str, Any]) -> list[str]:
        if move == "draw":
            return [move, data["source"].strip().lower()[:10]]
        if move == "shield":
            return [move, *(p[:2] for p in data["position"])]
        if move == "steal":
            # One position of one's own row, then "victim:position".
            own = data["position"][-1][:2] if data["position"] else ""
            victim, _sep, pos = data["target"].strip().partition(":")
            return [move, own, victim[:30], pos[:2]]
        return [move]

    def choice_context(self, legal: Sequence[Any], view: Mapping[str, Any], seat: int,
                       kinds: Sequence[str]) -> dict[str, Any]:
        """A jack's move is chosen on the table: the cards of the player's own row to lay the
        jack on (checkboxes named "position", at most two for a shield), and for a thief the
        card to steal in another row (radios named "target"); every card no legal move uses
        is dimmed with the engine's reason (H-V4)."""
        if not kinds:
            return {}
        names = view["names"]
        rows = view["rows"]
        own = {p for a in legal for p in a.positions[:1 if a.kind == "steal" else 2]}
        most = 2 if "shield" in kinds else 1
        picks: dict[tuple[int, int], dict[str, Any]] = {}
        for p in range(len(rows[seat])):
            picks[(seat, p + 1)] = {
                "name": "position", "value": str(p + 1), "max": most,
                "type": "checkbox" if most > 1 else "radio",
                "label": _("position %(n)d of your row") % {"n": p + 1},
                "why": "" if p in own else str(JACK_ITSELF)}
        if "steal" in kinds:
            targets = {(a.victim, a.positions[1]) for a in legal if a.kind == "steal"}
            for v, row in enumerate(rows):
                if v == seat:
                    continue
                for m in range(len(row)):
                    why = ""
                    if (v, m) not in targets:
                        code = ("target_shielded" if row[m] in view["shielded"]
                                else "victim_already_robbed")
                        why = reason_text(code, (), self.name)
                    picks[(v, m + 1)] = {
                        "name": "target", "value": f"{names[v]}:{m + 1}", "type": "radio",
                        "label": _("%(name)s's position %(n)d") % {"name": names[v], "n": m + 1},
                        "why": why}
        return {"slot_picks": picks, "choice_help": str(
            _("Tap the card of your row to lay the thief on, then the card to steal from "
              "another player's row, then press Steal. Dimmed cards cannot be chosen: focus "
              "or hover over one to see why.") if "steal" in kinds else
            _("Tap one or two cards of your row for the shield to cover, then press Shield. "
              "The jack itself is dimmed."))}

    def public_view(self, state: Any) -> dict[str, Any]:
        """Rows face down until they are turned up (what a seat remembers of them is its
        own), nobody's secret card, no held card."""
        view = super().public_view(state)
        if not view["rows_face_up"]:
            view["rows"] = [[None] * len(r) for r in view["rows"]]
        if view["secret"] is not None:
            view["secret"] = [None] * len(view["secret"])
        view["held"] = None
        return view

    def page_view(self, view: dict[str, Any], memory_aid: bool) -> dict[str, Any]:
        if not memory_aid and not view["rows_face_up"]:
            # Strict mode (H-T5): the page does not remind the player of cards seen in rows.
            return dict(view, rows=[[None] * len(r) for r in view["rows"]])
        return view

    def open_view(self, state: Any, viewer: int
                  ) -> tuple[dict[str, Any], dict[int, list[int]], int | None]:
        """Every card open: the rows, the secret cards and the held card face up; no private
        event marks a card (a drawn card is shown where it lies)."""
        view = state.view(viewer)
        record = state.to_json()
        open_view = dict(view)
        open_view["rows"] = [list(r) for r in record["rows"]]
        if view.get("secret") is not None and record.get("secret") is not None:
            open_view["secret"] = list(record["secret"])
        if view.get("holder") is not None and record.get("held") is not None:
            open_view["held"] = record["held"]
        return open_view, {}, None

    # ------------------------------------------------------------------ narration
    def narrate_event(self, e: Mapping[str, Any], names: Sequence[str],
                      seat: int | None, you: int | None = None) -> str | None:
        t = e.get("type")
        w = who(names, e.get("seat"))
        me = you is not None and e.get("seat") == you
        if t == "draw":
            if e["source"] == "discard":
                return said(me, _("%(who)s takes %(card)s from the discard pile."),
                            _("You take %(card)s from the discard pile."),
                            who=w, card=self.card(e["card"]))
            if "card" in e:
                return said(me, _("%(who)s draws %(card)s from the stock."),
                            _("You draw %(card)s from the stock."),
                            who=w, card=self.card(e["card"]))
            return said(me, _("%(who)s draws from the stock."), _("You draw from the stock."),
                        who=w)
        if t == "swap":
            if "card_out" in e:
                return said(me, _("%(who)s swaps it into position %(n)d and takes out %(card)s."),
                            _("You swap it into position %(n)d and take out %(card)s."),
                            who=w, n=e["position"], card=self.card(e["card_out"]))
            return said(me, _("%(who)s swaps it into position %(n)d."),
                        _("You swap it into position %(n)d."), who=w, n=e["position"])
        if t == "discard":
            return said(me, _("%(who)s discards %(card)s."), _("You discard %(card)s."),
                        who=w, card=self.card(e["card"]))
        if t == "deal_over":
            return _("The stock is empty: the rows are turned up.")
        if t == "shield":
            shielded = list(e["positions"])  # one or two positions, 1-based
            if len(shielded) == 1:
                return said(me, _("%(who)s shields position %(n)d."),
                            _("You shield position %(n)d."), who=w, n=shielded[0])
            return said(me, _("%(who)s shields positions %(n)d and %(m)d."),
                        _("You shield positions %(n)d and %(m)d."),
                        who=w, n=shielded[0], m=shielded[1])
        if t == "steal":
            if e.get("victim") is None:
                return said(me, _("%(who)s's thief finds nothing to steal."),
                            _("Your thief finds nothing to steal."), who=w)
            card = self.card(e["taken"])
            if you is not None and e["victim"] == you:
                return _("%(who)s steals %(card)s from you.") % {"who": w, "card": card}
            return said(me, _("%(who)s steals %(card)s from %(victim)s."),
                        _("You steal %(card)s from %(victim)s."),
                        who=w, card=card, victim=who(names, e["victim"]))
        if t == "scored":
            return _("Scores of this deal: %(scores)s.") % {
                "scores": scores_text(names, e["scores"])}
        return None

    # ------------------------------------------------------------------ hints
    coach_reasons = coach.REASONS
    puzzle_goal = "lowest_score"
    puzzle_themes = {
        "stock_only": "discard_pile", "take_discard": "discard_pile",
        "leave_discard": "discard_pile", "discard_known": "discard_pile",
        "discard_unknown": "discard_pile",
        "crosswise": "swap_chain", "swap_known": "swap_chain", "swap_unknown": "swap_chain",
        "shield_lowest": "thief_shield", "steal_best": "thief_shield",
        "steals_lowest": "thief_shield", "gives_highest": "thief_shield",
    }
    # A thief may take any unshielded card of the other rows for any of its owner's: far
    # more than a puzzle measures, so a steal is a multiple choice.
    puzzle_choice_kinds = frozenset({"steal"})

    def puzzle_policy(self, policy: Any, themes: frozenset[str]) -> Any:
        # The bots rid their rows of jacks (eleven points each), so in their deals hardly a
        # thief or a shield is left to act (none in 30 deals of "avancerad"): a run after
        # that theme plays deals where every seat keeps the jacks it meets.
        return KeepJacks(policy) if "thief_shield" in themes else policy

    # ------------------------------------------------------------------ teacher's editor
    def empty_deal(self, players: Sequence[str]) -> dict[str, Any]:
        return {"rows": {p: [] for p in players}, "stock": []}

    def slots(self, deal: Mapping[str, Any], players: Sequence[str], options: Any) -> list[Slot]:
        rows = deal.get("rows") or {}
        out = [Slot(f"row:{i}", _("%(name)s's row (left to right)") % {"name": p},
                    list(rows.get(p, [])), required=True) for i, p in enumerate(players)]
        if options.secret_card:
            secret = deal.get("secret") or {}
            out += [Slot(f"secret:{i}", _("%(name)s's secret card") % {"name": p},
                         [secret[p]] if secret.get(p) else [], single=True)
                    for i, p in enumerate(players)]
        return [*out, stock_slot(deal), discard_slot(deal, str(DISCARD_PILE))]

    def write_slots(self, deal: dict[str, Any], players: Sequence[str],
                    by_key: Mapping[str, list[str]]) -> None:
        deal["rows"] = {p: by_key.get(f"row:{i}", []) for i, p in enumerate(players)}
        if any(k.startswith("secret:") for k in by_key):
            deal["secret"] = {p: by_key[f"secret:{i}"][0] for i, p in enumerate(players)
                              if by_key.get(f"secret:{i}")}
        write_common(deal, by_key)

    def fit_deal(self, deal: dict[str, Any], options: Any) -> None:
        if options.secret_card:
            deal.setdefault("secret", {})
        else:
            deal.pop("secret", None)

    # ------------------------------------------------------------------ statistics
    def add_statistics(self, sums: Any, deal: Any) -> None:
        scored = next(e for e in deal.events if e["type"] == "scored")
        winners = set(scored["winners"])
        # Seat 1 sits at the dealer's left and draws first (H-T1); the last seat deals.
        for seat in range(len(deal.result)):
            sums.add(f"win_seat_{seat + 1}", seat in winners)
        sums.add("tie", len(winners) > 1)
        sums.add("turns", sum(1 for e in deal.events if e["type"] == "draw"))
        if deal.options.thieves_and_shields:
            sums.add("steal", any(e["type"] == "steal" and e.get("victim") is not None
                                  for e in deal.events))
            # The winners by the rows as they were turned up, before any thief or shield.
            revealed = next(e["rows"] for e in deal.events if e["type"] == "rows_revealed")
            row_v, secret_v = engine.value_tables(deal.options)
            before = [sum(row_v[c] for c in row) for row in revealed]
            if scored["secret"] is not None:
                before = [b + secret_v[c] for b, c in zip(before, scored["secret"])]
            best = min(before)
            sums.add("thief_changes_winner",
                     {s for s, b in enumerate(before) if b == best} != winners)

    def statistics_figures(self) -> list[Figure]:
        return [
            Figure("win_seat", gettext_lazy("How often each seat wins the deal"), by_seat=True,
                   note=gettext_lazy("Seats are counted clockwise from the dealer's left: seat "
                                     "1 draws first, the last seat is the dealer. A shared "
                                     "lowest score counts as a win for each player who has "
                                     "it.")),
            Figure("tie", gettext_lazy("How often two or more players share the lowest score")),
            Figure("turns", gettext_lazy("Turns in a deal"), unit="count",
                   note=gettext_lazy("A turn is one card drawn, from the stock or the discard "
                                     "pile.")),
            Figure("steal", gettext_lazy("How often a thief steals a card"),
                   note=gettext_lazy("Only the rule sets with thieves and shields.")),
            Figure("thief_changes_winner",
                   gettext_lazy("How often thieves and shields change who wins the deal"),
                   note=gettext_lazy("Compared with the scores of the rows as they were turned "
                                     "up. Only the rule sets with thieves and shields.")),
        ]

    # ------------------------------------------------------------------ the table
    def table(self, view: Mapping[str, Any], shown: Mapping[int, list[int]],
              marks: frozenset[int], selectable: bool, selected: frozenset[int],
              you: int | None = None) -> dict[str, Any]:
        """Keys: ``seats`` (name, is_viewer, to_move, row: ``[{"position", "heard" (its name
        for screen readers), "card" or None, "crosswise", "shielded", "next"}]`` left to right, ``secret`` (``{"card" or None}`` or
        None), score, winner), ``holder`` (name or None), ``held`` (card or None: a back when the
        viewer may not see it), ``stock_count``, ``discard_top``, ``discard_count``,
        ``rows_face_up``, ``jack``, ``phase``, ``over``.  ``selectable`` has no hand to pick from
        in this game (moves are buttons)."""
        game = self.name
        names = view["names"]
        swappable = view["swappable"]
        shielded = set(view["shielded"])
        scores = view["scores"]
        best = min(scores) if scores else None
        # Each place's name for screen readers, told once per position rather than once per
        # seat in the template (the same words for every row).
        heard = [(_("position %(n)s, crosswise") if p >= swappable else _("position %(n)s"))
                 % {"n": p + 1} for p in range(max(map(len, view["rows"]), default=0))]
        seats = []
        for s, name in enumerate(names):
            row = []
            for p, c in enumerate(view["rows"][s]):
                row.append({
                    "position": p + 1, "heard": heard[p],
                    "card": parts.card_item(c, game, marks) if c is not None else None,
                    "crosswise": p >= swappable,
                    "shielded": c is not None and c in shielded,
                    "next": view["holder"] == s and view["next_position"] == p + 1,
                    # Set by the practice page's jack moves (games.table); present so that
                    # drawing a slot never looks a missing key up (a failed lookup costs
                    # Django's template engine an exception and a dir() of the dict).
                    "pick": None,
                })
            secret = None
            if view["secret"] is not None:
                sc = view["secret"][s]
                secret = {"card": parts.card_item(sc, game, marks) if sc is not None else None}
            seats.append({
                "seat": s, "name": name, "is_viewer": s == view["seat"],
                "row_label": pgettext("the reader's own row on the card table", "Your row") if s == you else _("%(name)s's row") % {"name": name},
                "to_move": s == view["to_move"], "row": row, "secret": secret,
                "score": scores[s] if scores else None,
                "winner": scores is not None and scores[s] == best,
            })
        holder = view["holder"]
        held = view["held"]
        return {
            "seats": seats,
            "holder": names[holder] if holder is not None else None,
            "held": parts.card_item(held, game, marks) if held is not None else None,
            "stock_count": view["stock_count"], "discard_count": view["discard_count"],
            "discard_top": parts.card_item(view["discard_top"], game, marks)
            if view["discard_top"] is not None else None,
            "rows_face_up": view["rows_face_up"],
            "jack": parts.card_item(view["jack"], game, marks) if view["jack"] is not None else None,
            "phase": view["phase"], "over": view["over"],
        }


def _jack(card: int) -> bool:
    return card >= 0 and card % 13 + 2 == C.JACK


class KeepJacks:
    """A player for finding thief and shield puzzles: ``inner``'s moves, except that it swaps
    a held jack into its row and keeps a jack lying at the chain's place.  Only the deals leading to the puzzles are played so; the puzzles'
    measurements play on with the strong bot's own policy."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def act(self, state: Any, seat: int) -> Any:
        legal = {a.kind: a for a in state.legal_actions()}
        if "swap" in legal and _jack(state.held):
            return legal["swap"]
        row = state.rows[seat]
        # Every other turn only: kept always, a jack at the chain's first place can make the
        # seats pass the same cards round the discard pile for ever.
        if "discard" in legal and not _jack(state.held) and state.pos < len(row) \
                and _jack(row[state.pos]) and state.turn % 2 == 0:
            return legal["discard"]
        return self.inner.act(state, seat)
