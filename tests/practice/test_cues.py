"""Legal-move cues on the practice page (issue #20): cards in no legal move are dimmed with a
reason, Spardame plays are one tap, Dam's beat pairs a hand card with the table cards it may
beat; all from legal_actions() through the adapter."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from games.adapters import adapter
from practice import service as P
from rules.engine import cards as C

from .helpers import bots_until_human, post_action, start, url

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def until(client, record, wanted, limit=200):
    """Play (the human's first legal move each time) until ``wanted(state)`` holds."""
    for _ in range(limit):
        state = bots_until_human(client, record)
        if state.over:
            return None
        if wanted(state):
            return state
        post_action(client, record, list(state.legal_actions())[0])
    return None


def post_move(client, record, fields):
    """Post a move form at the record's version; the response and how many moves the record
    had before it (``record`` is refreshed after)."""
    record.refresh_from_db()
    before = len(record.actions)
    r = client.post(url(record, "move"), {"version": record.version, **fields})
    record.refresh_from_db()
    return r, before


def spardame_follow(state) -> bool:
    view = state.view(0)
    if view["phase"] != "play" or not view["trick"]:
        return False
    legal = {a[2] for a in state.legal_actions()}
    return len(legal) < len(view["hand"])


def test_spardame_cards_that_cannot_follow_are_dimmed_with_the_reason(client):
    # Deals are random: a few are played until the player must follow suit with a hand that
    # holds other suits too.
    for _ in range(8):
        record = start(client, "spardame")
        state = until(client, record, spardame_follow)
        if state is not None:
            break
    assert state is not None, "in eight deals the player never had to follow suit"
    html = client.get(url(record)).content.decode()
    legal = {a[2] for a in state.legal_actions()}
    for c in state.view(0)["hand"]:
        code = C.code(c)
        tap = f'<button type="submit" class="pick pick--tap" name="card" value="{code}"'
        if c in legal:
            assert tap in html
        else:
            assert tap not in html
            assert f'aria-describedby="why-{code}"' in html
            why = adapter("spardame").unplayable_reason(state, 0, c, ["play"])
            assert why in ("You must follow suit when you can.",
                           "No hearts or queen of spades on the first trick while you have "
                           "another card.")
            assert f'id="why-{code}">{why}<' in html


def test_a_spardame_play_is_one_tap(client):
    record = start(client, "spardame")
    state = until(client, record, lambda s: s.view(0)["phase"] == "play")
    assert state is not None
    html = client.get(url(record)).content.decode()
    assert '<input type="hidden" name="move" value="play">' in html
    assert 'name="move" value="play" class="button"' not in html  # no separate Play button
    card = C.code(list(state.legal_actions())[0][2])
    r, before = post_move(client, record, {"move": "play", "card": card})
    assert r.status_code == 302
    assert len(record.actions) == before + 1 and record.actions[-1].endswith(f"play {card}")


def test_spardame_passing_keeps_checkboxes_and_the_pass_button(client):
    record = start(client, "spardame")
    state = bots_until_human(client, record)
    assert state.view(0)["phase"] == "pass"
    html = client.get(url(record)).content.decode()
    assert 'type="checkbox" name="card"' in html and 'value="pass"' in html
    assert "pick--off" not in html  # every card may be passed


def test_dam_defence_pairs_each_card_with_the_attack_cards_it_may_beat(client):
    # Deals are random: a few are played until the player must defend and can beat a card
    # (a defence with nothing that beats offers only Take, and no pair).
    for _ in range(8):
        record = start(client, "dam")
        state = until(client, record, lambda s: s.view(0)["phase"] == "defend"
                      and s.to_move == 0 and any(a[0] == "beat" for a in s.legal_actions()))
        if state is not None:
            break
    assert state is not None, "in eight deals the player never could beat an attack card"
    html = client.get(url(record)).content.decode()
    assert 'id="practice-pair"' in html and "{card}" in html
    # Empty until a pair is chosen, and hidden as the page's script leaves it: a page swapped
    # in by htmx then equals a fresh load of its address whether or not the script ran.
    assert re.search(r'<p class="practice-pair" id="practice-pair" [^>]*aria-live="polite" hidden></p>',
                     html)
    beats: dict[int, set[int]] = {}
    for a in state.legal_actions():
        if a[0] == "beat":
            beats.setdefault(a[3], set()).add(a[2])
    for c in state.view(0)["hand"]:
        code = C.code(c)
        m = re.search(rf'value="{code}"[^>]*data-beats="([^"]*)"', html)
        assert m, code
        assert set(m.group(1).split()) == {C.code(t) for t in beats.get(c, ())}
        assert (f'aria-describedby="why-{code}"' in html) == (c not in beats)
    for t in state.view(0)["table"]:
        assert f'type="radio" name="target" value="{C.code(t)}"' in html


def test_dolda_stock_and_discard_pile_are_one_tap_moves(client):
    record = start(client, "dolda")
    state = bots_until_human(client, record)
    html = client.get(url(record)).content.decode()
    taps = re.findall(r'<button type="submit" form="(move-simple-\d+)" class="pick pick--tap game-tap"'
                      r' tabindex="-1" aria-label="([^"]+)"', html)
    assert taps, "no tap on the table"
    for form_id, _label in taps:
        assert f'<form id="{form_id}"' in html
    labels = {adapter("dolda").describe(a, record.names) for a in state.legal_actions()}
    assert {label for _f, label in taps} <= labels


# --------------------------------------------------------------------------- a jack's cards
# Seeds (deal, bots) of three-player deals of the advanced game in which the player, playing
# the first legal move each time against easy bots, gets a shield (15) and a thief (14).
SHIELD_SEED, THIEF_SEED = 15, 14


def dolda_jack(client, monkeypatch, seed: int, kind: str):
    monkeypatch.setattr(P, "new_seeds", lambda: (seed, seed + 1000))
    record = start(client, "dolda", preset="avancerad")
    state = until(client, record, lambda s: any(a.kind == kind for a in s.legal_actions()),
                  limit=400)
    assert state is not None, f"seed {seed} no longer gives the player a {kind}"
    return record, state


def slot_inputs(html: str, name: str) -> dict[str, str]:
    """value -> the whole <label> of each row card chosen on the table with ``name``."""
    return {m.group(2): m.group(0) for m in re.finditer(
        rf'<label class="pick[^"]*"[^>]*><input class="pick__box" type="\w+" name="{name}"'
        rf' value="([^"]*:)?([^"]+)"[^>]*>.*?</label>', html, re.S)}


def test_a_shield_is_laid_on_cards_of_the_row_and_the_jack_itself_is_dimmed(client, monkeypatch):
    record, state = dolda_jack(client, monkeypatch, SHIELD_SEED, "shield")
    html = client.get(url(record)).content.decode()
    row = state.view(0)["rows"][0]
    jack = state.view(0)["jack"]
    picks = slot_inputs(html, "position")
    assert sorted(picks, key=int) == [str(p + 1) for p in range(len(row))]
    for p, card in enumerate(row):
        label = picks[str(p + 1)]
        assert 'type="checkbox"' in label and 'data-max="2"' in label
        assert ("pick--off" in label) == (card == jack), (p, label)
        assert ('aria-disabled="true"' in label) == (card == jack)
    assert "This is the jack itself: lay it on another card of your row." in picks[
        str(row.index(jack) + 1)]
    assert "Your row positions for the jack" not in html  # no separate list of numbers
    chosen = [str(p + 1) for p, c in enumerate(row) if c != jack][:2]
    r, before = post_move(client, record, {"move": "shield", "position": chosen})
    assert r.status_code == 302
    assert record.actions[before] == f"{record.names[0]} shield {' '.join(chosen)}"


def test_a_thief_picks_its_card_and_its_victim_on_the_table(client, monkeypatch):
    record, state = dolda_jack(client, monkeypatch, THIEF_SEED, "steal")
    html = client.get(url(record)).content.decode()
    view = state.view(0)
    legal = [a for a in state.legal_actions() if a.kind == "steal"]
    own = {str(a.positions[0] + 1) for a in legal}
    picks = slot_inputs(html, "position")
    for value, label in picks.items():
        assert 'type="radio"' in label
        assert ("pick--off" in label) == (value not in own)
    targets = {(a.victim_name, a.positions[1] + 1) for a in legal}
    offered = re.findall(r'name="target" value="([^":]+):(\d+)"', html)
    rows = view["rows"]
    assert len(offered) == sum(len(r) for v, r in enumerate(rows) if v != 0)
    for name, pos in offered:
        label = next(m.group(0) for m in re.finditer(
            rf'<label class="pick[^"]*"[^>]*><input[^>]*value="{name}:{pos}".*?</label>', html,
            re.S))
        legal_here = (name, int(pos)) in targets
        assert ("pick--off" in label) == (not legal_here)
        if not legal_here:
            card = rows[record.names.index(name)][int(pos) - 1]
            assert ("That card is protected by a shield." in label) == (card in view["shielded"])
    action = legal[-1]
    r = post_action(client, record, action)
    assert r.status_code == 302
    record.refresh_from_db()
    assert f" steal {action.positions[0] + 1} {action.victim_name} {action.positions[1] + 1}" \
        in " ".join(record.actions)
