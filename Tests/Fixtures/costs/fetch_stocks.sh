#!/usr/bin/env bash
# Fetches real daily bars of four US large caps (AAPL, GOOG, IBM, MSFT; 2000-03-01 to
# 2013-03-01, unadjusted open, high, low, close and volume) that ship inside the PyPI package
# bokeh-sampledata 2026.1 (bokeh_sampledata/_data/stocks.csv.gz: Quandl WIKI Prices, which the
# package records as public domain), into an ignored cache folder, and writes one CSV per ticker
# there (date,open,high,low,close,volume) for `bt data import`.
#
# Nothing of it is committed: the tests that use it (`make test-largecaps`) fetch it at test time.
#
# Usage: Tests/Fixtures/costs/fetch_stocks.sh [CACHE_DIR]
#   CACHE_DIR defaults to .cache/stocks at the repository root (listed in .gitignore), or
#   $BT_STOCKS_CACHE when set.
# Prints the folder holding AAPL.csv, GOOG.csv, IBM.csv and MSFT.csv on stdout. Idempotent: a
# cached wheel with the right SHA-256 is used as it is, without touching the network.
# Exit status: 0 ok; 3 the download failed (offline, or the registry is unreachable);
#              4 the downloaded file does not have the expected SHA-256.
set -euo pipefail

VERSION="2026.1"
WHEEL="bokeh_sampledata-${VERSION}-py3-none-any.whl"
SHA256="f40331a40ca30c64a1c1471835aad9006b61b0d9731a3f649ee8cbbf48d3822f"

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
. "$root/scripts/lib/pypi.sh"
cache="${1:-${BT_STOCKS_CACHE:-$root/.cache/stocks}}"
python="${PYTHON:-python3}"
wheel="$(fetch_pinned_wheel bokeh-sampledata "$VERSION" "$WHEEL" "$SHA256" "$cache")"

out="$cache/csv"
if [[ ! -f "$out/MSFT.csv" || "$out/MSFT.csv" -ot "$wheel" ]]; then
    mkdir -p "$out"
    "$python" - "$wheel" "$out" <<'PY'
import csv, gzip, io, sys, zipfile
wheel, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(wheel) as z:
    text = gzip.decompress(z.read("bokeh_sampledata/_data/stocks.csv.gz")).decode()
rows = {}
for r in csv.DictReader(io.StringIO(text)):
    rows.setdefault(r["Ticker"], []).append(r)
for ticker in ("AAPL", "GOOG", "IBM", "MSFT"):
    with open(f"{out}/{ticker}.csv", "w") as f:
        f.write("date,open,high,low,close,volume\n")
        for r in sorted(rows[ticker], key=lambda r: r["Date"]):
            f.write(",".join([r["Date"], r["Open"], r["High"], r["Low"], r["Close"], r["Volume"]]) + "\n")
PY
fi
echo "$out"
