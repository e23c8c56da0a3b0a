"""Shared by the scripts of docs/jax4xx-cases and docs/jax302-cases: run a thunk, print `label: OK <result>` or `label: <Error>: <text>`.

The error text is the first line, plus the last `TypeError:` line when the
message has one (the non-hashable error's second part). FULL=1 prints it all.
"""
import os

import numpy as np

FULL = os.environ.get("FULL") == "1"


def _short(value):
    try:
        return np.asarray(value).tolist()
    except Exception:
        return repr(value)


def probe(label, thunk):
    try:
        value = thunk()
    except Exception as error:  # noqa: BLE001 - every failure is the finding
        kind = type(error)
        lines = str(error).strip().splitlines() or [""]
        text = lines[0]
        tail = [l for l in lines[1:] if l.startswith("TypeError:")]
        if tail:
            text += " | " + tail[-1]
        print(f"{label}: {kind.__module__}.{kind.__qualname__}: {text}")
        if FULL:
            print(str(error))
        return None
    print(f"{label}: OK {_short(value)}")
    return value
