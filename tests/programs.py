"""Running the golden programs with real JAX: forked from a process that imported JAX once, results cached.

    run_script(path)                 what `python path.name` prints, run from its folder
    run_module("pkg.main", folder)   what `python -m pkg.main` prints, run from that folder
    run_cli(args, folder, env, ...)  what `python -m jaxfix ARGS` prints (tests/helpers.jaxfix)

Both give (returncode, stdout, stderr) as `subprocess.run(..., text=True)` would
from a fresh interpreter: `tests/forkserver.py` makes each child exactly that,
and `tests/test_programs.py` holds the bytes equal. A script that uses nothing
the server's warm runner cannot put back (`shares_a_process`) runs there, after
other programs in one process that initialised JAX once; the rest in a forked
child of its own. Where fork is not what
POSIX Linux gives (other systems), or the server refuses a request (an
environment its start-up did not have) or dies, the program runs in a fresh
interpreter instead. ``JAXFIX_TEST_PROGRAMS=fresh`` always does.

A result is cached (in pytest's cache folder, set by conftest.py) under what can
change it: the program's folder (every file's bytes and its path, which
tracebacks print), how it is run, the variables that reach JAX, XLA or
Python, and every installed distribution's version. `pytest --cache-clear`
empties it.
"""

from __future__ import annotations

import atexit
import base64
import hashlib
import json
import locale
import os
import re
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass, replace
from functools import cache
from importlib import metadata
from pathlib import Path

from .forkserver import free_variable

FORKSERVER = Path(__file__).resolve().with_name("forkserver.py")
#: Variables that can change what a program prints, so the cache key holds them.
_KEYED_PREFIXES = ("JAX", "XLA", "TF_", "PYTHON", "LC_", "LANG", "OMP", "OPENBLAS", "MKL", "CUDA", "NVIDIA")
_FORMAT = "1"
TIMEOUT = 300

#: Where results are cached (None: not cached); conftest.py sets it from pytest's cache.
cache_dir: Path | None = None


@dataclass(frozen=True)
class Run:
    returncode: int
    stdout: str
    stderr: str


@dataclass(frozen=True)
class RawRun:
    """A run as bytes, exactly as the streams received them."""

    returncode: int
    stdout: bytes
    stderr: bytes

    def text(self) -> Run:
        """Decoded as `subprocess.run(text=True)` decodes: the locale's encoding, universal newlines."""
        encoding = locale.getpreferredencoding(False)

        def decode(data: bytes) -> str:
            return data.decode(encoding).replace("\r\n", "\n").replace("\r", "\n")

        return Run(self.returncode, decode(self.stdout), decode(self.stderr))


@dataclass(frozen=True)
class Request:
    mode: str  # "script" or "module"
    target: str  # a script's absolute path, or a module's dotted name
    cwd: Path
    env: dict[str, str]
    args: tuple[str, ...] = ()
    stdin: bytes | None = None  # what `input=` writes (None: the program reads /dev/null)
    #: May run in the fork server's warm runner, after other programs in the same process
    #: (`shares_a_process`); else in a forked child of its own.
    warm: bool = False

    @property
    def argv(self) -> list[str]:
        if self.mode == "module":
            return [sys.executable, "-m", self.target, *self.args]
        return [sys.executable, os.path.relpath(self.target, self.cwd), *self.args]


#: XLA's optimizations off: a golden program is a few small functions, whose compilation is most
#: of its run (measured over the 386 reference and look-alike programs, run one after the other in
#: forked children: 188 s with, 148 s without; each printed the same). Every program a test
#: compares runs so, its reference and a fresh interpreter's run alike.
PROGRAM_XLA = {"JAX_DISABLE_MOST_OPTIMIZATIONS": "1"}


def program_env(**extra: str) -> dict[str, str]:
    """What the golden programs run with: this environment, the CPU, a fixed hash seed, and
    XLA's optimizations off (`PROGRAM_XLA`)."""
    return {**os.environ, "JAX_PLATFORMS": "cpu", "PYTHONHASHSEED": "0", **PROGRAM_XLA, **extra}


def run_script(path: Path, *args: str, env: dict[str, str] | None = None) -> Run:
    path = path.resolve()
    return run(Request("script", str(path), path.parent, env or program_env(), args, warm=shares_a_process(path))).text()


#: What a program may not use to run in the warm runner, after other programs in one process: the
#: modules that reach state the runner does not put back (threads, processes, signals, descriptors,
#: the import machinery, the collector, the locale), and JAX options read once, when the backend
#: starts (the runner's has). What it puts back is in tests/forkserver.py (`_Baseline`), and a
#: thread or an atexit handler a program leaves sends it to a child of its own all the same.
_UNSHARED = re.compile(
    r"^[ \t]*(?:import|from)[ \t]+[^\n#]*\b(?:threading|_thread|multiprocessing|concurrent|subprocess|signal"
    r"|faulthandler|ctypes|importlib|gc|locale|atexit)\b"
    r"|\b(?:sys\.modules|__import__|os\.(?:fork|_exit|close|dup2?|environ|putenv|unsetenv|chdir|umask|kill))\b"
    r"|jax_platform|num_cpu_devices|jax_cpu|xla_|XLA_|JAX_PLATFORMS|jax\.distributed|jax\.profiler",
    re.MULTILINE,
)


def shares_a_process(path: Path) -> bool:
    """May the program at `path` run after other programs in one process? Not when
    ``JAXFIX_TEST_PROGRAMS`` says ``fresh`` or ``fork``, nor when it or a module beside it (it may
    import one) uses what `_UNSHARED` lists."""
    if os.environ.get("JAXFIX_TEST_PROGRAMS") in ("fresh", "fork"):
        return False
    try:
        texts = [p.read_text(encoding="utf-8", errors="replace") for p in path.parent.glob("*.py")]
    except OSError:
        return False
    return not any(_UNSHARED.search(text) for text in texts)


def run_module(module: str, cwd: Path, *args: str, env: dict[str, str] | None = None) -> Run:
    return run(Request("module", module, cwd.resolve(), env or program_env(), args)).text()


def run(request: Request) -> RawRun:
    key = _cache_key(request) if cache_dir is not None else None
    if key is not None and (cached := _cached(key)) is not None:
        return cached
    result = None
    if os.environ.get("JAXFIX_TEST_PROGRAMS") != "fresh" and forking_works():
        result = _server(request.env).run(request)
    if result is None:
        result = run_fresh(request)
    if key is not None:
        _store(key, result)
    return result


def run_fresh(request: Request) -> RawRun:
    """The program in a fresh interpreter: the reference the fork server is held to."""
    stdin = {"input": request.stdin} if request.stdin is not None else {"stdin": subprocess.DEVNULL}
    proc = subprocess.run(request.argv, cwd=request.cwd, env=request.env, capture_output=True, timeout=TIMEOUT, **stdin)
    return RawRun(proc.returncode, proc.stdout, proc.stderr)


#: What `python -m jaxfix` imports on its way to the rules (libcst, typer, rich, every rule): a CLI
#: server imports it once. A fresh run imports less (issue 22's lazy start-up); tests/test_startup.py
#: measures that in fresh interpreters of its own.
CLI_PRELOAD = ("jaxfix.codemods.cli", "jaxfix.codemods.engine", "jaxfix.transforms.rules", "jaxfix.transforms.semantics.analysis")


def run_cli(args: list[str], cwd: Path, env: dict[str, str], stdin: str | None, timeout: float) -> subprocess.CompletedProcess[str]:
    """``python -m jaxfix ARGS`` as `subprocess.run(..., capture_output=True, text=True)` gives it,
    forked from a server that imported jaxfix's command line once (not cached: what it prints
    depends on files, git and the clock). A fresh interpreter where forking is not what Linux
    gives, where ``JAXFIX_TEST_PROGRAMS=fresh``, or where the server refuses the request."""
    data = stdin.encode(locale.getpreferredencoding(False)) if stdin is not None else None
    raw = run_cli_bytes(args, cwd, env, data, timeout)
    text = RawRun(raw.returncode, raw.stdout, raw.stderr).text()
    return subprocess.CompletedProcess(raw.args, text.returncode, text.stdout, text.stderr)


def run_cli_bytes(args: list[str], cwd: Path, env: dict[str, str], stdin: bytes | None, timeout: float) -> subprocess.CompletedProcess[bytes]:
    """`run_cli` as `subprocess.run(..., capture_output=True)` gives it: bytes in, bytes out."""
    data = stdin
    request = Request("module", "jaxfix", cwd.resolve(), env, tuple(args), data)
    result = None
    if os.environ.get("JAXFIX_TEST_PROGRAMS") != "fresh" and forking_works():
        result = _server(env, CLI_PRELOAD).run(request, timeout)
    if result is None:
        stdin_args = {"input": data} if data is not None else {}
        proc = subprocess.run(request.argv, cwd=cwd, env=env, capture_output=True, timeout=timeout, **stdin_args)
        result = RawRun(proc.returncode, proc.stdout, proc.stderr)
    return subprocess.CompletedProcess(request.argv, result.returncode, result.stdout, result.stderr)


def run_forked(request: Request) -> RawRun | None:
    """The program in a fork server's child (None: the server refused it)."""
    return _server(request.env).run(request) if forking_works() else None


def run_warm(request: Request) -> RawRun | None:
    """The program in the fork server's warm runner, after whatever it ran before (None: the
    server refused it, or ran it in a child of its own: the runner could not vouch for it)."""
    if not forking_works():
        return None
    server = _server(request.env)
    result = server.run(replace(request, warm=True))
    return result if server.ran_warm else None


def forking_works() -> bool:
    """Linux only: elsewhere fork after importing JAX is not known to be safe (macOS's libraries)."""
    return sys.platform == "linux" and hasattr(os, "fork")


# -- the fork servers: one per start-up environment, per test process --------------------------


class _Server:
    def __init__(self, env: dict[str, str], preload: tuple[str, ...] = ()) -> None:
        # A server that preloads modules found them on its PYTHONPATH: it keeps it (and requests must).
        self._env = {k: v for k, v in env.items() if k != "PYTHONPATH" or preload}
        self._preload = preload
        self._process: subprocess.Popen | None = None
        self._lock = threading.Lock()
        self._log = tempfile.TemporaryFile()
        #: The last request ran in the server's warm runner (not in a child of its own).
        self.ran_warm = False

    def _start(self) -> subprocess.Popen | None:
        preload = ["--preload", ",".join(self._preload)] if self._preload else []
        process = subprocess.Popen(
            [sys.executable, str(FORKSERVER), *preload],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._log,
            env=self._env,
            cwd=FORKSERVER.parent,
        )
        if process.stdout.readline() != b'{"ready": true}\n':  # type: ignore[union-attr]
            process.kill()
            process.wait()
            return None
        return process

    def run(self, request: Request, timeout: float = TIMEOUT) -> RawRun | None:
        """None when this server cannot run it (refused, or the server died: then it is restarted next time)."""
        message = {
            "mode": request.mode,
            "target": request.target,
            "argv0": request.argv[1] if request.mode == "script" else "-m",
            "args": list(request.args),
            "cwd": str(request.cwd),
            "env": request.env,
            "timeout": timeout,
            "stdin": base64.b64encode(request.stdin).decode() if request.stdin is not None else None,
            "warm": request.warm,
        }
        with self._lock:
            if self._process is None or self._process.poll() is not None:
                self._process = self._start()
                if self._process is None:
                    return None
            try:
                self._process.stdin.write(json.dumps(message).encode() + b"\n")  # type: ignore[union-attr]
                self._process.stdin.flush()  # type: ignore[union-attr]
                line = self._process.stdout.readline()  # type: ignore[union-attr]
            except (BrokenPipeError, OSError):
                line = b""
            if not line:
                self._process = None
                return None
        answer = json.loads(line)
        self.ran_warm = answer.get("warm", False)
        if "timeout" in answer:
            raise subprocess.TimeoutExpired(request.argv, answer["timeout"])
        if "refused" in answer:
            return None
        return RawRun(answer["returncode"], base64.b64decode(answer["stdout"]), base64.b64decode(answer["stderr"]))

    def stop(self) -> None:
        if self._process is not None and self._process.poll() is None:
            self._process.stdin.close()  # type: ignore[union-attr]
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()


_SERVERS: dict[tuple, _Server] = {}


def _server(env: dict[str, str], preload: tuple[str, ...] = ()) -> _Server:
    key = (preload, frozenset((k, v) for k, v in env.items() if not free_variable(k, bool(preload))))
    if key not in _SERVERS:
        _SERVERS[key] = _Server({k: v for k, v in env.items() if k != "PYTEST_CURRENT_TEST"}, preload)
    return _SERVERS[key]


@atexit.register
def stop_servers() -> None:
    for server in _SERVERS.values():
        server.stop()
    _SERVERS.clear()


# -- the cache ----------------------------------------------------------------------------------


@cache
def _installed() -> str:
    """Every installed distribution and its version: what the programs import comes from them."""
    names = sorted(f"{d.metadata['Name']}=={d.version}" for d in metadata.distributions())
    return "\n".join([sys.version, sys.executable, *names])


def _cache_key(request: Request) -> str:
    digest = hashlib.blake2b(digest_size=20)
    env = {k: v for k, v in request.env.items() if k.startswith(_KEYED_PREFIXES)}
    digest.update(json.dumps([_FORMAT, _installed(), request.argv, str(request.cwd), sorted(env.items())]).encode())
    folders = [request.cwd] if request.mode == "module" else [Path(request.target).parent]
    folders += [Path(p) for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    for folder in folders:
        for path in sorted(folder.rglob("*")) if request.mode == "module" else sorted(folder.glob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(str(path).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _cached(key: str) -> RawRun | None:
    try:
        entry = json.loads((cache_dir / key[:2] / f"{key}.json").read_text())  # type: ignore[operator]
        return RawRun(entry["returncode"], base64.b64decode(entry["stdout"]), base64.b64decode(entry["stderr"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _store(key: str, result: RawRun) -> None:
    folder = cache_dir / key[:2]  # type: ignore[operator]
    entry = {
        "returncode": result.returncode,
        "stdout": base64.b64encode(result.stdout).decode(),
        "stderr": base64.b64encode(result.stderr).decode(),
    }
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=folder, suffix=".tmp")
        with os.fdopen(fd, "w") as handle:
            json.dump(entry, handle)
        os.replace(temporary, folder / f"{key}.json")
    except OSError:
        pass  # an unwritable cache only costs time
