#!/usr/bin/env bash
# Installs what the browser tests need from Debian's packages: chromium, chromium-driver and
# python3-selenium (Debian's /usr/bin/python3). Runs apt-get update first. Uses sudo when not
# root; when neither works and everything is already present, carries on. If Debian's selenium is
# older than 4.6, selenium from PyPI goes into .build/browser-venv (Tests/Browser/run.sh uses it).
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(chromium chromium-driver python3-selenium)
present() {
  command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1 && /usr/bin/python3 -c 'import selenium' 2>/dev/null
}
if [ "$(id -u)" -eq 0 ]; then
  sudo=""
elif command -v sudo >/dev/null 2>&1; then
  sudo="sudo"
else
  if present; then exit 0; fi
  echo "error: need root or sudo to install: ${packages[*]}" >&2
  exit 1
fi
if command -v apt-get >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq "${packages[@]}" >/dev/null
elif ! present; then
  echo "error: no apt-get; install chromium, chromedriver and Python selenium by hand" >&2
  exit 1
fi
recent='import selenium, sys; sys.exit(0 if tuple(int(x) for x in selenium.__version__.split(".")[:2]) >= (4, 6) else 1)'
if ! /usr/bin/python3 -c "$recent" 2>/dev/null; then
  echo "Debian's selenium is older than 4.6; installing selenium from PyPI into .build/browser-venv" >&2
  /usr/bin/python3 -m venv .build/browser-venv
  .build/browser-venv/bin/pip install --quiet 'selenium>=4.8'
fi
