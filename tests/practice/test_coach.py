"""The coach (#32): one stored analysis per decision shared by the hint and the review, a
mistake only when it is one, and the work done by tasks off the request path."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.test import override_settings
from django.utils import translation

from games.adapters import adapter
from practice import service as P
from practice import tasks
from practice.models import Analysis, PracticeGame
from rules.engine.bots import coach

from .helpers import start, url
from .test_review import finish, full_review

pytestmark = pytest.mark.django_db
GAMES = ["dam", "dolda", "spardame"]
# Small deals: three cards each in Dam, two players elsewhere.
SMALL = {"dam": {"preset": "kolme-korttia", "players": 2},
         "dolda": {"players": 2},
         "spardame": {"players": 3}}


@pytest.fixture(autouse=True)
def quick(monkeypatch):
    monkeypatch.setattr(P, "ANALYSIS_PLAYOUTS", {"dam": 48, "dolda": 48, "spardame": 48})
    with translation.override("en"):
        yield


def count_analyses(monkeypatch) -> list[int]:
    calls: list[int] = []
    real = coach.analyse

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(coach, "analyse", counted)
    return calls


def follow_hints(client, record: PracticeGame) -> tuple[PracticeGame, dict[int, str]]:
    """Play the deal to its end with the player taking every hint (asked through the page);
    the hinted move by its index."""
    module = adapter(record.game).engine
    hinted: dict[int, str] = {}
    for _ in range(3000):
        record.refresh_from_db()
        derived = P.load(record)
        if derived.state.over:
            return record, hinted
        if P.is_bot_turn(record, derived.state):
            P.step_bot(record, record.version)
            continue
        page = client.get(url(record) + "?hint=1").content.decode()
        assert 'id="play-hint"' in page
        hint = P.hint(record, derived, compute=False)
        assert hint is not None  # the page's request stored it
        if len(derived.state.legal_actions()) > 1:
            hinted[len(record.actions)] = module.format_action(hint.action)
        P.human_move(record, record.version, module.format_action(hint.action).split())
    raise AssertionError("the deal did not end")


@pytest.mark.parametrize("game", GAMES)
def test_a_followed_hint_is_never_flagged_and_the_review_reuses_the_hints(
        client, game, monkeypatch):
    # No floor at all: only the interval could keep a move from being called a mistake.
    monkeypatch.setattr(P, "MISTAKE_FLOOR", {"dam": 0.0, "dolda": 0.0, "spardame": 0.0})
    record, hinted = follow_hints(client, start(client, game, **SMALL[game]))
    assert hinted
    stored = Analysis.objects.filter(record=record).count()
    calls = count_analyses(monkeypatch)
    html = full_review(client, record)
    assert calls == []  # every decision's analysis came from its hint
    assert Analysis.objects.filter(record=record).count() == stored
    record.refresh_from_db()
    items = {i["index"]: i for i in P.review_progress(record)["items"]}
    assert set(items) == set(hinted)
    for index, move in hinted.items():
        assert items[index]["best"] == move
        assert items[index]["cost"] == 0.0 and not items[index]["flagged"]
    assert "found no clear mistake" in html
    assert 'class="practice-review__item"' not in html


def test_a_second_hint_request_does_no_evaluation(client, monkeypatch):
    from .helpers import bots_until_human

    record = start(client, "dam")
    bots_until_human(client, record)
    calls = count_analyses(monkeypatch)
    first = client.get(url(record) + "?hint=1").content.decode()
    second = client.get(url(record) + "?hint=1").content.decode()
    assert len(calls) == 1
    assert 'id="play-hint"' in first and 'id="play-hint"' in second
    def shown(page: str) -> str:
        return page.split('class="practice-hint__reason"')[1].split("<form")[0]

    assert shown(first) == shown(second)


def test_the_hint_and_the_review_compute_the_same_analysis(client):
    """Whoever computes a decision's analysis first, the hint or the review, it is the same
    (its seed is the record's and the decision's; the tests' small caps end the race long
    before the CPU budget)."""
    record = finish(start(client, "spardame"))
    P.review_step(record)
    index = P.review_progress(record)["items"][0]["index"]
    first = P.stored_analysis(record, index)
    Analysis.objects.filter(record=record).delete()
    again = P.analysis(record, P._frames(record)[index].state, index)
    assert again.ranked == first.ranked


def test_the_site_gives_the_analysis_its_cpu_budget(client, monkeypatch):
    seen = []
    real = coach.analyse

    def analyse(*args, **kwargs):
        seen.append(args[5] if len(args) > 5 else kwargs.get("budget"))
        return real(*args, **kwargs)

    monkeypatch.setattr(coach, "analyse", analyse)
    from .helpers import bots_until_human

    record = start(client, "dolda")
    bots_until_human(client, record)
    client.get(url(record) + "?hint=1")
    assert seen == [P.ANALYSIS_CPU_SECONDS] and 0 < P.ANALYSIS_CPU_SECONDS < 0.15


def test_only_flagged_decisions_are_listed(client):
    record = finish(start(client, "dam"))
    P.review_step(record)
    record.refresh_from_db()
    progress = P.review_progress(record)
    items = progress["items"]
    assert len(items) >= 2
    for i, item in enumerate(items):
        item["flagged"] = i == 1
        item["cost"] = 0.5 if i == 1 else 0.9  # a bigger cost that is no clear mistake
    listed = P.review_costliest(record, progress)
    assert [x["index"] for x in listed] == [items[1]["index"]]
    assert set(listed[0]) == {"index", "decision", "played", "best", "cost", "certainty",
                              "playouts", "reason"}


@pytest.mark.parametrize(("behind", "se", "floor", "mistake"), [
    (0.10, 0.02, 0.02, True),    # clear and above the floor
    (0.10, 0.06, 0.02, False),   # the interval reaches zero
    (0.015, 0.001, 0.02, False),  # clear but below the floor
    (0.0, 0.0, 0.0, False),      # the best move itself
])
def test_a_mistake_needs_an_interval_clear_of_zero_and_the_floor(behind, se, floor, mistake):
    assert coach.is_mistake(behind, se, floor) is mistake


def test_the_review_says_when_it_found_no_clear_mistake_in_every_language(client, monkeypatch):
    record = finish(start(client, "dam"))
    P.review_step(record)
    words = {"en": "found no clear mistake", "sv": "inget tydligt misstag",
             "fi": "selvää virhettä", "nb": "ingen klar feil"}
    PracticeGame.objects.filter(pk=record.pk).update(review={
        **PracticeGame.objects.get(pk=record.pk).review,
        "items": [{**i, "flagged": False} for i in record.review["items"]]})
    for language, text in words.items():
        with translation.override(language):
            html = client.get(url(record, "review")).content.decode()
        assert text in html, language


def test_a_task_for_a_version_that_has_moved_on_does_nothing(client):
    from .helpers import bots_until_human

    record = start(client, "dam")
    bots_until_human(client, record)
    record.refresh_from_db()
    assert tasks.analyse_decision.call(str(record.pk), record.version + 1) is False
    assert tasks.review_deal.call(str(record.pk), record.version) is False  # not over
    assert not Analysis.objects.filter(record=record).exists()
    assert tasks.analyse_decision.call(str(record.pk), record.version) is True
    assert Analysis.objects.filter(record=record).count() == 1


@override_settings(TASKS={"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}})
def test_the_queued_path_enqueue_then_a_worker_runs_it_then_the_page_shows_it(client,
                                                                            worker_in_test):
    """The real path: the page enqueues the review in the database and polls; a worker
    (django-tasks-db's db_worker, run once here) analyses; the next poll shows the result.
    The hint likewise."""
    from django_tasks_db.models import DBTaskResult

    from .helpers import bots_until_human

    record = start(client, "dam")
    bots_until_human(client, record)
    page = client.get(url(record) + "?hint=1").content.decode()
    assert "practice-hint--pending" in page and "<progress" in page
    assert f'href="{url(record)}?hint=1"' in page  # works without JavaScript too
    assert 'id="play-hint"' not in page
    client.get(url(record) + "?hint=1")  # a poll enqueues nothing more
    assert DBTaskResult.objects.count() == 1
    call_command("db_worker", batch=True, interval=0, startup_delay=False, verbosity=0)
    page = client.get(url(record) + "?hint=1").content.decode()
    assert 'id="play-hint"' in page and "practice-hint--pending" not in page

    record = finish(record)
    html = client.get(url(record, "review")).content.decode()
    assert "<progress" in html and 'data-hx-trigger="load' in html
    assert f'href="{url(record, "review")}"' in html
    record.refresh_from_db()
    assert not P.review_progress(record)["done"]  # queued, not run in the request
    call_command("db_worker", batch=True, interval=0, startup_delay=False, verbosity=0)
    html = client.get(url(record, "review")).content.decode()
    assert "<progress" not in html and "analysed." in html
    assert DBTaskResult.objects.filter(status="SUCCESSFUL").count() == 2


# --------------------------------------------------------------------------- the hint's address
def _next_field(html: str) -> str:
    """The return address the page's forms carry (includes/deck_next.html)."""
    import re

    return re.search(r'id="deck-next" type="hidden" name="next" value="([^"]*)"', html)[1]


def test_the_hint_button_puts_the_hint_in_the_address(client):
    # Shown by htmx, the hint replaces the address with ?hint=1, so a reload shows it again;
    # the links that name the address are sent along and equal a fresh load's.
    from .helpers import bots_until_human

    record = start(client, "dam")
    bots_until_human(client, record)
    page = client.get(url(record)).content.decode()
    assert (f'data-hx-get="{url(record)}?hint=1" data-hx-replace-url="true"' in page)
    shown = client.get(url(record) + "?hint=1", HTTP_HX_REQUEST="true",
                       HTTP_HX_CURRENT_URL="http://testserver" + url(record)).content.decode()
    fresh = client.get(url(record) + "?hint=1").content.decode()
    assert 'id="play-hint"' in shown
    assert _next_field(shown) == _next_field(fresh) == url(record) + "?hint=1"
    assert 'data-hx-swap-oob="true"' in shown


@pytest.mark.parametrize("refused", [False, True])
def test_a_move_from_the_hint_takes_the_hint_out_of_the_address(client, refused):
    # The page a move (or a refused move: sent from an out-of-date page) swaps in shows no
    # hint: the address loses ?hint=1 and the links follow, so a reload gives the page on
    # screen.
    from .helpers import bots_until_human

    record = start(client, "dam")
    bots_until_human(client, record)
    record.refresh_from_db()
    moves = len(record.actions)
    fields = adapter("dam").form_fields(P.load(record).state.legal_actions()[0])
    r = client.post(url(record, "move"),
                    {**fields, "version": record.version - refused},
                    HTTP_HX_REQUEST="true",
                    HTTP_HX_CURRENT_URL=f"http://testserver{url(record)}?hint=1")
    assert r.status_code == 200
    assert r["HX-Replace-Url"] == url(record)
    assert _next_field(r.content.decode()) == url(record)
    record.refresh_from_db()
    assert (len(record.actions) == moves) == refused


def test_a_move_from_the_plain_address_leaves_the_address_alone(client):
    from .helpers import bots_until_human, post_action

    record = start(client, "dam")
    bots_until_human(client, record)
    action = P.load(record).state.legal_actions()[0]
    r = post_action(client, record, action, HTTP_HX_REQUEST="true",
                    HTTP_HX_CURRENT_URL="http://testserver" + url(record))
    assert r.status_code == 200 and "HX-Replace-Url" not in r
    assert 'id="deck-next"' not in r.content.decode()
