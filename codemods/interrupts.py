"""Ctrl-C and SIGTERM end a run, even when Python swallows the interrupt they raise.

SIGTERM is made to act as Ctrl-C does: the handler raises ``KeyboardInterrupt``
and the command ends with every file whole (old or fixed) and exit 128+signal.
But Python runs a signal handler wherever the main thread happens to be, and
some of those places cannot pass an exception on: an after-fork hook (starting
the worker pool forks, and ``logging`` releases its lock after each fork), a
``__del__``, a weakref callback. There the interrupt is printed as "Exception
ignored" and lost, and the run went on to its end. So the handler also records
the signal: `raise_if_interrupted`, which the engine calls between files,
raises it again, and `_unraisable` keeps the lost one from printing a
traceback.
"""

from __future__ import annotations

import os
import signal
import sys

#: The signal that stopped the run, once one has.
_received: signal.Signals | None = None
#: The process `install` ran in; a worker forked from it inherits the handlers.
_owner: int | None = None
_default_unraisable = sys.unraisablehook


def install() -> None:
    """Handle SIGINT and SIGTERM in this process (the command's), as described above."""
    global _owner
    _owner = os.getpid()
    signal.signal(signal.SIGTERM, _handler)
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _handler)
    sys.unraisablehook = _unraisable


def received() -> signal.Signals | None:
    """The signal that interrupted the run, or None."""
    return _received


def raise_if_interrupted() -> None:
    """Raise the interrupt again if a signal came and its first raise was swallowed."""
    if _received is not None and os.getpid() == _owner:
        raise KeyboardInterrupt


def _handler(signum: int, frame) -> None:
    global _received
    if os.getpid() != _owner:
        # A worker forked from the run, signalled before its initializer reset the handlers (the pool
        # ends its workers with SIGTERM): it ends as the default action would, without a traceback.
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
        return
    _received = signal.Signals(signum)
    raise KeyboardInterrupt


def _unraisable(unraisable) -> None:
    """Say nothing of an interrupt Python could not raise: `raise_if_interrupted` raises it."""
    if _received is not None and isinstance(unraisable.exc_value, KeyboardInterrupt):
        return
    _default_unraisable(unraisable)
