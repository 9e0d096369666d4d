#!/usr/bin/env bash
# Browser tests of report.html in headless Chromium (make test-browser).
#
#   Tests/Browser/run.sh [--bt PATH] [--no-install] [REPORT_DIR_OR_PAGE ...]
#
# Installs what it needs (scripts/install-browser-deps.sh: Debian's chromium, chromium-driver and
# python3-selenium), lets the bt binary (--bt, default: a debug build made here) write real report
# folders (Tests/Browser/make_reports.py: a run, a run on hourly bars, a sweep with walk-forward, a
# screen, a chart page, replays of a synthetic L2 market) and checks them, plus any report folders or pages given, with
# Tests/Browser/test_reports.py: tooltips read back against `bt data export`. Screenshots go to
# .build/test-artifacts/browser. The first-paint benchmark is separate: make bench-html.
set -euo pipefail
cd "$(dirname "$0")/../.."

install=1 bt="" extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --no-install) install=0 ;;
    --bt) bt="$2"; shift ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) extra+=("$1") ;;
  esac
  shift
done

if [ "$install" = 1 ]; then bash scripts/install-browser-deps.sh; fi
# Debian's Python has python3-selenium; a Python earlier on PATH (pyenv) may not.
# The venv exists only when Debian's selenium was too old.
PY=/usr/bin/python3
if [ -x .build/browser-venv/bin/python3 ]; then PY=.build/browser-venv/bin/python3; fi
"$PY" -c 'import selenium' || { echo "error: selenium is missing (scripts/install-browser-deps.sh installs it)" >&2; exit 2; }

if [ -z "$bt" ]; then
  swift build --product bt
  bt=.build/debug/bt
fi
artifacts=.build/test-artifacts/browser
mkdir -p "$artifacts"
"$PY" Tests/Browser/make_reports.py --bt "$bt" --out .build/browser-reports
"$PY" Tests/Browser/test_reports.py .build/browser-reports "${extra[@]}" --exports .build/browser-reports/exports \
  --artifacts "$artifacts"
