#!/usr/bin/env bash
# Fetches the real L2 sample (Bitstamp BTC/USD, 30 minutes of order-by-order events and 284
# trades) that ships inside the PyPI package ob-analytics 0.1.0, into an ignored cache folder.
#
# The package is GPL-2.0-or-later: its data and code are never committed to this repository.
# Tests fetch it at test time with this script, then convert it with convert_ob_analytics.py.
#
# Usage: Tests/Fixtures/l2/fetch_ob_analytics.sh [CACHE_DIR]
#   CACHE_DIR defaults to .cache/ob-analytics at the repository root (listed in .gitignore),
#   or $BT_L2_CACHE when set.
# Prints the path of the verified wheel on stdout. Idempotent: a cached wheel with the right
# SHA-256 is used as it is, without touching the network.
# Exit status: 0 ok; 3 the download failed (offline, or the registry is unreachable);
#              4 the downloaded file does not have the expected SHA-256.
set -euo pipefail

VERSION="0.1.0"
WHEEL="ob_analytics-${VERSION}-py3-none-any.whl"
SHA256="0326a93aaee4ea08356d8dea59868d68592623a2434bbe4d9be379fa855c9c62"

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
cache="${1:-${BT_L2_CACHE:-$root/.cache/ob-analytics}}"
mkdir -p "$cache"
wheel="$cache/$WHEEL"

sha_of() { sha256sum "$1" | cut -d' ' -f1; }

if [[ -f "$wheel" && "$(sha_of "$wheel")" == "$SHA256" ]]; then
    echo "$wheel"
    exit 0
fi

rm -f "$wheel"
tmp="$(mktemp -d "$cache/download.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
python="${PYTHON:-python3}"
if ! "$python" -m pip download --no-deps --only-binary=:all: --disable-pip-version-check \
        --no-cache-dir --timeout 30 --retries 1 -d "$tmp" "ob-analytics==${VERSION}" >"$tmp/pip.log" 2>&1; then
    echo "error: could not download ob-analytics==${VERSION} from PyPI (offline, or the registry is unreachable)." >&2
    echo "       The real L2 sample is fetched at test time and never committed (GPL-2.0-or-later)." >&2
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
echo "$wheel"
