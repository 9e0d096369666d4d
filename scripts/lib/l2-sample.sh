# The converted real L2 sample, for the test scripts: sourced after scripts/lib/pypi.sh.
# l2_sample [--keep-stale]: fetches ob-analytics 0.1.0 from PyPI into the ignored .cache/ (GPL
# data, never committed) once, converts it with Tests/Fixtures/l2/convert_ob_analytics.py (again
# only when the wheel or the converter is newer than the output) and prints the folder: out/, or
# out-stale/ with --keep-stale.
l2_sample() {
  local cache="${BT_L2_CACHE:-$root/.cache/ob-analytics}"
  local wheel out="$cache/out"
  [[ "${1:-}" == "--keep-stale" ]] && out="$cache/out-stale"
  wheel="$(Tests/Fixtures/l2/fetch_ob_analytics.sh "$cache")"
  if [[ ! ( -f "$out/summary.json" && "$out/summary.json" -nt "$wheel"
            && "$out/summary.json" -nt Tests/Fixtures/l2/convert_ob_analytics.py ) ]]; then
    python3 Tests/Fixtures/l2/convert_ob_analytics.py "$@" "$wheel" "$out" >/dev/null
  fi
  echo "$out"
}
