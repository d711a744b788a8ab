"""HTTP benchmark of the tutorial step endpoint against the bare /healthz/ view.

Starts gunicorn itself (sync workers) on a free loopback port with production settings
(``dam_site.settings.prod`` plus a temporary STATIC_ROOT filled by collectstatic), runs wrk for a
bounded time against both endpoints in one run, prints requests per second, p99 latency and
their ratio, then the byte sizes of the htmx partial, the full page and the first load of a
tutorial page (HTML, CSS, JS as served compressed), and stops gunicorn.

    .venv/bin/python bench/tutorial_http.py [--seconds 10] [--connections 32] [--workers 2]
                                            [--rounds 3]

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
            hx = {"HX-Request": "true"}
            for path, headers in ((STEP_PATH, hx), (HEALTH_PATH, {})):  # warm both workers
                for _ in range(20):
                    assert fetch(base + path, headers)[0] == 200, path
            step_runs, bare_runs = [], []
            for _ in range(args.rounds):
                step_runs.append(run_wrk(base + STEP_PATH, args.seconds, args.connections, hx))
                bare_runs.append(run_wrk(base + HEALTH_PATH, args.seconds, args.connections, {}))
            step_rps = statistics.median(r for r, _ in step_runs)
            step_p99 = statistics.median(p for _, p in step_runs)
            bare_rps = statistics.median(r for r, _ in bare_runs)
            bare_p99 = statistics.median(p for _, p in bare_runs)
            ratios = [a[0] / b[0] for a, b in zip(step_runs, bare_runs)]

            _s, _h, partial = fetch(base + STEP_PATH, hx)
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
    print(f"endpoint={STEP_PATH} (htmx partial) connections={args.connections} "
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
