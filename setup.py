"""Build step: ship one verified golden before/after pair per rule with the package.

Everything else about the package is in pyproject.toml. ``jaxfix explain``
shows these pairs; writing them at build time from golden/ (the cases the
tests run) means an installed jaxfix shows exactly what was verified.
"""

import importlib.util
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


class BuildPyWithGoldenExamples(build_py):
    def run(self) -> None:
        super().run()
        spec = importlib.util.spec_from_file_location("golden_examples", HERE / "codemods" / "golden_examples.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        target = Path(self.build_lib) / "jaxfix" / "codemods" / module.INDEX_NAME
        target.parent.mkdir(parents=True, exist_ok=True)
        module.write_index(HERE / "golden", target)


setup(cmdclass={"build_py": BuildPyWithGoldenExamples})
