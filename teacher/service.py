"""Teacher scenarios: building a deal, recording moves, narration, import and presenting.

A teacher scenario is a ``dam-scenario/1`` object (shared/scenario-format.md) kept in
``TeacherScenario.data``.  The engine judges every move: the editor offers what
``legal_actions()`` gives, and a typed move the engine refuses is explained with
``games.reasons.reason_text``.  Nothing here knows a rule of any game.

The deal is edited as *slots*: ``hand:<seat>``, ``row:<seat>``, ``secret:<seat>``, ``stock``,
``turned`` and ``discard`` (which ones exist depends on the game and its options).  The deal
can change only while no step is recorded (a step is judged against the deal).
"""

from __future__ import annotations

import base64
import json
import random
import secrets
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import replay as stored
from games.adapters import ADAPTERS, Slot, adapter
from games.reasons import reason_text
from games.scenario_messages import scenario_problem
from practice import service as practice_service
from reference.variants import OPTION_LABELS, form_value, value_label
from rules.engine import cards as C
from rules.engine import scenario
from rules.engine.errors import IllegalAction, ScenarioError
from rules.engine.games import game_module
from rules.engine.options import build_options, option_choices
from web.errors import Refusal

from .models import TeacherScenario

MAX_UPLOAD_BYTES = 256 * 1024
MAX_STEPS = 200  # with four narration fields each, under Django's 1000-field limit
MAX_SAY = 2000
MAX_TITLE = 120
MAX_MOVE = 200
SESSION_KEY = "teacher_scenarios"
MAX_SESSION_CODES = 200
LANGUAGES = scenario.LANGUAGES
LANGUAGE_LABELS = {"sv": gettext_lazy("Swedish"), "fi": gettext_lazy("Finnish"),
                   "nb": gettext_lazy("Norwegian Bokmål"), "en": gettext_lazy("English")}
DEFAULT_PLAYERS = {g: list(a.teacher_players) for g, a in ADAPTERS.items()}




def check_text(text: str) -> str:
    """``text`` itself; Refusal when it holds a control character (NUL and the like:
    ``scenario.CONTROL``), which no one types and PostgreSQL cannot store."""
    char = scenario.control_character(text)
    if char:
        raise Refusal(scenario_problem("control_character", {"char": char}))
    return text


def without_controls(text: str) -> str:
    """``text`` with its control characters left out, for showing it back in a form."""
    return scenario.CONTROL.sub("", text)


# --------------------------------------------------------------------------- codes, rights
def new_code() -> str:
    """A short unguessable share code: 64 random bits in lower-case base32 (13 characters)."""
    while True:
        code = base64.b32encode(secrets.token_bytes(8)).decode().rstrip("=").lower()
        if not TeacherScenario.objects.filter(code=code).exists():
            return code


def remember(session, code: str) -> None:
    codes = [c for c in session.get(SESSION_KEY, []) if c != code]
    session[SESSION_KEY] = ([code] + codes)[:MAX_SESSION_CODES]


def can_edit(session, obj: TeacherScenario) -> bool:
    return obj.code in session.get(SESSION_KEY, [])


def grant_with_token(session, obj: TeacherScenario, token: str) -> bool:
    # compare_digest takes str only when it is ASCII: compare UTF-8 bytes, so "?key=ä" is
    # just a wrong key.
    if token and secrets.compare_digest(token.encode("utf-8", "replace"),
                                        obj.edit_token.encode("utf-8")):
        remember(session, obj.code)
        return True
    return False


def mine(session) -> list[TeacherScenario]:
    codes = session.get(SESSION_KEY, [])
    return list(TeacherScenario.objects.filter(code__in=codes[:50]))


def create(session, data: dict[str, Any], title: str = "") -> TeacherScenario:
    check_text(title)
    obj = TeacherScenario.objects.create(code=new_code(), edit_token=secrets.token_urlsafe(24),
                                         title=title[:MAX_TITLE], data=data)
    remember(session, obj.code)
    return obj


# --------------------------------------------------------------------------- new scenarios
def presets(game: str) -> list[str]:
    return list(game_module(game).PRESETS)


def blank(game: str, preset: str, players: list[str]) -> dict[str, Any]:
    """A new scenario with an empty deal; raises Refusal for a bad choice."""
    if game not in ADAPTERS:
        raise Refusal(_("Choose one of the games."))
    for name in players:
        check_text(name)
    module = game_module(game)
    if preset not in module.PRESETS:
        raise Refusal(_("Choose one of the rule sets."))
    data: dict[str, Any] = {"format": scenario.FORMAT, "game": game, "rules": {"preset": preset},
            "players": players, "dealer": players[-1] if players else "", "seed": 1,
            "deal": adapter(game).empty_deal(players), "steps": []}
    try:
        scn = scenario.parse(data)
    except ScenarioError:
        lo, hi = module.player_range(build_options(module.Options, module.PRESETS,
                                                   module.DEFAULT_PRESET, {"preset": preset}))
        raise Refusal(_("Give %(lo)d to %(hi)d different player names, without spaces.") % {
            "lo": lo, "hi": hi}) from None
    adapter(game).fit_deal(data["deal"], scn.options)
    # A new scenario starts from a complete deal the rules would make, every card written
    # out (the teacher changes what the lesson needs; "Clear the deal" empties it).
    fill_random(data)
    return data


def parse_players(text: str) -> list[str]:
    return [p for p in text.replace(",", " ").split() if p][:10]


# --------------------------------------------------------------------------- rules
def _same(a: Any, b: Any) -> bool:
    return a == b and type(a) is type(b)


def rule_fields(data: dict[str, Any]) -> dict[str, Any]:
    """The scenario's rule set and every single option, for the editor's rules form."""
    module = game_module(data["game"])
    current = _options(data)
    preset = (data.get("rules") or {}).get("preset", module.DEFAULT_PRESET)
    fields = []
    for name, choices in option_choices(module.Options).items():
        value = getattr(current, name)
        fields.append({"name": name, "label": OPTION_LABELS.get(name, name),
                       "choices": [{"value": form_value(c), "label": value_label(c),
                                    "selected": _same(c, value)} for c in choices]})
    return {"preset": preset, "presets": list(module.PRESETS), "fields": fields}


def option_names(data: dict[str, Any]) -> list[str]:
    """The options of the scenario's game (the fields of the rules form)."""
    return list(option_choices(game_module(data["game"]).Options))


def set_rules(data: dict[str, Any], preset: str, raw: dict[str, str]) -> None:
    """A preset plus the options that differ from it; the deal keeps its cards."""
    _no_steps(data)
    module = game_module(data["game"])
    if preset not in module.PRESETS:
        raise Refusal(_("Choose one of the rule sets."))
    base = build_options(module.Options, module.PRESETS, module.DEFAULT_PRESET,
                         {"preset": preset})
    rules: dict[str, Any] = {"preset": preset}
    for name, choices in option_choices(module.Options).items():
        if name not in raw:
            continue
        match = [c for c in choices if form_value(c) == raw[name]]
        if not match:
            raise Refusal(_("That form could not be read."))
        if not _same(match[0], getattr(base, name)):
            rules[name] = match[0]
    options = build_options(module.Options, module.PRESETS, module.DEFAULT_PRESET, rules)
    lo, hi = module.player_range(options)
    if not lo <= len(data["players"]) <= hi:
        raise Refusal(_("These rules need %(lo)d to %(hi)d players.") % {"lo": lo, "hi": hi})
    data["rules"] = rules
    deal = dict(data.get("deal") or {})
    adapter(data["game"]).fit_deal(deal, options)
    data["deal"] = deal


# --------------------------------------------------------------------------- deal slots
def _options(data: dict[str, Any]):
    module = game_module(data["game"])
    return build_options(module.Options, module.PRESETS, module.DEFAULT_PRESET, data.get("rules"))


def slots(data: dict[str, Any]) -> list[Slot]:
    """The places of the deal the editor fills (the game's adapter knows them)."""
    return adapter(data["game"]).slots(data.get("deal") or {}, data["players"], _options(data))


def _write_slots(data: dict[str, Any], filled: list[Slot]) -> None:
    deal = dict(data.get("deal") or {})
    adapter(data["game"]).write_slots(deal, data["players"], {s.key: s.cards for s in filled})
    data["deal"] = deal


def _named_cards(deal: Any) -> set[str]:
    """Every card code a scenario ``deal`` names, wherever it lies."""
    if isinstance(deal, str):
        return {deal}
    if isinstance(deal, dict):
        return set().union(*(_named_cards(v) for v in deal.values())) if deal else set()
    if isinstance(deal, list):
        return set().union(*(_named_cards(v) for v in deal)) if deal else set()
    return set()  # numbers: a deal number, scores


def parse_cards(words: list[str]) -> list[str]:
    """Card codes as typed or ticked -> canonical codes; raises Refusal."""
    out: list[str] = []
    for w in words[:60]:
        try:
            code = C.code(C.parse(w))
        except (C.CardError, ValueError, KeyError, IndexError, AttributeError):
            raise Refusal(_("“%(word)s” is not a card. Write cards like 5C, TD or 10H.") % {
                "word": w[:10]}) from None
        if code not in out:
            out.append(code)
    return out


def _no_steps(data: dict[str, Any]) -> None:
    if data.get("steps"):
        raise Refusal(_("Moves are recorded, so the deal cannot change. Undo the moves "
                             "first."), status=409)


def assign(data: dict[str, Any], cards: list[str], target: str) -> None:
    """Move ``cards`` into slot ``target`` ("" = back to the deck)."""
    _no_steps(data)
    current = slots(data)
    keys = {s.key for s in current}
    if target and target not in keys:
        raise Refusal(_("Choose where the cards should go."))
    if not cards:
        raise Refusal(_("Choose some cards first, or type their codes."))
    for s in current:
        s.cards = [c for c in s.cards if c not in cards]
    for s in current:
        if s.key == target:
            if s.single and len(cards) != 1:
                raise Refusal(_("Only one card can go there."))
            s.cards = list(cards) if s.single else s.cards + cards
    _write_slots(data, current)


def clear_deal(data: dict[str, Any]) -> None:
    _no_steps(data)
    current = slots(data)
    for s in current:
        s.cards = []
    _write_slots(data, current)


def fill_random(data: dict[str, Any]) -> None:
    """Fill every hand, row and secret card up to a full deal with cards nobody was given."""
    _no_steps(data)
    seed = secrets.randbits(31)
    probe = {**data, "deal": None, "steps": [], "seed": seed}
    try:
        scn = scenario.parse(probe)
        dealt = scn.initial_state()
    except ScenarioError as exc:
        raise Refusal(_("The deal could not be completed: %(problem)s") % {
            "problem": scenario_problem(exc.code, exc.params, data.get("game"))}) from None
    full = adapter(data["game"]).explicit_deal(dealt)
    sizes: dict[str, int] = {}
    names = data["players"]
    for key, per in (("hands", "hand"), ("rows", "row")):
        for name, cards in (full.get(key) or {}).items():
            sizes[f"{per}:{names.index(name)}"] = len(cards)
    for name in full.get("secret") or {}:
        sizes[f"secret:{names.index(name)}"] = 1
    # The cards of this deal: the whole deck, or fewer where the rules remove some (S-S1).
    deck = _named_cards({k: v for k, v in full.items() if k != "scores"})
    current = slots(data)
    used = {c for s in current for c in s.cards}
    rest = sorted(deck - used)
    random.Random(seed).shuffle(rest)
    for s in current:
        while len(s.cards) < sizes.get(s.key, 0) and rest:
            s.cards.append(rest.pop())
    # The cards still nobody's go under the stock as written, so the deal names every card
    # (the handout and the editor show the stock as it will be drawn).
    for s in current:
        if s.key == "stock":
            s.cards.extend(rest)
            rest = []
    _write_slots(data, current)


def deal_problem(data: dict[str, Any]) -> str:
    """Why the deal cannot start a game ("" when it can), in the page language: the engine
    refuses it, or a player's hand (row) is empty, which the engine would fill from the
    stock for some players only."""
    try:
        scenario.parse({**data, "steps": []}).initial_state()
    except ScenarioError as exc:
        return scenario_problem(exc.code, exc.params, data.get("game"))
    empty = [s.label for s in slots(data) if s.required and not s.cards]
    if empty:
        return _("%(places)s: no cards yet. Give every player cards, or press “Deal the rest "
                 "at random”.") % {"places": ", ".join(empty)}
    return ""


# --------------------------------------------------------------------------- replaying
def title_of(obj: TeacherScenario) -> str:
    """The scenario's title, or a name made from its code when it has none."""
    return obj.title or _("Scenario %(code)s") % {"code": obj.code}


def legal_moves(scn: scenario.Scenario, state: Any) -> list[dict[str, str]]:
    """The moves the engine allows now, as notation plus a label in the page language."""
    if state.over:
        return []
    game = adapter(scn.game)
    out = []
    for a in state.legal_actions():
        name = scn.players[game.seat(a)]
        out.append({"move": f"{name} {scn.module.format_action(a)}",
                    "label": _("%(name)s: %(move)s") % {
                        "name": name, "move": game.describe(a, scn.players)}})
    return out


def _current(data: dict[str, Any]):
    rp = stored.replay(data)
    if rp is None or (not data.get("steps") and deal_problem(data)):
        raise Refusal(_("The deal is not complete yet: finish it before recording "
                             "moves.")) from None
    return rp.scn, rp.frames[-1].state


def _judge(data: dict[str, Any], move: str) -> tuple[str, tuple[int, ...], str]:
    """The reason code (cards concerned, and what is wrong with a ``bad_move``) the engine
    refuses ``move`` with, or ("", (), "") when it is legal."""
    move = " ".join(check_text(move).split())
    if not move or len(move) > MAX_MOVE:
        raise Refusal(_("Type a move like “Anna attack 5C 9C”."))
    scn, state = _current(data)
    try:
        scenario.apply_move(scn.module, state, scn.players, move)
    except IllegalAction as exc:
        return exc.reason, tuple(exc.cards), exc.why
    return "", (), ""


def record(data: dict[str, Any], move: str) -> None:
    """Append a legal move; raises Refusal with the translated reason otherwise."""
    if len(data.get("steps", [])) >= MAX_STEPS:
        raise Refusal(_("A scenario can hold at most %(n)d steps.") % {"n": MAX_STEPS})
    reason, cards, why = _judge(data, move)
    if reason:
        raise Refusal(_("Refused: %(reason)s") % {
            "reason": reason_text(reason, cards, data["game"], why)}, status=200)
    data.setdefault("steps", []).append({"do": " ".join(move.split())})


def record_refused(data: dict[str, Any], move: str) -> str:
    """Append a move the engine refuses as an ``illegal`` demonstration step."""
    if len(data.get("steps", [])) >= MAX_STEPS:
        raise Refusal(_("A scenario can hold at most %(n)d steps.") % {"n": MAX_STEPS})
    reason, _cards, _why = _judge(data, move)
    if not reason:
        raise Refusal(_("That move is allowed, so it cannot be shown as a refused one."),
                           status=200)
    data.setdefault("steps", []).append({"illegal": " ".join(move.split()), "reason": reason})
    return reason


def undo(data: dict[str, Any]) -> None:
    if not data.get("steps"):
        raise Refusal(_("There is no step to undo."), status=409)
    data["steps"].pop()


def set_narration(data: dict[str, Any], texts: dict[tuple[int, str], str]) -> None:
    steps = data.get("steps", [])
    for (n, lang), text in texts.items():
        if not 1 <= n <= len(steps) or lang not in LANGUAGES:
            continue
        text = check_text(text).strip()[:MAX_SAY]
        say = dict(steps[n - 1].get("say") or {})
        if text:
            say[lang] = text
        else:
            say.pop(lang, None)
        if say:
            steps[n - 1]["say"] = say
        else:
            steps[n - 1].pop("say", None)


# --------------------------------------------------------------------------- import
def problems_in(text: bytes | str) -> list[str]:
    """Every fault of an uploaded file, each a translated sentence with its step number."""
    if len(text) > MAX_UPLOAD_BYTES:
        return [too_big()]
    try:
        data = scenario.decode(text)
    except ScenarioError:  # check_text below reports it
        data = None
    game = data.get("game") if isinstance(data, dict) else None
    found = [problem_text(p, game) for p in scenario.check_text(text)]
    if not found and isinstance(data, dict) and len(data.get("steps", [])) > MAX_STEPS:
        return [_("A scenario can hold at most %(n)d steps.") % {"n": MAX_STEPS}]
    if not found and isinstance(data, dict):
        for n, step in enumerate(data.get("steps", []), start=1):
            if any(len(v) > MAX_SAY for v in (step.get("say") or {}).values()):
                found.append(_("Step %(n)d: %(problem)s") % {"n": n, "problem": _(
                    "The narration is longer than %(max)d characters.") % {"max": MAX_SAY}})
    return found


def problem_text(p: scenario.Problem, game: str | None = None) -> str:
    # ``game`` is the file's own value, which may be any JSON (a list is no key of ADAPTERS).
    problem = scenario_problem(p.code, p.params,
                               game if isinstance(game, str) and game in ADAPTERS else None)
    if p.step == 0:
        return _("File or deal: %(problem)s") % {"problem": problem}
    return _("Step %(n)d: %(problem)s") % {"n": p.step, "problem": problem}


def too_big() -> str:
    return _("The file is larger than %(kb)d KB. Nothing was saved.") % {
        "kb": MAX_UPLOAD_BYTES // 1024}


def import_text(session, text: bytes | str, title: str = "") -> TeacherScenario:
    found = problems_in(text)
    if not found:
        try:
            check_text(title)
        except Refusal as exc:
            found = [exc.message]
    if found:
        raise ImportProblems(found)
    data = scenario.loads(text).to_dict()
    # The file's own title unless the form gives one; the record keeps it beside the data.
    file_title = data.pop("title", "")
    return create(session, data, title.strip() or file_title)


class ImportProblems(Exception):
    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


def export_data(obj: TeacherScenario) -> dict[str, Any]:
    """The scenario as a file: its data with the title (import reads it back)."""
    data = {k: v for k, v in obj.data.items() if k != "title"}
    if obj.title:
        data = {"format": data.get("format"), "game": data.get("game"), "title": obj.title,
                **data}
    return data


def export_json(obj: TeacherScenario) -> str:
    return json.dumps(export_data(obj), ensure_ascii=False, indent=2) + "\n"


# --------------------------------------------------------------------------- practice games
def _you_words() -> set[str]:
    """The practice form's default player name ("You") in every language of the site."""
    words = set()
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            words.add(str(_("You")))
    return words


def _named_learner(data: dict[str, Any], human: str) -> dict[str, Any]:
    """A practice game whose player kept the default name "You" is presented to a class with
    that seat called "Player" (in the page language), so the narration says "Player takes"
    rather than "You takes".  The default name is never a card code or a number, so every
    whole word equal to it in the file (names, dict keys, move words) is the player."""
    if human not in _you_words():
        return data
    taken = set(data["players"])
    new = str(_("Player"))
    n = 2
    while new in taken:
        new, n = f"{_('Player')}{n}", n + 1

    def rename(value: Any) -> Any:
        if isinstance(value, dict):
            return {(new if k == human else k): rename(v) for k, v in value.items()}
        if isinstance(value, list):
            return [rename(v) for v in value]
        if isinstance(value, str):
            return " ".join(new if w == human else w for w in value.split(" "))
        return value

    return rename(data)


def from_practice(session, record: Any) -> TeacherScenario:
    """A saved scenario from a finished practice game (through the practice export)."""
    if record.result is None:
        raise Refusal(_("Only a finished game can be presented: its hands are secret "
                             "until the deal is over."), status=409)
    data = _named_learner(practice_service.export(record), record.names[record.human_seat])
    try:  # a game stored before names were checked may hold a control character
        broken = bool(scenario.check(scenario.parse(data)))
    except ScenarioError:
        broken = True
    if broken:
        raise Refusal(_("This practice game could not be replayed, so it cannot be "
                             "presented."), status=409)
    return create(session, data)
