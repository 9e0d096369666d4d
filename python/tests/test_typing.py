"""btcore's signatures are complete (py.typed promises it): mypy finds every function annotated
(--disallow-untyped-defs, --disallow-incomplete-defs) and the annotations consistent with the
code, pandas and numpy's stubs included."""
import subprocess
import sys

from conftest import REPO


def test_mypy_finds_every_signature_complete_and_consistent():
    done = subprocess.run([sys.executable, "-m", "mypy", "btcore", "--ignore-missing-imports", "--disallow-untyped-defs",
                           "--disallow-incomplete-defs", "--cache-dir", "/dev/null"],
                          cwd=REPO / "python", capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
