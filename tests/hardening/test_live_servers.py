"""The live classroom across processes as production runs it (loopback only): two gunicorn
servers for the pages, two uvicorn processes (``dam_site.asgi``) for the streams, Redis as the
bus.  The teacher steps on one gunicorn; phones streaming from either uvicorn follow."""

import re
import secrets
import threading
import time

import httpx

VERSION_STEP = re.compile(r'data-version="(\d+)" data-step="(\d+)"')
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def csrf(html: str) -> str:
    return CSRF.search(html).group(1)


class Phone:
    """A student's browser: joins on one gunicorn, streams from one uvicorn."""

    def __init__(self, page_base: str, stream_base: str, language: str) -> None:
        self.client = httpx.Client(base_url=page_base, timeout=30)
        self.stream_base, self.language = stream_base, language
        self.steps: list[int] = []
        self.status = 0
        self.stop = threading.Event()

    def join(self, code: str) -> None:
        r = self.client.get(f"/{self.language}/live/join/?code={code}")
        r = self.client.post(f"/{self.language}/live/join/",
                             data={"code": code, "csrfmiddlewaretoken": csrf(r.text)})
        assert r.status_code == 303, r.text[:300]

    def follow(self, code: str) -> threading.Thread:
        def run() -> None:
            url = f"{self.stream_base}/live/{code}/{self.language}/"
            try:
                with httpx.Client(cookies=self.client.cookies, timeout=30) as c, \
                        c.stream("GET", url) as r:
                    self.status = r.status_code
                    for line in r.iter_lines():
                        match = VERSION_STEP.search(line)
                        if match:
                            self.steps.append(int(match.group(2)))
                        if self.stop.is_set():
                            return
            except httpx.HTTPError:  # the servers stop at the end of the test
                if not self.stop.is_set():
                    raise

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        return thread

    def wait_for(self, step: int, seconds: float = 5) -> bool:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.steps and self.steps[-1] == step:
                return True
            time.sleep(0.05)
        return False


def test_phones_on_two_stream_servers_follow_a_teacher_on_another_server(
        start_server, start_asgi):
    prefix = f"e2elive{secrets.token_hex(4)}"
    pages = [start_server(workers=1, cache_prefix=prefix) for _ in range(2)]
    streams = [start_asgi(prefix) for _ in range(2)]
    teacher = httpx.Client(base_url=pages[0].base, timeout=30)
    r = teacher.get("/en/scenarios/tutorial/dam/anna-bo-cilla/present/1/")
    r = teacher.post("/en/live/start/", data={"kind": "tutorial", "ref": "dam/anna-bo-cilla",
                                               "step": 1, "csrfmiddlewaretoken": csrf(r.text)})
    assert r.status_code == 303
    code = r.headers["location"].rstrip("/").split("/")[-2]
    token = csrf(teacher.get(r.headers["location"]).text)
    phones = [Phone(pages[1].base, streams[0].base, "fi"), Phone(pages[1].base, streams[1].base,
                                                                "sv")]
    for phone in phones:
        phone.join(code)
        phone.follow(code)
    assert all(p.wait_for(1) for p in phones), [p.status for p in phones]
    for step in (2, 3, 4):
        r = teacher.post(f"/en/live/{code}/control/",
                         data={"action": "next", "csrfmiddlewaretoken": token},
                         headers={"HX-Request": "true"})
        assert r.status_code == 200
        assert all(p.wait_for(step, 3) for p in phones), [p.steps for p in phones]
    for phone in phones:
        phone.stop.set()
    # A stream of a session one has not joined is refused by the stream servers too.
    stranger = httpx.get(f"{streams[0].base}/live/{code}/en/", timeout=10)
    assert stranger.status_code == 404
