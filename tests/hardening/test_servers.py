"""Several gunicorn processes on one PostgreSQL database and one Redis cache (loopback only).

- two simultaneous submissions to one game through two workers: exactly one applies;
- a whole game with requests alternating between two servers ends as on one server;
- a server stopped in the middle of a game and started again: the game goes on, nothing lost.
"""

import json
import re
import threading

from django.utils import translation

from games.adapters import adapter
from practice import service as P

from .play import new_game, next_request, path, play, record
from .servers import Browser

CSRF = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')


def main_html(text: str) -> str:
    """The page's <main> without the per-request CSRF tokens."""
    body = text[text.index("<main"):text.index("</main>")]
    return CSRF.sub("", body)


def simultaneously(browser: Browser, requests: list[tuple[str, dict]]):
    barrier = threading.Barrier(len(requests))
    results = [None] * len(requests)

    def send(i: int) -> None:
        url, data = requests[i]
        barrier.wait()
        results[i] = browser.request(url, data)

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(requests))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


def test_two_simultaneous_submissions_apply_exactly_once(start_server, e2e_database):
    server = start_server(workers=2)
    browser = Browser()
    game_id = new_game(browser, server.base)
    with translation.override("en"):
        stale = str(P.STALE)
    for _ in range(6):
        before = record(e2e_database, game_id)
        url, data = next_request(before)
        results = simultaneously(browser, [(server.base + url, data)] * 2)
        statuses = sorted(r.status for r in results)
        assert statuses == [302, 409], [(r.status, r.text[:300]) for r in results]
        refused = next(r for r in results if r.status == 409)
        assert stale in refused.text
        after = record(e2e_database, game_id)
        assert after.version == before.version + 1
        assert after.actions[:-1] == before.actions  # one move appended, no gap, no duplicate
    P.replay(after)  # the record is a legal game


def test_two_different_moves_at_once_apply_exactly_one(start_server, e2e_database):
    server = start_server(workers=2)
    browser = Browser()
    game_id = new_game(browser, server.base)
    tried = 0
    while tried < 3:
        rec = record(e2e_database, game_id)
        state = P.replay(rec).state
        assert not state.over, "the deal ended before the player had two moves to choose from"
        legal = list(state.legal_actions()) if not P.is_bot_turn(rec, state) else []
        if len(legal) < 2:
            url, data = next_request(rec)
            assert browser.request(server.base + url, data).status == 302
            continue
        url = server.base + path("practice_dam_move", rec.pk)
        forms = [{**adapter("dam").form_fields(a), "version": rec.version}
                 for a in legal[:2]]
        results = simultaneously(browser, [(url, f) for f in forms])
        assert sorted(r.status for r in results) == [302, 409]
        after = record(e2e_database, game_id)
        assert after.version == rec.version + 1 and after.actions[:-1] == rec.actions
        tried += 1


def test_a_game_alternating_between_two_servers_ends_as_on_one(start_server, e2e_database):
    a, b = start_server(workers=1), start_server(workers=1)
    browser = Browser()
    game_id = new_game(browser, a.base)
    sent = play(browser, [a.base, b.base], e2e_database, game_id)
    assert sent > 2
    alternating = record(e2e_database, game_id)
    assert alternating.result is not None

    # The same deal played on one server with the same choices.
    single = Browser()
    other_id = new_game(single, a.base)
    with e2e_database.connect() as conn:
        conn.execute("UPDATE practice_practicegame SET deal = %s::jsonb, seed = %s, bot_seed = %s "
                     "WHERE id = %s", [json.dumps(alternating.deal), alternating.seed,
                                       alternating.bot_seed, other_id])
    play(single, [a.base], e2e_database, other_id)
    alone = record(e2e_database, other_id)
    assert alone.actions == alternating.actions
    assert alone.result == alternating.result

    page = path("practice_dam_play", game_id)
    seen_a, seen_b = browser.request(a.base + page), browser.request(b.base + page)
    assert seen_a.status == seen_b.status == 200
    assert main_html(seen_a.text) == main_html(seen_b.text)


def test_restarting_the_server_in_the_middle_of_a_game_loses_nothing(start_server,
                                                                    e2e_database):
    server = start_server(workers=2)
    browser = Browser()
    game_id = new_game(browser, server.base)
    play(browser, [server.base], e2e_database, game_id, limit=8)
    before = record(e2e_database, game_id)
    page = path("practice_dam_play", game_id)
    shown = browser.request(server.base + page)
    assert shown.status == 200

    server.stop()
    # Same address, and a cold cache: the game must come back from the record alone.
    again = start_server(workers=2, port=server.port, cache_prefix="restart" + game_id[:8])
    after = record(e2e_database, game_id)
    assert (after.version, after.actions) == (before.version, before.actions)
    reshown = browser.request(again.base + page)  # the same session cookie still owns it
    assert reshown.status == 200
    assert main_html(reshown.text) == main_html(shown.text)

    play(browser, [again.base], e2e_database, game_id)
    final = record(e2e_database, game_id)
    assert final.actions[:len(before.actions)] == before.actions
    assert final.result is not None


def test_the_rate_limit_is_shared_by_all_servers(start_server):
    import time

    from dam_site.settings.base import RATE_LIMITS

    from .play import NEW_DAM

    count, _sep, unit = RATE_LIMITS["practice_<game>"].partition("/")
    limit, seconds = int(count), {"s": 1, "m": 60, "h": 3600}[unit]
    a, b = start_server(workers=1), start_server(workers=1)
    browser = Browser()
    url = path("practice_dam")
    assert browser.request(a.base + url).status == 200
    # The posts are kept inside one fixed window of the sliding-window counter: past an edge
    # the earlier posts' weight starts to wear off, so one post more could pass.
    if time.time() % seconds > seconds - 10:
        time.sleep(seconds - time.time() % seconds + 1)
    statuses = [browser.request((a, b)[i % 2].base + url, NEW_DAM).status
                for i in range(limit + 1)]
    assert statuses == [302] * limit + [429]
    refused = browser.request(b.base + url, NEW_DAM)
    assert refused.status == 429 and int(refused.headers["Retry-After"]) >= 1
    assert '<html lang="en"' in refused.text
