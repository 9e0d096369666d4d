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
. "$root/scripts/lib/pypi.sh"
fetch_pinned_wheel ob-analytics "$VERSION" "$WHEEL" "$SHA256" "${1:-${BT_L2_CACHE:-$root/.cache/ob-analytics}}" \
    "The real L2 sample is fetched at test time and never committed (GPL-2.0-or-later)."
