"""A process that imports JAX once and runs each program in a forked child, as ``python`` would.

    python tests/forkserver.py        (started by tests/programs.py; speaks JSON lines)
    python tests/forkserver.py --preload jaxfix.codemods.cli    (the same for `python -m jaxfix`)

Each golden program used to pay a fresh interpreter and a fresh ``import jax``
(about a second here) before doing a few milliseconds of work. This process
imports jax without initialising a backend (no threads, no devices: safe to
fork), then for each request forks a child that becomes what a fresh
``python program.py`` or ``python -m package.module`` would be:

* stdin from /dev/null (or the bytes the request gives, as ``input=`` would
  write them), stdout and stderr into files at the file-descriptor
  level (what XLA writes from C++ is captured too), wrapped in text streams
  configured as this interpreter configured its own at start-up (encoding,
  errors, buffering), which is how a fresh one would configure them;
* the requested working folder, environment and ``sys.argv``; ``sys.path[0]``
  the script's folder (or the working folder for ``-m``), then ``PYTHONPATH``;
* a fresh ``__main__`` module with exactly the names the interpreter gives it,
  the source compiled under its absolute path, ``-m`` through
  ``runpy._run_module_as_main`` as the interpreter itself does;
* the random generators reseeded (a fork would otherwise share them);
* an uncaught exception printed by ``sys.excepthook`` with this file's frames
  cut off its traceback, then exit 1; ``SystemExit`` read as the interpreter
  reads it; then what the interpreter's shutdown does that a program can see
  (threads joined, atexit handlers run, streams flushed), without tearing down
  the modules (`_shut_down`).

``tests/test_programs.py`` holds the result (stdout, stderr, exit status) byte
for byte to a fresh interpreter's. Only the interpreter's start-up state is
shared: a request whose environment differs from this process's in anything
but ``PYTHONPATH`` is refused, and the caller runs it in a fresh interpreter.

Requests and answers are JSON lines on this process's stdin and stdout; the
answer's streams are base64. This file imports nothing from the project.
"""

from __future__ import annotations

import base64
import builtins
import io
import json
import os
import select
import signal
import sys
import tempfile
import time
import types
import weakref
from importlib.machinery import SourceFileLoader

#: What a request may set differently from this process's start-up environment: PYTHONPATH (sys.path
#: is rebuilt from it), and what pytest changes between tests. Everything else is read at start-up.
FREE_VARIABLES = frozenset({"PYTHONPATH", "PYTEST_CURRENT_TEST"})
#: What a request to a server that preloads jaxfix's command line may set differently too: variables
#: jaxfix, git and the review read when they run, never when a module is imported (typer reads
#: GITHUB_ACTIONS on import: it is not among them).
RUN_TIME_PREFIXES = ("JAXFIX_", "_JAXFIX_", "GITHUB_", "COMP_")
RUN_TIME_VARIABLES = frozenset({"HOME", "PATH"})


def free_variable(key: str, preloaded: bool) -> bool:
    """May a request set `key` differently from this process's start-up environment?"""
    if not preloaded:
        return key in FREE_VARIABLES
    if key == "PYTHONPATH" or key == "GITHUB_ACTIONS":
        return False  # the preloaded modules were found on it / were imported reading it
    return key in FREE_VARIABLES or key in RUN_TIME_VARIABLES or key.startswith(RUN_TIME_PREFIXES)


def _stream_config(stream) -> dict:
    """How the interpreter set up one of its standard streams (before we touched it)."""
    return {
        "encoding": stream.encoding,
        "errors": stream.errors,
        "line_buffering": stream.line_buffering,
        "write_through": stream.write_through,
        "unbuffered": isinstance(stream.buffer, io.RawIOBase),
    }


def _stream(fd: int, mode: str, name: str, config: dict):
    """A standard stream as the interpreter makes it (Python/pylifecycle.c create_stdio)."""
    raw = io.FileIO(fd, mode, closefd=False)
    raw.name = name  # the interpreter names them "<stdout>" ...
    if config["unbuffered"] and mode == "w":
        buffer = raw
    else:
        buffer = io.BufferedWriter(raw) if mode == "w" else io.BufferedReader(raw)
    return io.TextIOWrapper(
        buffer,
        encoding=config["encoding"],
        errors=config["errors"],
        newline="\n",
        line_buffering=config["line_buffering"],
        write_through=config["write_through"],
    )


def _fresh_main() -> types.ModuleType:
    """``__main__`` as the interpreter creates it, before the program's code runs."""
    module = types.ModuleType("__main__")
    module.__dict__.update({"__annotations__": {}, "__builtins__": builtins})
    sys.modules["__main__"] = module
    return module


def _reseed() -> None:
    """A fresh interpreter seeds its generators from the system; a fork copies its parent's."""
    import random

    random.seed()
    numpy_random = sys.modules.get("numpy.random")
    if numpy_random is not None:
        numpy_random.seed()


def _program_traceback(tb, request: dict):
    """The traceback without this file's frames: from the first frame a fresh run would show."""
    if request["mode"] == "module":
        first = lambda code: code.co_name == "_run_module_as_main"  # noqa: E731  # runpy's frame, as `-m` shows
    else:
        path = request["target"]
        first = lambda code: code.co_filename == path and code.co_name == "<module>"  # noqa: E731
    while tb is not None and not first(tb.tb_frame.f_code):
        tb = tb.tb_next
    return tb


#: How many entries after ``sys.path[0]`` this process's own ``PYTHONPATH`` put there (a server that
#: preloads modules keeps it, so that they come from where a fresh interpreter would find them).
_STARTUP_PATH = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]


def _run(request: dict) -> int:
    """Become the program; its exit status (SystemExit passes through to the interpreter)."""
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    _reseed()
    extra_path = [p for p in request["env"].get("PYTHONPATH", "").split(os.pathsep) if p]
    replaced = 1 + len(_STARTUP_PATH)  # sys.path[0] and the entries the start-up PYTHONPATH made
    try:
        if request["mode"] == "module":
            import runpy

            sys.argv = ["-m", *request["args"]]
            sys.path[0:replaced] = [os.getcwd(), *extra_path]
            _fresh_main()
            runpy._run_module_as_main(request["target"], alter_argv=True)
        else:
            path = request["target"]
            sys.argv = [request["argv0"], *request["args"]]
            sys.path[0:replaced] = [os.path.dirname(path), *extra_path]
            module = _fresh_main()
            module.__dict__.update({"__file__": path, "__cached__": None, "__loader__": SourceFileLoader("__main__", path)})
            with open(path, "rb") as handle:
                code = compile(handle.read(), path, "exec", dont_inherit=True)
            exec(code, module.__dict__)
    except SystemExit:
        raise
    except BaseException as error:  # what the interpreter does with an uncaught exception
        # The hook prints the exception's own traceback (PyErr_Display), so it is cut there.
        traceback = _program_traceback(error.__traceback__, request)
        sys.excepthook(type(error), error.with_traceback(traceback), traceback)
        return 1
    return 0


def _child(request: dict, stdout, stderr, configs: dict) -> None:
    _standard_streams(request, stdout, stderr, configs)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        status = _run(request)
    except SystemExit as exit:
        status = _exit_status(exit.code)
    _shut_down(status)


def _standard_streams(request: dict, stdout, stderr, configs: dict) -> None:
    """Descriptors 0, 1 and 2 as the program gets them (stdin from the request or /dev/null, the
    others into `stdout` and `stderr`), and the streams the interpreter wraps them in."""
    if request.get("stdin") is not None:  # what `subprocess.run(input=...)` writes to the pipe
        given = tempfile.TemporaryFile()
        given.write(base64.b64decode(request["stdin"]))
        given.seek(0)
        os.dup2(given.fileno(), 0)
        given.close()
    else:
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
    os.dup2(stdout.fileno(), 1)
    os.dup2(stderr.fileno(), 2)
    sys.stdin = sys.__stdin__ = _stream(0, "r", "<stdin>", configs["stdin"])
    sys.stdout = sys.__stdout__ = _stream(1, "w", "<stdout>", configs["stdout"])
    sys.stderr = sys.__stderr__ = _stream(2, "w", "<stderr>", configs["stderr"])


def _exit_status(code) -> int:
    """What the interpreter makes of ``SystemExit(code)``: None is 0, an int itself, anything else
    printed to stderr and 1."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    try:
        sys.stderr.write(f"{code}\n")
    except Exception:  # noqa: BLE001 - the interpreter ignores a failure to print it too
        pass
    return 1


def _shut_down(status: int) -> None:
    """The part of the interpreter's shutdown a program can see, in its order: non-daemon threads
    joined, atexit handlers run, the program's namespace cleared (its objects' ``__del__``), the
    standard streams flushed (a failed flush of stdout is exit 120). Then the process ends without tearing down its modules, which with jax, flax and equinox
    loaded took 0.3 s of every run here and prints nothing (tests/test_programs.py holds each
    program's bytes and status to a fresh interpreter's)."""
    import atexit
    import threading

    try:
        threading._shutdown()  # type: ignore[attr-defined]
    except BaseException:  # noqa: BLE001 - the interpreter reports it as unraisable and exits as it would
        _unraisable("threading._shutdown")
    atexit._run_exitfuncs()
    os._exit(_finalised(status))


def _finalised(status: int) -> int:
    """The end of a program's shutdown: its namespace cleared (its objects' ``__del__``, as the
    interpreter's teardown runs them), the standard streams flushed (a failed flush of stdout
    is exit 120). The exit status."""
    import gc

    main = sys.modules.get("__main__")
    if main is not None:
        main.__dict__.clear()
    gc.collect()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001
            if stream is sys.stdout and status == 0:
                status = 120
    return status


def _unraisable(where: str) -> None:
    """What the interpreter prints for an exception it cannot raise during its shutdown, the exit
    status unchanged ("Exception ignored in: ..." and the traceback, on stderr)."""
    import traceback

    try:
        sys.stderr.write(f"Exception ignored in: {where}\n")
        traceback.print_exc(file=sys.stderr)
    except Exception:  # noqa: BLE001
        pass


def _wait(pid: int, timeout: float) -> int | None:
    """The child's wait status, or None (and the child killed) after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    pidfd = os.pidfd_open(pid) if hasattr(os, "pidfd_open") else None
    try:
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                return status
            left = deadline - time.monotonic()
            if left <= 0:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                return None
            if pidfd is not None:
                select.select([pidfd], [], [], left)
            else:
                time.sleep(min(left, 0.005))
    finally:
        if pidfd is not None:
            os.close(pidfd)


def serve(requests, answers, configs: dict, environment: dict, preloaded: bool) -> None:
    runner = _WarmRunner(configs, (requests, answers))
    try:
        for line in requests:
            request = json.loads(line)
            differs = {k for k in set(environment) | set(request["env"]) if environment.get(k) != request["env"].get(k)}
            fixed = sorted(k for k in differs if not free_variable(k, preloaded))
            if fixed:
                answer = {"refused": f"environment differs in {fixed}"}
            else:
                answer = runner.run(request) if request.get("warm") else None
                if answer is None:
                    answer = _forked(request, configs)
                elif "returncode" in answer:
                    answer["warm"] = True  # the runner ran it (tests/test_programs.py asks)
            answers.write(json.dumps(answer).encode() + b"\n")
            answers.flush()
    finally:
        runner.stop()


def _forked(request: dict, configs: dict) -> dict:
    """The program in a child of its own, which becomes it (`_child`)."""
    with tempfile.TemporaryFile() as stdout, tempfile.TemporaryFile() as stderr:
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            _child(request, stdout, stderr, configs)
        status = _wait(pid, request["timeout"])
        if status is None:
            return {"timeout": request["timeout"]}
        return _answer(os.waitstatus_to_exitcode(status), stdout, stderr)


def _answer(returncode: int, stdout, stderr) -> dict:
    stdout.seek(0)
    stderr.seek(0)
    return {
        "returncode": returncode,
        "stdout": base64.b64encode(stdout.read()).decode(),
        "stderr": base64.b64encode(stderr.read()).decode(),
    }


# -- the warm runner: many programs, one after another, in one process ----------------------------
#
# A forked child pays what JAX does once per process: its CPU client, the first lowering, and the
# compilation of every primitive it applies eagerly (``jnp.ones(3)`` compiles a broadcast). Over the
# golden programs that was two thirds of each run (0.31 s a program forked, 0.11 s one after another
# in one process). A request marked "warm" (tests/programs.py marks the programs that cannot reach
# what the runner cannot undo) runs in the warm runner: a child of this server that initialises the
# backend and then runs each program in a fresh ``__main__``, with the standard descriptors, streams,
# working folder, environment and argv a fresh interpreter gives (`_standard_streams`, `_run`), and
# afterwards puts back what a program can change that the next one would see (`_Baseline`). Where a
# program leaves what cannot be put back (a thread still running, an atexit handler, a JAX option that
# will not change back), its result is not given: the runner retires and the program runs again in
# a child of its own. tests/test_programs.py holds the runner's results, run after one another, to a
# fresh interpreter's bytes.

#: Programs a runner serves before it retires (its caches grow with every program).
_WARM_RUNS = 150


class _WarmRunner:
    """The server's side of the warm runner: started on the first warm request, restarted after
    it retires or dies; a request it cannot answer gets None (the server forks a child for it)."""

    def __init__(self, configs: dict, protocol: tuple) -> None:
        self._configs = configs
        self._protocol = protocol  # the server's own pipes, which the runner must not hold open
        self._pid: int | None = None
        self._to = self._back = None

    def run(self, request: dict) -> dict | None:
        if self._pid is None:
            self._start()
        try:
            self._to.write(json.dumps(request).encode() + b"\n")  # type: ignore[union-attr]
            self._to.flush()  # type: ignore[union-attr]
        except OSError:
            self.stop(kill=True)
            return None
        if not select.select([self._back], [], [], request["timeout"])[0]:
            self.stop(kill=True)
            return {"timeout": request["timeout"]}
        line = self._back.readline()  # type: ignore[union-attr]
        if not line:  # it died with the program (``os._exit``, a crash): a child of its own runs it
            self.stop(kill=True)
            return None
        answer = json.loads(line)
        if answer.pop("retired", False):
            self.stop()
        return None if "unsure" in answer else answer

    def _start(self) -> None:
        requests_read, requests_write = os.pipe()
        answers_read, answers_write = os.pipe()
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            try:
                for stream in self._protocol:
                    stream.close()
                os.close(requests_write)
                os.close(answers_read)
                _warm_loop(os.fdopen(requests_read, "rb"), os.fdopen(answers_write, "wb"), self._configs)
            finally:
                os._exit(0)
        os.close(requests_read)
        os.close(answers_write)
        self._pid = pid
        self._to = os.fdopen(requests_write, "wb")
        self._back = os.fdopen(answers_read, "rb")

    def stop(self, kill: bool = False) -> None:
        if self._pid is None:
            return
        if kill:
            os.kill(self._pid, signal.SIGKILL)
        for stream in (self._to, self._back):
            try:
                stream.close()  # type: ignore[union-attr]
            except OSError:
                pass
        os.waitpid(self._pid, 0)
        self._pid = None
        self._to = self._back = None


def _warm_loop(requests, answers, configs: dict) -> None:
    """The runner: the backend initialised once, then each program in turn (`_run_warm`)."""
    import gc

    import jax
    import jax.numpy as jnp

    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    jnp.zeros(1).block_until_ready()  # the CPU client, and what a first computation loads
    del jax, jnp
    # weakref.finalize registers its atexit hook at its first use, once per process (JAX's tracing
    # uses it): registered now, it is not read as a handler a program left.
    weakref.finalize(_Baseline, int).detach()
    gc.collect()
    gc.freeze()
    baseline = _Baseline()
    for served, line in enumerate(requests, start=1):
        answer = _run_warm(json.loads(line), configs, baseline)
        if served >= _WARM_RUNS or "unsure" in answer:
            answer["retired"] = answer.get("retired") or "enough"
        answers.write(json.dumps(answer).encode() + b"\n")
        answers.flush()
        if answer.get("retired"):
            return


def _run_warm(request: dict, configs: dict, baseline: _Baseline) -> dict:
    """One program in this process, as `_child` runs it in a fork, then `baseline` put back."""
    import gc

    with tempfile.TemporaryFile() as stdout, tempfile.TemporaryFile() as stderr:
        _standard_streams(request, stdout, stderr, configs)
        try:
            status = _run(request)
        except SystemExit as exit:
            status = _exit_status(exit.code)
        left = baseline.left_behind()  # what the interpreter's shutdown would still run
        status = _finalised(status)
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.close(null)
        stuck = baseline.restore()
        gc.freeze()  # what outlives the program (JAX's caches) is not garbage the next one makes
        if left:
            return {"unsure": left}
        answer = _answer(status, stdout, stderr)
        if stuck:
            answer["retired"] = stuck  # the program ran as it would anywhere; the next one may not
        return answer


class _Baseline:
    """What a program can change in its process that the next program would see, as it was before
    the first; `restore` puts it back. The working folder, the environment, argv, ``__main__``,
    the random generators and the standard streams are set for each program anyway (`_run`)."""

    def __init__(self) -> None:
        import atexit
        import logging
        import threading
        import warnings

        import jax
        import numpy

        self.path = list(sys.path)
        self.modules = dict(sys.modules)
        self.builtins = dict(builtins.__dict__)
        self.warnings = list(warnings.filters)
        self.recursion = sys.getrecursionlimit()
        self.hooks = (sys.excepthook, sys.displayhook, sys.breakpointhook, sys.unraisablehook, sys.gettrace(), sys.getprofile())
        self.threads = threading.active_count()
        self.exit_handlers = atexit._ncallbacks()
        self.jax = dict(jax.config.values)
        self.numpy = (numpy.get_printoptions(), numpy.geterr())
        root = logging.getLogger()
        self.logging = (list(root.handlers), root.level, {n: getattr(l, "level", None) for n, l in logging.Logger.manager.loggerDict.items()})

    def left_behind(self) -> str:
        """What the interpreter's shutdown would still do for the program (join its threads, run
        its atexit handlers), which a process that goes on cannot do as it would: "" if nothing."""
        import atexit
        import threading

        if threading.active_count() != self.threads:
            return "a thread the program started"
        if atexit._ncallbacks() != self.exit_handlers:
            return "an atexit handler"
        return ""

    def restore(self) -> str:
        """Put back what the program changed; "" when all of it went back, else what did not."""
        import logging
        import warnings

        import jax
        import numpy

        sys.path[:] = self.path
        for name in set(sys.modules) - set(self.modules):
            if not _installed(sys.modules[name]):
                del sys.modules[name]  # the program's own modules: the next program may have its own of that name
        sys.modules.update(self.modules)
        for name in set(builtins.__dict__) - set(self.builtins):
            del builtins.__dict__[name]
        builtins.__dict__.update(self.builtins)
        warnings.filters[:] = self.warnings
        warnings.onceregistry.clear()
        warnings._filters_mutated()  # type: ignore[attr-defined]  # every module's "shown once" registry starts again
        sys.setrecursionlimit(self.recursion)
        sys.excepthook, sys.displayhook, sys.breakpointhook, sys.unraisablehook = self.hooks[:4]
        sys.settrace(self.hooks[4])
        sys.setprofile(self.hooks[5])
        numpy.set_printoptions(**self.numpy[0])
        numpy.seterr(**self.numpy[1])
        root = logging.getLogger()
        root.handlers[:] = self.logging[0]
        root.setLevel(self.logging[1])
        for name, logger in list(logging.Logger.manager.loggerDict.items()):
            if name not in self.logging[2]:
                del logging.Logger.manager.loggerDict[name]
            elif isinstance(logger, logging.Logger) and logger.level != self.logging[2][name]:
                logger.setLevel(self.logging[2][name])
        changed = [name for name, value in jax.config.values.items() if not _same(value, self.jax.get(name))]
        for name in changed:
            try:
                jax.config.update(name, self.jax[name])
            except Exception:  # noqa: BLE001 - an option that is set once per process
                return f"the JAX option {name}"
        return ""


def _installed(module) -> bool:
    """A module of the interpreter or of an installed distribution (kept once imported: a library
    imported again would register its primitives, pytrees and dialects twice)."""
    import sysconfig

    spec = getattr(module, "__spec__", None)
    origin = getattr(spec, "origin", None) or getattr(module, "__file__", None)
    if origin in ("built-in", "frozen"):
        return True
    roots = {sysconfig.get_path(k) for k in ("stdlib", "platstdlib", "purelib", "platlib")}
    places = [origin] if origin else list(getattr(module, "__path__", ()))
    return bool(places) and all(any(os.path.abspath(p).startswith(r + os.sep) for r in roots if r) for p in places)


def _same(a, b) -> bool:
    try:
        return bool(a is b or a == b)
    except Exception:  # noqa: BLE001 - an array-valued option, say
        return False


def _share_compilations(jax) -> None:
    """Let the children share what XLA compiles: a compilation cache in a folder of this server's
    own, which it removes when it stops. The golden programs compile the same small functions
    again and again (a case's before, after and reference, its variants); a child finds what an
    earlier one compiled instead of compiling it again. One server runs one child at a time, so
    no two processes write the folder at once. It changes nothing a program prints: JAX logs a
    cache hit or miss only at debug level. ``JAXFIX_TEST_XLA_CACHE=0`` turns it off.

    Not one folder for every server of a run: JAX locks a folder only in its eviction mode, which
    lists and reads every entry at each write (quadratic over a run), and without the lock a reader
    may meet a half-written entry, which JAX reports with a warning a program's output would hold."""
    if os.environ.get("JAXFIX_TEST_XLA_CACHE") == "0":
        return
    import atexit
    import shutil

    folder = tempfile.mkdtemp(prefix="jaxfix-xla-cache-")
    server = os.getpid()
    # Only the server removes it: a child runs the atexit handlers it inherited when its program ends
    # (`_shut_down`), and each child removed the folder under the next one's feet.
    atexit.register(lambda: os.getpid() == server and shutil.rmtree(folder, ignore_errors=True))
    jax.config.update("jax_compilation_cache_dir", folder)
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)
    jax.config.update("jax_persistent_cache_min_entry_size_bytes", -1)


def main() -> None:
    configs = {name: _stream_config(getattr(sys, name)) for name in ("stdin", "stdout", "stderr")}
    environment = dict(os.environ)
    # The protocol moves off the standard descriptors, which the children take over.
    requests = os.fdopen(os.dup(0), "rb")
    answers = os.fdopen(os.dup(1), "wb")
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)
    preload = sys.argv[2].split(",") if len(sys.argv) > 2 and sys.argv[1] == "--preload" else None
    if preload is not None:
        # Modules a program would import (jaxfix's command line: libcst, typer, rich), imported once
        # from this process's path, which PYTHONPATH is part of: a request must keep it (`free_variable`).
        for module in preload:
            __import__(module)
    else:
        import jax  # the point of this process: imported once, no backend initialised
        import jax.numpy  # noqa: F401

        _share_compilations(jax)

        # The pytree libraries some golden programs use (2-4 s each to import). Importing them starts
        # no thread and no backend, so forking stays safe, and prints nothing a fresh interpreter would.
        for library in ("flax.struct", "equinox"):
            try:
                __import__(library)
            except ImportError:
                pass

    # What this process imported is never garbage a program makes: the children's collections pass
    # it by (each child's gc.collect() at exit and the collections while it runs walked every object
    # of jax, flax and equinox, and copied their memory pages: `print(1)` took 0.09 s, now 0.016 s).
    import gc

    gc.freeze()
    answers.write(b'{"ready": true}\n')
    answers.flush()
    serve(requests, answers, configs, environment, preload is not None)


if __name__ == "__main__":
    main()
