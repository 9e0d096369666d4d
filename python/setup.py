"""Puts libbt.so into the wheel: from $BT_LIB when set, else from the clone's release build
(../.build/release/libbt.so, made by `make lib`), else the debug build. The wheel is then
platform-specific (it carries a shared library).

Everything the build writes (setuptools' `build/` and `btcore.egg-info/`) goes to a temporary
directory removed when the build ends, never into the clone: `pip install ./python` leaves the
tree as it was (scripts/test-python.sh checks this)."""
import atexit
import os
import shutil
import tempfile
from pathlib import Path

from setuptools import setup
from setuptools.command.build import build
from setuptools.command.build_py import build_py
from setuptools.command.egg_info import egg_info
from setuptools.dist import Distribution

HERE = Path(__file__).resolve().parent
# One per process: pip runs each build step (metadata, wheel) as a process of its own.
SCRATCH = Path(tempfile.mkdtemp(prefix="btcore-build-"))
atexit.register(shutil.rmtree, SCRATCH, ignore_errors=True)


def find_library():
    given = os.environ.get("BT_LIB")
    if given:
        return Path(given)
    for config in ("release", "debug"):
        for name in ("libbt.so", "libBacktestC.so"):
            candidate = HERE.parent / ".build" / config / name
            if candidate.exists():
                return candidate
    return None


class BuildOutOfTree(build):
    """`build/` (build_py's lib, bdist_wheel's staging) in the scratch directory."""
    def initialize_options(self):
        super().initialize_options()
        self.build_base = str(SCRATCH / "build")


class EggInfoOutOfTree(egg_info):
    """`btcore.egg-info/` in the scratch directory, unless the caller names a place (pip's
    metadata step does)."""
    def initialize_options(self):
        super().initialize_options()
        self.egg_base = str(SCRATCH)


class BuildWithLibrary(build_py):
    def run(self):
        super().run()
        library = find_library()
        if library is None or not library.exists():
            raise SystemExit("btcore: libbt.so not found: run `make lib` in the bt clone first, or set BT_LIB to its path")
        target = Path(self.build_lib) / "btcore" / "libbt.so"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(library.resolve(), target)


class BinaryDistribution(Distribution):
    def has_ext_modules(self):
        return True


setup(cmdclass={"build": BuildOutOfTree, "egg_info": EggInfoOutOfTree, "build_py": BuildWithLibrary},
      distclass=BinaryDistribution)
