"""The shared game-table presenter: what it shows, and that it never shows a hidden card."""

import random
import re

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from games.table import table_context
from rules.engine import cards as C
from rules.engine.games import game_module
from rules.engine.options import build_options

CARD_RE = re.compile(r'data-card="([0-9TJQKA][CDHS])"')


def shown_cards(html: str) -> set[int]:
    return {C.parse(c) for c in CARD_RE.findall(html)}


def render(view, **kwargs) -> str:
    with translation.override("en"):
        return render_to_string("games/table.html", {"table": table_context(view, **kwargs)})


def random_positions(game: str, players: int, seed: int, preset: str | None = None,
                     **options):
    """Every position of one random deal."""
    module = game_module(game)
    rules = {"preset": preset, **options} if preset else dict(options)
    options = build_options(module.Options, module.PRESETS, module.DEFAULT_PRESET, rules)
    names = [f"P{i}" for i in range(players)]
    state = module.new_game(options, names, players - 1, seed, None)
    rng = random.Random(seed)
    yield state
    while not state.over:
        state, _events = state.apply(rng.choice(list(state.legal_actions())))
        yield state


def hidden_from(state, seat: int) -> set[int]:
    """Cards that ``seat`` may not see in ``state`` (computed from the full state)."""
    data = state.to_json()
    game = data["game"]
    if game == "dam":
        hidden = {c for s, h in enumerate(data["hands"]) if s != seat for c in h}
        stock = set(data["stock"])
        view = state.view(seat)
        if view["turned_in_stock"]:
            stock.discard(view["turned"])
        return hidden | stock  # discarded cards were seen by everyone when they were played
    if game == "spardame":
        hidden = {c for s, h in enumerate(data["hands"]) if s != seat for c in h}
        if data["phase"] == "pass":  # passed cards lie face down until the exchange
            hidden |= {c for s, ch in enumerate(data["chosen"]) if s != seat and ch for c in ch}
        return hidden - set(data["chosen"][seat] or ())  # a player knows what they passed
    view = state.view(seat)
    hidden = set(data["stock"])
    for owner, row in enumerate(data["rows"]):
        hidden |= {c for c, v in zip(row, view["rows"][owner]) if v is None}
    if data["secret"] is not None and view["secret"][seat] is None:
        hidden.add(data["secret"][seat])
    if data["held"] >= 0 and view["held"] is None:
        hidden.add(data["held"])
    hidden -= set(data["discard"][:1])
    return hidden


@pytest.mark.parametrize("game,players,preset", [
    ("dam", 3, None), ("dam", 4, "aldre-svensk"), ("dolda", 3, None), ("spardame", 4, None),
])
def test_no_hidden_card_is_ever_rendered(game, players, preset):
    for n, state in enumerate(random_positions(game, players, seed=11, preset=preset)):
        if n % 3:
            continue  # every third position keeps the test quick
        for seat in range(players):
            html = render(state.view(seat), selectable=True)
            leaked = shown_cards(html) & hidden_from(state, seat)
            assert not leaked, (n, seat, [C.code(c) for c in leaked])


def test_dam_viewer_hand_is_shown_and_others_are_counts():
    state = next(random_positions("dam", 3, seed=2))
    html = render(state.view(0))
    assert shown_cards(html) == set(state.view(0)["hand"])
    assert html.count('class="game-note">6 cards<') == 2


def test_reveal_shows_the_hands_the_page_chose():
    state = next(random_positions("dam", 3, seed=2))
    hands = state.to_json()["hands"]
    html = render(state.view(0), reveal={1: hands[1]})
    assert shown_cards(html) == set(hands[0]) | set(hands[1])


def test_selectable_hand_is_real_checkboxes_named_card():
    state = next(random_positions("spardame", 4, seed=5))
    view = state.view(2)
    html = render(view, selectable=True, selected=view["hand"][:1])
    boxes = re.findall(
        r'<input class="pick__box" type="checkbox" name="card" value="(\w\w)"( checked)?>', html)
    assert [C.parse(v) for v, _ in boxes] == sorted(view["hand"], key=C.sort_key)
    assert [v for v, chk in boxes if chk] == [C.code(view["hand"][0])]


def test_highlighted_cards_are_marked():
    state = next(random_positions("dam", 3, seed=2))
    card = state.view(0)["hand"][0]
    html = render(state.view(0), highlight=[card])
    assert 'card--highlight" role="img" aria-label' in html or "card--highlight" in html
    assert html.count("card--highlight") == 1


def test_dolda_rows_show_backs_with_the_last_card_crosswise():
    state = next(random_positions("dolda", 3, seed=4))
    html = render(state.view(0))
    assert shown_cards(html) == set()
    assert html.count("game-row__slot--crosswise") == 3
    assert html.count('data-position="6"') == 3


def test_spardame_trick_is_in_play_order():
    positions = list(random_positions("spardame", 4, seed=9))
    state = next(s for s in positions if len(s.view(0)["trick"]) == 3)
    view = state.view(0)
    html = render(view)
    trick_html = html.split("game-trick__cards", 1)[1]
    assert [C.parse(c) for c in CARD_RE.findall(trick_html)][:3] == view["trick"]


@pytest.mark.parametrize("language", ["sv", "fi", "nb", "en"])
def test_table_has_a_label_in_every_language(language):
    state = next(random_positions("dam", 3, seed=2))
    with translation.override(language):
        html = render_to_string("games/table.html", {"table": table_context(state.view(0))})
    assert 'role="group" aria-label="' in html and 'data-game="dam"' in html


def test_dam_defender_picks_the_attack_card_to_beat_with_radios():
    state = next(random_positions("dam", 3, seed=2))
    attacker = state.to_move
    state, _ = state.apply(next(a for a in state.legal_actions() if a[0] == "attack"))
    view = state.view(state.to_move)
    target = view["table"][0]
    assert 'name="target"' not in render(view, selectable=True)  # opt-in
    html = render(view, selectable=True, pick_target=True, target=target)
    radios = re.findall(r'type="radio" name="target" value="(\w\w)"( checked)?', html)
    assert [C.parse(v) for v, _ in radios] == view["table"]
    assert [v for v, chk in radios if chk] == [C.code(target)]
    assert 'name="target"' not in render(state.view(attacker), selectable=True, pick_target=True)


@pytest.mark.parametrize("options", [
    {"secret_card": True}, {"thieves_and_shields": True, "row_size": 7}, {"special_cards": True},
])
def test_dolda_variants_render_and_hide_what_they_must(options):
    for n, state in enumerate(random_positions("dolda", 3, seed=3, **options)):
        if n % 4:
            continue
        for seat in range(3):
            html = render(state.view(seat))
            assert not shown_cards(html) & hidden_from(state, seat)


def test_dam_marriage_and_extra_attack_render():
    for state in random_positions("dam", 4, seed=8, preset="aldre-svensk", extra_attack=True):
        render(state.view(state.to_move if state.to_move is not None else 0), selectable=True,
               pick_target=True)


def test_the_seat_known_to_hold_svarta_maja_is_marked():
    # Public knowledge (she was taken from the table, drawn as the turned card or shown in a
    # pair): the seed's tactic "watch where Maja is", on the table for the learner.
    state = next(random_positions("dam", 3, seed=2))
    view = dict(state.view(0), maja_known_with=1)
    html = render(view)
    assert html.count("badge--maja") == 1
    assert re.search(r'id="seat-1".*?has Svarta Maja \(everyone saw\)', html, re.S)
    assert "badge--maja" not in render(state.view(0))  # nobody known to hold her
    mine = render(dict(state.view(0), maja_known_with=0), you=0)
    assert "everyone saw you get Svarta Maja" in mine


def seat_texts(html: str) -> list[str]:
    """Each seat's visible words, in one line."""
    seats = re.findall(r'<li id="seat-\d+" class="game-seat.*?</li>', html, re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", s).split()) for s in seats]


@pytest.mark.parametrize("language, you, alice", [
    ("en", "You went out first.", "Alice went out second."),
    ("sv", "Du gick ut först.", "Alice gick ut som tvåa."),
    ("fi", "Pääsit pelistä ensimmäisenä.", "Alice pääsi pelistä toisena."),
    ("nb", "Du gikk ut først.", "Alice gikk ut som nummer to."),
])
def test_players_who_went_out_get_one_sentence_each(language, you, alice):
    """The end of a deal said "You out (1.) no cards" beside "Alice out (2.) 0 cards"."""
    *_, state = random_positions("dam", 3, seed=4)
    view = dict(state.view(0))
    out = list(view["out"])
    assert len(out) == 2
    names = ["Me", "Alice", "Bea"]
    names[out[0]], names[out[1]] = "You", "Alice"
    view["names"] = names
    with translation.override(language):
        html = render_to_string("games/table.html", {
            "table": table_context(view, reveal={0: []}, you=out[0])})
    texts = seat_texts(html)
    assert texts[out[0]] == f"You {you}"
    assert texts[out[1]] == f"Alice {alice}"
    assert not re.search(r"\(\d\.\)|\b0\b", " ".join(texts))


def test_drawing_a_dolda_table_looks_up_no_missing_key(monkeypatch):
    # A failed lookup costs Django's template engine an exception and a dir() of the dict on
    # every card place: each key the template reads is present, None when it does not apply.
    from django.template import base

    missing = []
    lookup = base.Variable._resolve_lookup

    def recording(self, context):
        try:
            return lookup(self, context)
        except base.VariableDoesNotExist:
            missing.append(self.var)
            raise

    monkeypatch.setattr(base.Variable, "_resolve_lookup", recording)
    for n, state in enumerate(random_positions("dolda", 3, seed=5)):
        if n % 10 == 0:
            render(state.view(0), taps={"stock": {"form": "f", "label": "Draw"}})
    assert not missing, sorted(set(missing))
