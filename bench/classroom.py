"""The live classroom under load: N students' phones follow a teacher on K app servers.

    .venv/bin/python bench/classroom.py --followers 200 --servers 2 --seconds 20

Starts, on loopback only, a throwaway PostgreSQL database and K app servers, each the pair
production runs (README, "Production"): gunicorn (sync workers) for the pages and uvicorn
running ``dam_site.asgi`` for the ``/live/`` streams, all sharing Redis (127.0.0.1:6379) as
cache and bus.  A teacher goes live with a tutorial; N followers join by code (each from its
own address, as phones behind the school's proxy: ``TRUSTED_PROXIES`` is loopback) in
sv/fi/nb/en in turn, and open their stream on the uvicorn of server ``i % K``.  The teacher
steps through the tutorial, one step a second for ``--seconds``, then opens a question at a
decision; every follower answers twice (the second must not count), the teacher reveals.

Each follower notes when it first saw each version of the session; ``follow_ms`` is that
moment minus the moment the teacher's request was sent.  Printed: ``followers``, ``servers``,
``steps``, ``follow_ms_p50``, ``follow_ms_max``, ``answers_counted`` and, last,
``follow_ms_p95=<n> missed=<n> errors=<n>`` (missed: (follower, version) pairs never seen;
errors: failed joins, connections, answers, or a chart count other than N).  Everything stops
and the database is dropped at the end, whatever happens.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import secrets
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.hardening.servers import (  # noqa: E402
    Database,
    check_services,
    follow_events,
    production,
)

LANGS = ("sv", "fi", "nb", "en")
TUTORIAL = ("dam", "anna-bo-cilla")
QUESTION_STEP = 3  # a "your move" step of that tutorial
VERSION = re.compile(r'data-version="(\d+)"')
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def csrf_of(html: str) -> str:
    match = CSRF.search(html)
    return match.group(1) if match else ""


class Follower:
    def __init__(self, i: int, page_base: str, stream_base: str) -> None:
        self.i = i
        self.lang = LANGS[i % len(LANGS)]
        self.page_base = page_base
        self.stream_base = stream_base
        self.address = f"10.{i // 65536 % 256}.{i // 256 % 256}.{i % 256 or 1}"
        self.client = httpx.AsyncClient(headers={"X-Forwarded-For": self.address},
                                        timeout=httpx.Timeout(30, read=60))
        self.seen: dict[int, float] = {}
        self.latest_html = ""
        self.errors = 0
        self.connected = asyncio.Event()

    async def join(self, code: str) -> bool:
        r = await self.client.get(f"{self.page_base}/{self.lang}/live/join/?code={code}")
        r = await self.client.post(f"{self.page_base}/{self.lang}/live/join/", data={
            "code": code, "name": f"Student {self.i}", "csrfmiddlewaretoken": csrf_of(r.text)})
        if r.status_code != 303:
            self.errors += 1
            return False
        page = await self.client.get(f"{self.page_base}/{self.lang}/live/{code}/")
        self.csrf = csrf_of(page.text) or self.client.cookies.get("csrftoken", "")
        return page.status_code == 200

    async def follow(self, code: str, stop: asyncio.Event) -> None:
        await follow_events(self.client, f"{self.stream_base}/live/{code}/{self.lang}/", stop,
                            self.receive, self.error)

    def receive(self, html: str) -> None:
        match = VERSION.search(html)
        if match:
            self.seen.setdefault(int(match.group(1)), time.monotonic())
            self.latest_html = html
            self.connected.set()

    def error(self) -> None:
        self.errors += 1

    async def answer(self, code: str) -> None:
        html = self.latest_html
        number = re.search(r'name="question" value="(\d+)"', html)
        choices = re.findall(r'name="choice" value="([^"]+)"', html)
        if not number or not choices:
            self.errors += 1
            return
        choice = choices[self.i % len(choices)]
        for _ in range(2):  # a double tap: counted once
            r = await self.client.post(
                f"{self.page_base}/{self.lang}/live/{code}/answer/",
                data={"question": number.group(1), "choice": choice},
                headers={"HX-Request": "true", "X-CSRFToken": self.csrf,
                         "Referer": f"{self.page_base}/{self.lang}/live/{code}/"})
            if r.status_code != 200 or "live-message--error" in r.text:
                self.errors += 1


async def run(args: argparse.Namespace, pages: list[str], streams: list[str]) -> list[str]:
    teacher = httpx.AsyncClient(timeout=30)
    game, slug = TUTORIAL
    r = await teacher.get(f"{pages[0]}/en/scenarios/tutorial/{game}/{slug}/present/1/")
    r = await teacher.post(f"{pages[0]}/en/live/start/", data={
        "kind": "tutorial", "ref": f"{game}/{slug}", "step": 1,
        "csrfmiddlewaretoken": csrf_of(r.text)})
    code = r.headers["location"].rstrip("/").split("/")[-2]
    projector = await teacher.get(pages[0] + r.headers["location"])
    teacher_csrf = csrf_of(projector.text)
    control = f"{pages[0]}/en/live/{code}/control/"

    followers = [Follower(i, pages[i % len(pages)], streams[i % len(streams)])
                 for i in range(args.followers)]
    joined = await asyncio.gather(*(f.join(code) for f in followers))
    stop = asyncio.Event()
    tasks = [asyncio.create_task(f.follow(code, stop)) for f, ok in zip(followers, joined) if ok]
    try:
        await asyncio.wait_for(asyncio.gather(*(f.connected.wait() for f in followers
                                                if f.csrf)), 60)
    except TimeoutError:
        pass
    sent: dict[int, float] = {}

    async def act(**data) -> int:
        t0 = time.monotonic()
        r = await teacher.post(control, data={**data, "csrfmiddlewaretoken": teacher_csrf},
                               headers={"HX-Request": "true", "Referer": control})
        version = int(VERSION.search(r.text).group(1))
        sent.setdefault(version, t0)
        return version

    step, direction = 1, 1
    last = 10
    deadline = time.monotonic() + args.seconds
    while time.monotonic() < deadline:
        if not 1 <= step + direction <= last:
            direction = -direction
        step += direction
        await act(action="goto", step=step)
        await asyncio.sleep(1.0)
    await act(action="goto", step=QUESTION_STEP)
    await asyncio.sleep(1.0)
    await act(action="open")
    await asyncio.sleep(1.5)
    await asyncio.gather(*(f.answer(code) for f in followers if f.connected.is_set()))
    await asyncio.sleep(0.5)
    panel = await teacher.get(pages[0] + f"/en/live/{code}/projector/")
    counted = re.search(r'data-answered="(\d+)"', panel.text)
    answers_counted = int(counted.group(1)) if counted else -1
    await act(action="reveal")
    await asyncio.sleep(2.0)
    stop.set()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await asyncio.gather(*(f.client.aclose() for f in followers))
    await teacher.post(control, data={"action": "end", "csrfmiddlewaretoken": teacher_csrf},
                       headers={"Referer": control})
    await teacher.aclose()

    delays, missed = [], 0
    for f in followers:
        for version, t0 in sent.items():
            if version in f.seen:
                delays.append(max(0.0, f.seen[version] - t0) * 1000)
            else:
                missed += 1
    errors = sum(f.errors for f in followers) + sum(1 for ok in joined if not ok)
    if answers_counted != args.followers:
        errors += abs(args.followers - answers_counted)
    delays.sort()

    def pct(p: float) -> float:
        return delays[min(len(delays) - 1, int(p * len(delays)))] if delays else float("nan")

    return [f"followers={args.followers}", f"servers={args.servers}", f"steps={len(sent)}",
            f"answers_counted={answers_counted}", f"follow_ms_p50={pct(0.5):.0f}",
            f"follow_ms_max={delays[-1] if delays else float('nan'):.0f}",
            f"follow_ms_p95={pct(0.95):.0f} missed={missed} errors={errors}"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--followers", type=int, default=200)
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers per server")
    args = parser.parse_args()
    check_services()
    db = Database()
    db.create()
    prefix = f"bench-classroom-{os.getpid()}-{secrets.token_hex(3)}"
    os.environ["TRUSTED_PROXIES"] = "127.0.0.1"
    try:
        with production(args.servers, db.url, prefix, args.workers) as (pages, streams):
            lines = asyncio.run(run(args, [s.base for s in pages], [s.base for s in streams]))
    finally:
        db.drop()
    for line in lines:
        print(line)


if __name__ == "__main__":
    main()
