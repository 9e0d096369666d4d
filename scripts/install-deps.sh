#!/usr/bin/env bash
# Installs bt's system dependencies from Debian's packages: pkg-config, GSL, SQLite, zlib and
# libcrypto (libssl-dev: SHA-256) and libwebsockets (bt live's WebSocket client) headers, the time-zone database (tzdata) that --tz reads,
# libcurl4 (FoundationNetworking's HTTP client, loaded by bt at start), python3 (the local mock
# exchange the fetch tests run) with python3-venv (make test-python's venv for btcore) and
# python3-websockets (the live tests' WebSocket server, run by Debian's /usr/bin/python3),
# valgrind with binutils (make perf-check's callgrind counts;
# valgrind's header must be present when bt is built, so it is installed with the other
# headers) and nodejs (make test-js: the report page's JavaScript checked and unit-tested).
# Runs apt-get update first. Uses sudo when not root; when neither works and the packages are
# already present, carries on.
set -euo pipefail
packages=(pkg-config libgsl-dev libsqlite3-dev zlib1g-dev libssl-dev libwebsockets-dev tzdata libcurl4 python3 python3-venv
          python3-websockets valgrind binutils nodejs)
if [ "$(id -u)" -eq 0 ]; then
  sudo=""
elif command -v sudo >/dev/null 2>&1; then
  sudo="sudo"
else
  if pkg-config --exists gsl sqlite3 zlib libwebsockets 2>/dev/null && [ -d /usr/share/zoneinfo ]; then exit 0; fi
  echo "error: need root or sudo to install: ${packages[*]}" >&2
  exit 1
fi
if command -v apt-get >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq "${packages[@]}" >/dev/null
elif ! { pkg-config --exists gsl sqlite3 zlib libwebsockets 2>/dev/null && [ -d /usr/share/zoneinfo ]; }; then
  echo "error: no apt-get; install GSL, SQLite 3 and zlib headers, tzdata and pkg-config by hand" >&2
  exit 1
fi
