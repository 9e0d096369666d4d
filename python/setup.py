"""Puts libbt.so into the wheel: from $BT_LIB when set, else from the clone's release build
(../.build/release/libbt.so, made by `make lib`), else the debug build. The wheel is then
platform-specific (it carries a shared library)."""
import os
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = Path(__file__).resolve().parent


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


setup(cmdclass={"build_py": BuildWithLibrary}, distclass=BinaryDistribution)
