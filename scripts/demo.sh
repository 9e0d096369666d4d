#!/usr/bin/env bash
# The main job on the shipped data: import into a fresh demo store, list, summarise.
set -euo pipefail
bt="$1"; db="$2"
mkdir -p "$(dirname "$db")"
rm -f "$db" "$db-wal" "$db-shm"
"$bt" data import data/GOOG.csv data/EURUSD.csv --db "$db"
"$bt" data list --db "$db"
"$bt" data summary --db "$db"
