#!/usr/bin/env bash
# Browser tests of report.html in headless Chromium.
#
#   Tests/Browser/run.sh [--bench] [--no-install] [REPORT_DIR_OR_PAGE ...]
#
# Installs what it needs (Debian's chromium, chromium-driver and python3-selenium; selenium from
# PyPI in a virtual environment if Debian's is missing or older than 4.6), builds bt in release
# mode, writes sample pages from real bt output (Tests/Browser/make_samples.py) and checks them,
# plus any report folders or pages given, with Tests/Browser/test_reports.py. Screenshots go to
# .build/browser-artifacts. --bench also runs the first-paint benchmark (10k, 100k, 1M bars).
set -euo pipefail
cd "$(dirname "$0")/../.."

bench=0 install=1 extra=()
for arg in "$@"; do
  case "$arg" in
    --bench) bench=1 ;;
    --no-install) install=0 ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) extra+=("$arg") ;;
  esac
done

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
PY=/usr/bin/python3
selenium_ok() { "$1" -c 'import selenium, sys; v = tuple(int(x) for x in selenium.__version__.split(".")[:2]); sys.exit(0 if v >= (4, 6) else 1)' 2>/dev/null; }

if [ "$install" = 1 ]; then
  if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null || ! selenium_ok "$PY"; then
    $SUDO apt-get update
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y chromium chromium-driver python3-selenium
  fi
fi
if ! selenium_ok "$PY"; then
  echo "Debian's selenium is missing or too old; installing selenium from PyPI into .build/browser-venv" >&2
  "$PY" -m venv .build/browser-venv
  .build/browser-venv/bin/pip install --quiet 'selenium>=4.8'
  PY=.build/browser-venv/bin/python3
fi
command -v chromium >/dev/null && command -v chromedriver >/dev/null || { echo "error: chromium and chromedriver are required" >&2; exit 2; }

swift build -c release
mkdir -p .build/browser-artifacts
"$PY" Tests/Browser/make_samples.py --bt .build/release/bt --out .build/browser-samples
"$PY" Tests/Browser/test_reports.py .build/browser-samples "${extra[@]}" --artifacts .build/browser-artifacts
if [ "$bench" = 1 ]; then
  "$PY" Tests/Browser/bench_first_paint.py
fi
