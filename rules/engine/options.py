"""Options as frozen dataclasses: every house rule a named field with a default.

Each field carries ``metadata={"choices": (...)}``; :func:`build_options` turns the
``rules`` object of a scenario (a preset plus overrides) into an options instance and
rejects unknown options or values.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .errors import ScenarioError

if TYPE_CHECKING:
    from _typeshed import DataclassInstance


def choice(default: Any, choices: tuple[Any, ...]) -> Any:
    """A dataclass field whose value must be one of ``choices``."""
    return dataclasses.field(default=default, metadata={"choices": choices})


def _normalise(value: Any, choices: tuple[Any, ...]) -> Any:
    # JSON has no None literal that people type by hand, so "none" means None.
    if value == "none" and None in choices:
        return None
    if isinstance(value, str) and value.upper() in choices and value.upper() != value:
        return value.upper()
    return value


def build_options[T: DataclassInstance](cls: type[T], presets: Mapping[str, Mapping[str, Any]],
                                        default_preset: str, rules: Mapping[str, Any] | None) -> T:
    rules = dict(rules or {})
    preset = rules.pop("preset", default_preset)
    # Any JSON value may stand here: a list or an object is no name (and is unhashable).
    if not isinstance(preset, str) or preset not in presets:
        shown = preset if isinstance(preset, str) else json.dumps(preset, default=str)
        raise ScenarioError("unknown_preset", preset=shown, known=", ".join(presets))
    values = dict(presets[preset])
    fields = {f.name: f for f in dataclasses.fields(cls)}
    for key, value in rules.items():
        if key not in fields:
            raise ScenarioError("unknown_option", option=key)
        values[key] = value
    checked = {}
    for key, value in values.items():
        choices = fields[key].metadata["choices"]
        value = _normalise(value, choices)
        # bool is an int in Python: keep True from passing as 1 and the reverse.
        if not any(value == c and type(value) is type(c) for c in choices):
            shown = ", ".join("none" if c is None else str(c).lower() if isinstance(c, bool) else str(c)
                              for c in choices)
            raise ScenarioError("bad_option_value", option=key,
                                value=json.dumps(value, default=str), allowed=shown)
        checked[key] = value
    return cls(**checked)


def options_to_dict(options: Any) -> dict[str, Any]:
    return dataclasses.asdict(options)


def option_choices(cls: type[DataclassInstance]) -> dict[str, tuple[Any, ...]]:
    return {f.name: f.metadata["choices"] for f in dataclasses.fields(cls)}
