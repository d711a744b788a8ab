"""HTTP benchmark of tutorial Next clicks against the bare /healthz/ view.

Starts gunicorn itself (sync workers) on a free loopback port with production settings
(``dam_site.settings.prod`` plus a temporary STATIC_ROOT filled by collectstatic), and then:

- follows every Next of every tutorial in each language asked for, as htmx sends it (the step's
  own address with ``HX-Request``, ``Accept-Encoding: gzip``), one request at a time: the bytes
  on the wire (compressed, as served) and the time to the last byte over loopback, which is
  the server's time per Next plus a little loopback overhead;
- runs wrk for a bounded time against one Next answer and against /healthz/ in alternating
  rounds: requests per second, p99 latency and their ratio (a ratio, since the machines are
  shared and noisy);
- prints the first load of a tutorial page (HTML, CSS, JS as served compressed), and stops
  gunicorn.

    .venv/bin/python bench/tutorial_http.py [--seconds 10] [--connections 32] [--workers 2]
                                            [--rounds 3] [--languages sv,fi,nb,en]

One ``name=value`` line per measure; rps, p99 and ratio are medians over the rounds.  Goals
(issue #15): median compressed Next at most 2 KB, p50 time per Next at most 15 ms, step rps at
least 0.5 of /healthz/.  The last line sums them up.
"""

from __future__ import annotations

import argparse
import gzip
import os
import re
import signal
import socket
import statistics
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = ROOT / ".venv" / "bin"
STEP_PATH = "/en/dam/tutorials/anna-bo-cilla/2/"
OVERVIEW_PATH = "/en/tutorials/"
HEALTH_PATH = "/healthz/"
# Production redirects plain http to https; a TLS proxy in front would send this header.
PROXY_HEADERS = {"X-Forwarded-Proto": "https"}
# What htmx sends for a click on Next (hx-get to the step's address), with a browser's encoding.
NEXT_HEADERS = {"HX-Request": "true", "HX-Target": "tutorial", "HX-Trigger": "tutorial-next",
                "Accept-Encoding": "gzip"}


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


def overview_path(base: str, language: str) -> str:
    """The tutorials overview in ``language``, from the English one's hreflang alternates."""
    _s, _h, page = fetch(base + OVERVIEW_PATH, {})
    m = re.search(rf'<link id="alternate-{language}" rel="alternate" hreflang="{language}" '
                  rf'href="([^"]+)"'.encode(), page)
    if not m:
        raise SystemExit(f"no tutorials overview in {language!r}")
    return "/" + m.group(1).decode().split("://", 1)[1].split("/", 1)[1]


def tutorial_steps(base: str, language: str = "en") -> list[list[str]]:
    """The step addresses of every tutorial, found by following the overview's links and then
    each step's Next link."""
    _s, _h, overview = fetch(base + overview_path(base, language), {})
    firsts = re.findall(rb'<li class="tutorial-list__item[^"]*">\s*<a href="([^"]+)"', overview)
    out = []
    for first in dict.fromkeys(f.decode() for f in firsts):
        paths = [first]
        status, _h, page = fetch(base + first, {})
        assert status == 200, first
        while (m := re.search(rb'<a id="tutorial-next" href="([^"]+)"', page)):
            paths.append(m.group(1).decode())
            status, _h, page = fetch(base + paths[-1], {})
            assert status == 200, paths[-1]
        out.append(paths)
    return out


def next_clicks(base: str, tutorials: list[list[str]]) -> list[tuple[str, int, float]]:
    """Every Next of every tutorial: (address, bytes on the wire, seconds to the last byte)."""
    out = []
    for paths in tutorials:
        for there in paths[1:]:
            start = time.perf_counter()
            status, headers, body = fetch(base + there, NEXT_HEADERS)
            elapsed = time.perf_counter() - start
            assert status == 200 and headers.get("Content-Encoding") == "gzip", there
            out.append((there, len(body), elapsed))
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
        status, _headers, body = fetch(base + url, {"Accept-Encoding": "gzip"})
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
    parser.add_argument("--languages", default="sv,fi,nb,en",
                        help="comma-separated: follow every Next in these languages")
    args = parser.parse_args()
    languages = [x for x in args.languages.split(",") if x]

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
            for path, headers in ((STEP_PATH, NEXT_HEADERS), (HEALTH_PATH, {})):  # warm up
                for _ in range(20):
                    assert fetch(base + path, headers)[0] == 200, path
            clicks = {language: next_clicks(base, tutorial_steps(base, language))
                      for language in languages}
            step_runs, bare_runs = [], []
            for _ in range(args.rounds):
                step_runs.append(run_wrk(base + STEP_PATH, args.seconds, args.connections,
                                         NEXT_HEADERS))
                bare_runs.append(run_wrk(base + HEALTH_PATH, args.seconds, args.connections, {}))
            _s, page_headers, page = fetch(base + STEP_PATH, {"Accept-Encoding": "gzip"})
            served_html = len(page)
            if page_headers.get("Content-Encoding") == "gzip":
                page = gzip.decompress(page)
            _s, _h, raw_partial = fetch(base + STEP_PATH, {"HX-Request": "true"})
            assets_bytes, assets_raw, parts = first_load(base, page)
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()

    step_rps = statistics.median(r for r, _ in step_runs)
    step_p99 = statistics.median(p for _, p in step_runs)
    bare_rps = statistics.median(r for r, _ in bare_runs)
    bare_p99 = statistics.median(p for _, p in bare_runs)
    ratio = statistics.median(a[0] / b[0] for a, b in zip(step_runs, bare_runs))
    print(f"endpoint={STEP_PATH} (htmx Next, gzip) connections={args.connections} "
          f"seconds={args.seconds} workers={args.workers} rounds={args.rounds} "
          f"load_average={os.getloadavg()[0]:.1f}")
    everything = [c for language in languages for c in clicks[language]]
    for language in languages:
        sizes = [n for _p, n, _t in clicks[language]]
        ms = [t * 1000 for _p, _n, t in clicks[language]]
        print(f"next_{language}: clicks={len(sizes)} gzip_bytes_median={statistics.median(sizes):.0f} "
              f"max={max(sizes)} ms_p50={statistics.median(ms):.1f} "
              f"p95={statistics.quantiles(ms, n=20)[-1]:.1f} max={max(ms):.1f}")
    sizes = [n for _p, n, _t in everything]
    ms = [t * 1000 for _p, _n, t in everything]
    worst = max(everything, key=lambda c: c[1])
    print(f"next_clicks={len(everything)} languages={','.join(languages)}")
    print(f"next_gzip_bytes_median={statistics.median(sizes):.0f}")
    print(f"next_gzip_bytes_max={max(sizes)} at={worst[0]}")
    print(f"next_ms_p50={statistics.median(ms):.1f}")
    print(f"next_ms_p95={statistics.quantiles(ms, n=20)[-1]:.1f}")
    print("rounds_step_rps_p99=" + " ".join(f"{r:.0f}/{p:.1f}ms" for r, p in step_runs))
    print("rounds_healthz_rps_p99=" + " ".join(f"{r:.0f}/{p:.1f}ms" for r, p in bare_runs))
    print(f"step_rps={step_rps:.0f} step_p99_ms={step_p99:.2f}")
    print(f"healthz_rps={bare_rps:.0f} healthz_p99_ms={bare_p99:.2f}")
    print(f"ratio_step_to_healthz={ratio:.2f}")
    print(f"partial_bytes={len(raw_partial)} full_page_html_bytes={len(page)} "
          f"full_page_served_bytes={served_html}")
    print(f"first_load_bytes={served_html + assets_bytes} "
          f"(html {served_html} + css/js {assets_bytes} compressed; {assets_raw} uncompressed: "
          + ", ".join(f"{name} {size}" for name, size in parts) + ")")
    print(f"summary: next_gzip_bytes_median={statistics.median(sizes):.0f} "
          f"next_ms_p50={statistics.median(ms):.1f} ratio_step_to_healthz={ratio:.2f}")


if __name__ == "__main__":
    main()
