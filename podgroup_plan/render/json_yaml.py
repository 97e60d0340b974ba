"""JSON and YAML renderings of a result (or diff) document.

The document is already in contract order (`PlanResult.to_dict()`, `diff.diff_plans()`); these
functions only serialise it: keys in the order given (never re-sorted), so two runs on the same
input are byte-identical.
"""
from __future__ import annotations

from typing import Any, Mapping

import orjson
import yaml


def render_json(document: Mapping[str, Any]) -> str:
    """2-space indented JSON, keys as given, UTF-8 text, one trailing newline."""
    return orjson.dumps(document, option=orjson.OPT_INDENT_2).decode("utf-8") + "\n"


# libyaml's emitter when PyYAML has it (20x faster on a 50,000-pod plan); same safe subset.
_SafeDumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def render_yaml(document: Mapping[str, Any]) -> str:
    """Block-style YAML, keys as given; long messages are kept on one line (no folding)."""
    return yaml.dump(
        dict(document),
        Dumper=_SafeDumper,
        sort_keys=False,
        default_flow_style=False,
        allow_unicode=True,
        width=1 << 30,
    )
