"""Pure-Python rules engine for Dam, Dam med dolda kort and Spardame.

Nothing in this package imports Django: the site, the bots, the benchmark scripts and the
scenario checker all drive the same code.

The modules a search runs millions of times (``COMPILED``: the games, their bots, the strong
bot and the coach) may also exist compiled with mypyc, built by ``make setup``
(tools/build_engine.py) into ``.cache/engine/<digest>/``.  That directory is put in front of
this package's own only when its digest is that of the sources as they are now, so an edited
module runs as Python until it is compiled again; ``DAM_ENGINE=python`` chooses Python
always.  Both builds make the same moves (tests/engine/test_compiled.py).
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

COMPILED = (
    "rules.engine.cards", "rules.engine.errors", "rules.engine.options", "rules.engine.games",
    "rules.engine.dam", "rules.engine.dolda", "rules.engine.spardame",
    "rules.engine.bots.deal", "rules.engine.bots.search", "rules.engine.bots.strong",
    "rules.engine.bots.coach", "rules.engine.bots.dam", "rules.engine.bots.dolda",
    "rules.engine.bots.spardame",
)
_ROOT = Path(__file__).resolve().parent.parent.parent


def source_digest() -> str:
    """A hash of the compiled modules' sources and of this Python's version and ABI."""
    digest = hashlib.sha256(f"{sys.version}\0{sys.implementation.cache_tag}\0".encode())
    for module in COMPILED:
        digest.update(module.encode() + b"\0")
        digest.update((_ROOT / (module.replace(".", "/") + ".py")).read_bytes())
    return digest.hexdigest()[:20]


def compiled_dir() -> Path:
    """Where the build for the sources as they are now is (or would be)."""
    return _ROOT / ".cache" / "engine" / source_digest()


def _compiled() -> Path | None:
    # No __path__: this file imported as a plain module (``rules.engine.__init__``).
    path: list[str] | None = globals().get("__path__")
    if path is None or os.environ.get("DAM_ENGINE") == "python":
        return None
    where = compiled_dir()
    if not (where / "BUILT").exists():
        return None
    sys.path.append(str(where))  # mypyc's shared library of the compiled modules
    path.insert(0, str(where / "rules" / "engine"))
    return where


# The directory the compiled modules come from; None: every module runs as Python.
COMPILED_FROM = _compiled()
