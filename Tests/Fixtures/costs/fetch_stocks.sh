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
cache="${1:-${BT_STOCKS_CACHE:-$root/.cache/stocks}}"
mkdir -p "$cache"
wheel="$cache/$WHEEL"
python="${PYTHON:-python3}"

sha_of() { sha256sum "$1" | cut -d' ' -f1; }

if [[ ! -f "$wheel" || "$(sha_of "$wheel")" != "$SHA256" ]]; then
    rm -f "$wheel"
    tmp="$(mktemp -d "$cache/download.XXXXXX")"
    trap 'rm -rf "$tmp"' EXIT
    if ! "$python" -m pip download --no-deps --only-binary=:all: --disable-pip-version-check \
            --no-cache-dir --timeout 30 --retries 1 -d "$tmp" "bokeh-sampledata==${VERSION}" >"$tmp/pip.log" 2>&1; then
        echo "error: could not download bokeh-sampledata==${VERSION} from PyPI (offline, or the registry is unreachable)." >&2
        echo "       pip said:" >&2
        tail -n 5 "$tmp/pip.log" | sed 's/^/       /' >&2
        exit 3
    fi
    if [[ ! -f "$tmp/$WHEEL" ]]; then
        echo "error: pip did not produce $WHEEL (got: $(ls "$tmp" | tr '\n' ' '))" >&2
        exit 3
    fi
    got="$(sha_of "$tmp/$WHEEL")"
    if [[ "$got" != "$SHA256" ]]; then
        echo "error: $WHEEL has SHA-256 $got, expected $SHA256; refusing to use it." >&2
        exit 4
    fi
    mv "$tmp/$WHEEL" "$wheel"
fi

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
