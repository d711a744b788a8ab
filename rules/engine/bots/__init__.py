from .. import COMPILED_FROM

# The compiled bots come first (rules/engine/__init__.py); no __path__: imported as a module.
_path: list[str] | None = globals().get("__path__")
if COMPILED_FROM is not None and _path is not None:
    _path.insert(0, str(COMPILED_FROM / "rules" / "engine" / "bots"))
