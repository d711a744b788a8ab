"""HTTP benchmark of the tutorial step endpoint against the bare /healthz/ view.

Starts gunicorn itself (sync workers) on a free loopback port with production settings
(``dam_site.settings.prod`` plus a temporary STATIC_ROOT filled by collectstatic), runs wrk for a
bounded time against both endpoints in one run, prints requests per second, p99 latency and
their ratio, then the byte sizes of the htmx partial, the full page and the first load of a
tutorial page (HTML, CSS, JS as served compressed), and stops gunicorn.

The step request is a Next click as the browser sends it: ``?go=next`` on the page of step 1
with htmx's headers (``HX-Current-URL`` of that page, ``HX-Target``) and those of the tutorial
page (``X-Tutorial-Build`` from its hx-headers, ``X-Tutorial-Swaps`` from tutorial.js), so the
answer may be swaps only, in the compact form of tutorials/wire.py.  ``next_*`` lines: the same
click on every step of every tutorial of every game (English), the partial against the full page
HTML of the step it leads to; ``back_*``: Back the same way; ``baseline_*``: the Next clicks
from a page that takes swaps as htmx markup only (the form before tutorials/wire.py).

    .venv/bin/python bench/tutorial_http.py [--seconds 10] [--connections 32] [--workers 2]
                                            [--rounds 3] [--languages sv,fi,nb,en]

One ``name=value`` line per measure; rps, p99 and ratio are medians over the rounds.
"""

from __future__ import annotations

import argparse
import gzip
import os
import re
import signal
import statistics
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = ROOT / ".venv" / "bin"
STEP_PATH = "/en/dam/tutorials/anna-bo-cilla/2/"
FROM_PATH = "/en/dam/tutorials/anna-bo-cilla/1/"  # the page the Next click comes from
OVERVIEW_PATH = "/en/tutorials/"
HEALTH_PATH = "/healthz/"
# Production redirects plain http to https; a TLS proxy in front would send this header.
PROXY_HEADERS = {"X-Forwarded-Proto": "https"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fetch(url: str, headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers={**PROXY_HEADERS, **headers})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


SWAPS = "attrs patch"  # what tutorial.js says it handles (X-Tutorial-Swaps)


def next_click(base: str, page_path: str, page: bytes,
               swaps: str = SWAPS) -> tuple[str, dict[str, str]]:
    """The request htmx makes for a click on Next on the page at ``page_path``."""
    build = re.search(rb'"X-Tutorial-Build": "([^"]+)"', page)
    headers = {"HX-Request": "true", "HX-Target": "tutorial-stage", "HX-Trigger": "tutorial-next",
               "HX-Current-URL": "https://" + base.split("://", 1)[1] + page_path,
               "X-Tutorial-Swaps": swaps}
    if build:
        headers["X-Tutorial-Build"] = build.group(1).decode()
    return page_path + "?go=next", headers


def overview_path(base: str, language: str) -> str:
    """The tutorials overview in ``language``, from the English one's hreflang alternates."""
    _s, _h, page = fetch(base + OVERVIEW_PATH, {})
    m = re.search(rf'<link rel="alternate" hreflang="{language}" href="([^"]+)"'.encode(), page)
    if not m:
        raise SystemExit(f"no tutorials overview in {language!r}")
    return "/" + m.group(1).decode().split("://", 1)[1].split("/", 1)[1]


def tutorial_steps(base: str, language: str = "en") -> list[list[str]]:
    """The step paths of every tutorial, found by following the overview's links and then each
    step's Next answer (its HX-Push-Url)."""
    _s, _h, overview = fetch(base + overview_path(base, language), {})
    firsts = re.findall(rb'<li class="tutorial-list__item[^"]*">\s*<a href="([^"]+)"', overview)
    out = []
    for first in dict.fromkeys(f.decode() for f in firsts):
        paths = [first]
        status, _h, page = fetch(base + first, {})
        assert status == 200, first
        while b'id="tutorial-next"' in page:
            url, headers = next_click(base, paths[-1], page)
            status, answer_headers, _partial = fetch(base + url, headers)
            assert status == 200, url
            paths.append(answer_headers["HX-Push-Url"])
            status, _h, page = fetch(base + paths[-1], {})
            assert status == 200, paths[-1]
        out.append(paths)
    return out


def answer_sizes(base: str, tutorials: list[list[str]], swaps: str = SWAPS,
                go: str = "next") -> list[tuple[str, int, int, bool]]:
    """Every Next (or Back, ``go="prev"``) of every tutorial: (step it leads to, partial bytes,
    full page bytes of that step, swaps only).  ``swaps``: what the page says it handles
    ("attrs" alone: swaps as htmx markup, the form before tutorials/wire.py)."""
    out = []
    for paths in tutorials:
        pairs = zip(paths, paths[1:]) if go == "next" else zip(paths[1:], paths)
        for here, there in pairs:
            status, _h, page = fetch(base + here, {})
            assert status == 200, here
            url, headers = next_click(base, here, page, swaps)
            if go == "prev":
                url, headers = here + "?go=prev", {**headers, "HX-Trigger": "tutorial-back"}
            status, answer_headers, partial = fetch(base + url, headers)
            assert status == 200 and answer_headers["HX-Push-Url"] == there, url
            status, _h, full = fetch(base + there, {})
            out.append((there, len(partial), len(full),
                        answer_headers.get("HX-Reswap") == "none"))
    return out


def wait_up(base: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if fetch(base + HEALTH_PATH, {})[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise SystemExit("gunicorn did not come up")


def parse_wrk(output: str) -> tuple[float, float]:
    """Requests per second and p99 latency in ms from ``wrk --latency`` output."""
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    m = re.search(r"^\s*99%\s+([\d.]+)(us|ms|s)\s*$", output, re.MULTILINE)
    value, unit = float(m.group(1)), m.group(2)
    p99 = value / 1000 if unit == "us" else value * 1000 if unit == "s" else value
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    if errors:
        raise SystemExit(f"wrk saw {errors.group(1)} error responses:\n{output}")
    return rps, p99


def run_wrk(url: str, seconds: int, connections: int,
            headers: dict[str, str]) -> tuple[float, float]:
    args = ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", "--timeout", "5s"]
    for k, v in {**PROXY_HEADERS, **headers}.items():
        args += ["-H", f"{k}: {v}"]
    out = subprocess.run(args + [url], capture_output=True, text=True, check=True).stdout
    return parse_wrk(out)


def first_load(base: str, html: bytes) -> tuple[int, int, list[tuple[str, int]]]:
    """Bytes of the page's CSS and JS as served with Accept-Encoding: gzip, and uncompressed."""
    assets = re.findall(rb'<link rel="stylesheet" href="([^"]+)"', html)
    assets += re.findall(rb'<script src="([^"]+)"', html)
    total, raw_total, parts = 0, 0, []
    for a in assets:
        url = a.decode()
        status, headers, body = fetch(base + url, {"Accept-Encoding": "gzip"})
        if status != 200:
            raise SystemExit(f"{url}: HTTP {status}")
        total += len(body)
        raw_total += len(fetch(base + url, {})[2])
        parts.append((url.rsplit("/", 1)[-1], len(body)))
    return total, raw_total, parts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3,
                        help="alternate the two endpoints this many times; medians are printed "
                             "(evens out a busy machine)")
    parser.add_argument("--languages", default="en",
                        help="comma-separated: also measure every Next and Back in these "
                             "languages (sv,fi,nb,en)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="tutorial-bench-") as tmp:
        (Path(tmp) / "bench_settings.py").write_text(
            "from dam_site.settings.prod import *  # noqa\n"
            f"STATIC_ROOT = {str(Path(tmp) / 'static')!r}\n")
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "bench_settings",
               "PYTHONPATH": os.pathsep.join([tmp, str(ROOT)]),
               "SECRET_KEY": "bench-not-secret-" + "x" * 40, "ALLOWED_HOSTS": "127.0.0.1",
               "DEBUG": "0"}
        env.pop("DATABASE_URL", None)  # the endpoints measured do not touch the database
        env.pop("REDIS_URL", None)
        subprocess.run([str(VENV_BIN / "python"), "manage.py", "collectstatic", "--noinput",
                        "-v0"], cwd=ROOT, env=env, check=True)
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        server = subprocess.Popen(
            [str(VENV_BIN / "gunicorn"), "dam_site.wsgi", "--workers", str(args.workers),
             "--bind", f"127.0.0.1:{port}", "--log-level", "warning"],
            cwd=ROOT, env=env)
        try:
            wait_up(base)
            next_path, hx = next_click(base, FROM_PATH, fetch(base + FROM_PATH, {})[2])
            for path, headers in ((next_path, hx), (HEALTH_PATH, {})):  # warm both workers
                for _ in range(20):
                    assert fetch(base + path, headers)[0] == 200, path
            step_runs, bare_runs = [], []
            for _ in range(args.rounds):
                step_runs.append(run_wrk(base + next_path, args.seconds, args.connections, hx))
                bare_runs.append(run_wrk(base + HEALTH_PATH, args.seconds, args.connections, {}))
            step_rps = statistics.median(r for r, _ in step_runs)
            step_p99 = statistics.median(p for _, p in step_runs)
            bare_rps = statistics.median(r for r, _ in bare_runs)
            bare_p99 = statistics.median(p for _, p in bare_runs)
            ratios = [a[0] / b[0] for a, b in zip(step_runs, bare_runs)]

            _s, partial_headers, partial = fetch(base + next_path, hx)
            assert partial_headers.get("HX-Push-Url") == STEP_PATH, partial_headers
            _s, _h, whole_stage = fetch(base + STEP_PATH, {"HX-Request": "true"})
            steps = tutorial_steps(base)
            transitions = answer_sizes(base, steps)
            back_transitions = answer_sizes(base, steps, go="prev")
            markup_transitions = answer_sizes(base, steps, "attrs")
            per_language = {}
            for language in [x for x in args.languages.split(",") if x and x != "en"]:
                steps_there = tutorial_steps(base, language)
                per_language[language] = (answer_sizes(base, steps_there),
                                          answer_sizes(base, steps_there, go="prev"))
            _s, page_headers, page = fetch(base + STEP_PATH, {"Accept-Encoding": "gzip"})
            if page_headers.get("Content-Encoding") == "gzip":
                page = gzip.decompress(page)
            assets_bytes, assets_raw, parts = first_load(base, page)
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()

    page_gz = len(gzip.compress(page))
    partial_gz = len(gzip.compress(partial))
    served_html = page_gz if page_headers.get("Content-Encoding") == "gzip" else len(page)
    print(f"endpoint={next_path} (htmx Next click to {STEP_PATH}) connections={args.connections} "
          f"seconds={args.seconds} workers={args.workers} rounds={args.rounds} "
          f"load_average={os.getloadavg()[0]:.1f}")
    print("rounds_step_rps_p99=" + " ".join(f"{r:.0f}/{p:.1f}ms" for r, p in step_runs))
    print("rounds_healthz_rps_p99=" + " ".join(f"{r:.0f}/{p:.1f}ms" for r, p in bare_runs))
    print("rounds_ratio=" + " ".join(f"{x:.2f}" for x in ratios))
    print(f"step_rps={step_rps:.0f}")
    print(f"step_p99_ms={step_p99:.2f}")
    print(f"healthz_rps={bare_rps:.0f}")
    print(f"healthz_p99_ms={bare_p99:.2f}")
    print(f"ratio_step_to_healthz={statistics.median(ratios):.2f}")
    print(f"partial_bytes={len(partial)}")
    print(f"partial_gzip_bytes={partial_gz}")
    print(f"full_page_html_bytes={len(page)}")
    print(f"full_page_html_gzip_bytes={page_gz}")
    print(f"partial_to_full_html={len(partial) / len(page):.3f}")
    print(f"partial_swaps_only={partial_headers.get('HX-Reswap') == 'none'}")
    print(f"whole_stage_partial_bytes={len(whole_stage)}")
    ratios = [p / f for _path, p, f, _swaps in transitions]
    swaps = [p / f for _path, p, f, only in transitions if only]
    print(f"next_transitions={len(transitions)} next_swaps_only={len(swaps)}")
    print(f"next_ratio_median={statistics.median(ratios):.3f}")
    print(f"next_ratio_max={max(ratios):.3f}")
    if swaps:
        print(f"next_swaps_only_ratio_median={statistics.median(swaps):.3f}")
        print(f"next_swaps_only_ratio_max={max(swaps):.3f}")
    worst = max(transitions, key=lambda t: t[1] / t[2])
    print(f"next_ratio_max_at={worst[0]}")
    print(f"next_at_most_10pct={sum(r <= 0.10 for r in ratios)}/{len(ratios)}")
    print(f"next_ratio_p90={statistics.quantiles(ratios, n=10)[-1]:.3f}")
    back = [p / f for _path, p, f, _swaps in back_transitions]
    worst = max(back_transitions, key=lambda t: t[1] / t[2])
    print(f"back_ratio_median={statistics.median(back):.3f} max={max(back):.3f} "
          f"at_most_10pct={sum(r <= 0.10 for r in back)}/{len(back)} max_at={worst[0]}")
    # Baseline in the same run: the same clicks from a page that takes swaps as htmx markup only.
    markup = [p / f for _path, p, f, _swaps in markup_transitions]
    for language, (forward, backward) in per_language.items():
        for name, sizes in (("next", forward), ("back", backward)):
            r = [p / f for _path, p, f, _swaps in sizes]
            print(f"{name}_ratio_{language}: median={statistics.median(r):.3f} max={max(r):.3f} "
                  f"at_most_10pct={sum(x <= 0.10 for x in r)}/{len(r)}")
    print(f"baseline_markup_swaps_next_ratio_median={statistics.median(markup):.3f} "
          f"max={max(markup):.3f} at_most_10pct={sum(r <= 0.10 for r in markup)}/{len(markup)}")
    print("assets=" + ",".join(f"{name}:{size}" for name, size in parts))
    print(f"first_load_html_bytes_as_served={served_html}")
    first = served_html + assets_bytes
    print(f"first_load_bytes_as_served={first}")
    print(f"first_load_compressed_bytes_if_html_gzipped={page_gz + assets_bytes}")
    print(f"partial_gzip_to_first_load_compressed={partial_gz / first:.3f}")
    print(f"first_load_uncompressed_bytes={len(page) + assets_raw}")
    print(f"partial_to_first_load_uncompressed={len(partial) / (len(page) + assets_raw):.3f}")
    print(f"first_load_kb={first / 1024:.1f}")


if __name__ == "__main__":
    sys.exit(main())
