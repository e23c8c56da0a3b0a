"""The fork server gives what a fresh interpreter gives: the same stdout, stderr and exit status, byte for byte.

Byte for byte wherever a fresh interpreter agrees with itself: an object's
address or id (``<... at 0x7f...>``, "BatchTracer with object id 1400...")
changes from one fresh run to the next, so when the fork server's run differs
from a fresh one, a second fresh run must differ too, and the fork server's
must then match token for token everywhere the two fresh runs agree.

A sample of golden programs (failing ``before.py`` programs of four rules,
fixed and reference programs, a multi-file case under ``-m``) and small
programs for the corners (exit codes, chained tracebacks, writes below
Python, atexit, warnings, argv, cwd). ``JAXFIX_PROGRAMS_EQUALITY=all`` checks
every golden program instead (about fifteen minutes here).
"""

from __future__ import annotations

import os
import re
import textwrap
from pathlib import Path

import pytest

from . import programs
from .goldencases import ROOT as GOLDEN

pytestmark = pytest.mark.skipif(not programs.forking_works(), reason="programs run fresh on this system")

MULTI = GOLDEN / "multi"


def _golden_sample() -> list[programs.Request]:
    env = programs.program_env()
    if os.environ.get("JAXFIX_PROGRAMS_EQUALITY") == "all":
        scripts = sorted(GOLDEN.glob("JAX*/*/*.py"))
        modules = sorted(p for p in MULTI.glob("*/*") if p.is_dir())
    else:
        scripts = [
            GOLDEN / "JAX101" / "seed000_eager" / "before.py",
            GOLDEN / "JAX101" / "seed000_eager" / "after.py",
            GOLDEN / "JAX201" / "seed001_ravel_config" / "before.py",
            GOLDEN / "JAX301" / "seed004_vmap" / "before.py",
            GOLDEN / "JAX301" / "seed004_vmap" / "reference.py",
            GOLDEN / "JAX402" / "issue4798_minimum_arange" / "before.py",
        ]
        modules = [MULTI / "imported_branches" / "before", MULTI / "imported_branches" / "after"]
    requests = [programs.Request("script", str(p), p.parent, env) for p in scripts]
    for tree in modules:
        run = next(line for line in (tree.parent / "case.toml").read_text().splitlines() if line.startswith("run"))
        module = run.split("=", 1)[1].strip().strip('"')
        requests.append(programs.Request("module", module, tree, {**env, "PYTHONPATH": str(tree)}))
    return requests


SAMPLE = _golden_sample()
_TOKEN = re.compile(rb"0x[0-9a-f]+|\d+|\w+|\s+|.", re.DOTALL)


def _agrees(forked: bytes, fresh: bytes, again: bytes) -> bool:
    """`forked` equals `fresh` wherever `fresh` and `again` (two fresh runs) agree, token by token."""
    tokens = [_TOKEN.findall(stream) for stream in (forked, fresh, again)]
    if len({len(t) for t in tokens}) != 1:
        return False
    return all(b != c or a == b for a, b, c in zip(*tokens))


def assert_same_as_fresh(request_: programs.Request) -> programs.RawRun:
    """The program forked, and (a script) in the warm runner after whatever this test process ran
    there before it, each gives what a fresh interpreter gives. A script the runner declines (it
    leaves a thread or an atexit handler) must be one that uses threading or atexit."""
    forked = programs.run_forked(request_)
    assert forked is not None, "the fork server refused the request"
    runs = {"the fork server": forked}
    if request_.mode == "script":
        warm = programs.run_warm(request_)
        if warm is None:
            assert re.search(r"\b(?:threading|atexit)\b", Path(request_.target).read_text()), "the warm runner declined it"
        else:
            runs["the warm runner"] = warm
    fresh = programs.run_fresh(request_)
    again = None
    for name, run in runs.items():
        if run == fresh:
            continue
        again = again or programs.run_fresh(request_)
        assert again != fresh, f"a fresh interpreter repeats itself and {name} differs:\n{run}\n{fresh}"
        assert run.returncode == fresh.returncode, name
        assert _agrees(run.stdout, fresh.stdout, again.stdout), (name, run.stdout, fresh.stdout)
        assert _agrees(run.stderr, fresh.stderr, again.stderr), (name, run.stderr, fresh.stderr)
    return fresh


@pytest.mark.parametrize(
    "request_", SAMPLE, ids=[f"{Path(r.target).parent.name}/{Path(r.target).name}" if r.mode == "script" else f"{r.cwd.parent.name}/{r.cwd.name}" for r in SAMPLE]
)
def test_a_golden_program_gives_what_a_fresh_interpreter_gives(request_: programs.Request) -> None:
    assert_same_as_fresh(request_)


CORNERS = {
    "exit_with_message": 'import sys\nprint("out")\nsys.exit("a message: exit status 1")\n',
    "exit_code": "raise SystemExit(3)\n",
    "exit_none": "import sys\nprint('bye')\nsys.exit()\n",
    "chained": textwrap.dedent(
        """\
        def inner():
            return {}["missing"]

        try:
            inner()
        except KeyError as error:
            raise ValueError("while reading") from error
        """
    ),
    "context": "try:\n    1 / 0\nexcept ZeroDivisionError:\n    undefined_name\n",
    "syntax_error": "def broken(:\n    pass\n",
    "below_python": 'import os, sys\nprint("é ünïcode ✓", flush=True)\nos.write(1, b"raw out\\n")\nos.write(2, b"raw err\\n")\nprint("after", file=sys.stderr)\n',
    "identity": textwrap.dedent(
        """\
        import os, sys
        print(__name__, __file__, sys.argv, sys.path[0], os.getcwd(), __spec__, __package__, __cached__)
        print(sorted(globals()), type(__loader__).__name__, __builtins__)
        print(sys.stdout.encoding, sys.stdout.errors, sys.stdout.line_buffering, sys.stdout.write_through)
        print(sys.stderr.encoding, sys.stderr.errors, sys.stderr.line_buffering, sys.stdin.name, sys.stdout.name)
        import __main__
        print(__main__.__dict__ is globals())
        """
    ),
    "atexit_and_warning": textwrap.dedent(
        """\
        import atexit, sys, warnings
        atexit.register(lambda: print("atexit ran", file=sys.stderr))
        warnings.warn("deprecated here", DeprecationWarning)
        print("body")
        """
    ),
    "shutdown_order": textwrap.dedent(
        """\
        import atexit, sys, threading, time

        class Noisy:
            def __del__(self):
                print("finalised at shutdown", flush=True)

        keep = Noisy()

        def late():
            time.sleep(0.05)
            print("thread finished after the main code")

        threading.Thread(target=late).start()
        atexit.register(lambda: print("atexit after the thread"))
        sys.stdout.write("no newline, still buffered")
        """
    ),
    "dataclass_in_main": textwrap.dedent(
        """\
        from __future__ import annotations
        from dataclasses import dataclass
        import pickle

        @dataclass(frozen=True)
        class Point:
            x: int

        print(pickle.loads(pickle.dumps(Point(3))))
        """
    ),
    "jax_error": textwrap.dedent(
        """\
        import jax
        import jax.numpy as jnp

        @jax.jit
        def f(n):
            return jnp.zeros((n,))

        print(f(3))
        """
    ),
}


@pytest.mark.parametrize("name", sorted(CORNERS))
def test_corner_programs_give_what_a_fresh_interpreter_gives(name: str, tmp_path: Path) -> None:
    program = tmp_path / f"{name}.py"
    program.write_text(CORNERS[name], encoding="utf-8")
    request_ = programs.Request("script", str(program), tmp_path, programs.program_env(), ("an", "argument"))
    fresh = assert_same_as_fresh(request_)
    assert fresh.stdout or fresh.stderr or fresh.returncode  # every corner says something


#: A program that changes what the next program in its process would see, then one that looks.
LEAKS = {
    "changes": textwrap.dedent(
        """\
        import builtins, logging, sys, warnings
        import jax
        import numpy as np
        import helper

        jax.config.update("jax_enable_x64", True)
        jax.config.update("jax_debug_nans", True)
        np.set_printoptions(precision=2)
        warnings.simplefilter("ignore")
        logging.basicConfig(level=logging.INFO)
        logging.getLogger("jaxfix.test").info("configured")
        builtins.answer = 42
        sys.setrecursionlimit(12345)
        sys.path.insert(0, "/nowhere")
        sys.excepthook = lambda *exc: print("hooked")
        print(helper.VALUE, np.pi * np.ones(2))
        """
    ),
    "looks": textwrap.dedent(
        """\
        import logging, sys, warnings
        import jax.numpy as jnp
        import numpy as np
        import helper

        print(helper.VALUE, jnp.arange(3).dtype, np.pi * np.ones(2), sys.getrecursionlimit(), "/nowhere" in sys.path)
        print(jnp.array(1.0, dtype=jnp.float64).dtype)  # a warning JAX shows once per place, per process
        warnings.warn("a warning of the program's own")
        logging.getLogger("jaxfix.test").info("not shown")
        logging.getLogger("jaxfix.test").warning("shown")
        print(jnp.log(-1.0))  # nan, unless debug_nans stayed on
        try:
            answer
        except NameError:
            print("no answer")
        raise ValueError("the interpreter's own hook prints this")
        """
    ),
}


def test_the_warm_runner_puts_back_what_a_program_changed(tmp_path: Path) -> None:
    """Two programs in turn in one warm runner, each with a module `helper` of its own beside it:
    the second sees nothing of what the first changed (JAX options, NumPy's print options, the
    warning filters and registries, logging, builtins, the recursion limit, sys.path, the
    exception hook, the first one's `helper`), and gives what a fresh interpreter gives."""
    runs = []
    for number, name in enumerate(("changes", "looks"), start=1):
        folder = tmp_path / name
        folder.mkdir()
        (folder / "helper.py").write_text(f"VALUE = {number}\n")
        (folder / "main.py").write_text(LEAKS[name])
        request_ = programs.Request("script", str(folder / "main.py"), folder, programs.program_env())
        warm = programs.run_warm(request_)
        assert warm is not None, "the warm runner declined it"
        runs.append((warm, programs.run_fresh(request_)))
    (changed, changed_fresh), (looked, looked_fresh) = runs
    assert changed == changed_fresh
    assert looked == looked_fresh
    assert b"float32" in looked.stdout and b"nan" in looked.stdout and b"no answer" in looked.stdout  # not vacuous


def test_a_program_that_leaves_a_thread_runs_in_a_child_of_its_own(tmp_path: Path) -> None:
    program = tmp_path / "late.py"
    program.write_text(CORNERS["shutdown_order"])
    request_ = programs.Request("script", str(program), tmp_path, programs.program_env(), warm=True)
    assert programs.run_warm(request_) is None
    assert programs.run(request_) == programs.run_fresh(request_)  # the server forked it instead


def test_each_child_draws_its_own_random_numbers(tmp_path: Path) -> None:
    """Children of one fork would share the generators' state; a fresh interpreter seeds its own."""
    program = tmp_path / "draw.py"
    program.write_text("import random\nimport numpy as np\nprint(random.random(), np.random.rand())\n")
    request_ = programs.Request("script", str(program), tmp_path, programs.program_env())
    draws = {programs.run_forked(request_).stdout for _ in range(3)}  # type: ignore[union-attr]
    assert len(draws) == 3


def test_a_program_with_another_start_up_environment_gets_a_server_started_with_it(tmp_path: Path) -> None:
    """PYTHONHASHSEED is read when the interpreter starts: a child of a server started without it
    would hash as its parent does, so each start-up environment has its own server."""
    program = tmp_path / "seed.py"
    program.write_text("print(hash('jaxfix'))\n")
    seeded = [programs.Request("script", str(program), tmp_path, programs.program_env(PYTHONHASHSEED=seed)) for seed in "78"]
    assert [assert_same_as_fresh(r) for r in seeded] == [programs.run_forked(r) for r in seeded]
    assert programs.run_forked(seeded[0]) != programs.run_forked(seeded[1])


def test_a_server_refuses_a_program_whose_start_up_environment_is_not_its_own(tmp_path: Path) -> None:
    program = tmp_path / "seed.py"
    program.write_text("print(1)\n")
    server = programs._server(programs.program_env())
    assert server.run(programs.Request("script", str(program), tmp_path, programs.program_env(PYTHONHASHSEED="9"))) is None
    assert server.run(programs.Request("script", str(program), tmp_path, programs.program_env(PYTHONPATH="/x"))).stdout == b"1\n"


def test_results_are_cached_by_what_can_change_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(programs, "cache_dir", tmp_path / "cache")
    monkeypatch.setenv("JAXFIX_TEST_PROGRAMS", "fresh")
    program = tmp_path / "work" / "count.py"
    program.parent.mkdir()
    program.write_text("print(1)\n")
    runs: list[programs.Request] = []
    fresh = programs.run_fresh
    monkeypatch.setattr(programs, "run_fresh", lambda request: runs.append(request) or fresh(request))
    first = programs.run_script(program)
    assert first.stdout == "1\n" and len(runs) == 1
    assert programs.run_script(program) == first and len(runs) == 1  # from the cache
    (program.parent / "helper.py").write_text("VALUE = 2\n")  # a file beside it may be imported
    assert programs.run_script(program) == first and len(runs) == 2
    assert programs.run_script(program, "an argument") == first and len(runs) == 3


# -- `python -m jaxfix` forked from a server that imported its command line ----------------------

CLI_RUNS = {
    "findings": (["check", "--no-cache", "pitfall.py"], None, {}),
    "diff": (["diff", "pitfall.py"], None, {}),
    "version": (["--version"], None, {}),
    "usage_error": (["check", "--no-such-flag"], None, {}),
    "missing_file": (["check", "--no-cache", "absent.py"], None, {}),
    "stdin": (["check", "--no-cache", "-"], "import jax\nimport jax.numpy as jnp\n\n@jax.jit\ndef f(x):\n    return not jnp.all(x)\n", {}),
    "environment": (["check", "--no-cache", "pitfall.py"], None, {"JAXFIX_OUTPUT_FORMAT": "json", "JAXFIX_SELECT": "JAX309"}),
}


@pytest.mark.parametrize("name", sorted(CLI_RUNS))
def test_the_command_line_gives_what_a_fresh_interpreter_gives(name: str, tmp_path: Path) -> None:
    """tests/helpers.jaxfix forks `python -m jaxfix` from a server (`programs.run_cli`): each run,
    an error and a usage message included, is byte for byte what a fresh interpreter prints."""
    from .helpers import env

    (tmp_path / "pitfall.py").write_text("import jax\n\n\n@jax.jit\ndef f(x, y):\n    return x > 0 and y > 0\n")
    args, stdin, extra = CLI_RUNS[name]
    data = stdin.encode() if stdin is not None else None
    request_ = programs.Request("module", "jaxfix", tmp_path, env(**extra), tuple(args), data)
    forked = programs._server(request_.env, programs.CLI_PRELOAD).run(request_)
    assert forked is not None, "the command-line server refused the request"
    fresh = programs.run_fresh(request_)
    assert forked == fresh
