from .. import COMPILED_FROM

# The compiled bots come first (rules/engine/__init__.py); no __path__: imported as a module.
if COMPILED_FROM is not None and "__path__" in globals():
    globals()["__path__"].insert(0, str(COMPILED_FROM / "rules" / "engine" / "bots"))
