#!/usr/bin/env bash
# make perf-check / make perf-baseline: instruction counts of bt's hot paths under callgrind,
# compared with the committed baseline (Benchmarks/baseline.json). Times on a shared machine are
# noise; instruction counts repeat to a few parts in a million, so a 3% rise is a real change.
#
#   scripts/perf-check.sh            count every workload, fail when one rises more than 3%
#   scripts/perf-check.sh --update   count every workload and rewrite the baseline
#   scripts/perf-check.sh NAME...    only these workloads (bt bench kernel --list names them)
#
# Each workload runs in `bt bench kernel NAME` on the release build: set up and run once
# uncounted, then counted between callgrind's start and stop requests (every thread). valgrind
# (Debian) is installed by scripts/install-deps.sh; it must be present when bt is built, since
# its header provides the requests. Valgrind 3.19 cannot read the DWARF 5 that Swift emits, so
# the counted binary is a copy without debug sections (its symbol table stays for
# callgrind_annotate .build/perf/NAME.callgrind; counts do not depend on either).
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
update=0
names=()
for arg in "$@"; do
  case "$arg" in
    --update) update=1 ;;
    -*) echo "usage: scripts/perf-check.sh [--update] [WORKLOAD...]" >&2; exit 2 ;;
    *) names+=("$arg") ;;
  esac
done
command -v valgrind >/dev/null || bash scripts/install-deps.sh
command -v valgrind >/dev/null || { echo "error: valgrind is not installed (Debian package valgrind)" >&2; exit 1; }

$SWIFT build -c release --product bt >&2
bt=.build/release/bt
if ! $bt bench kernel indicator_sma_20 >/dev/null 2>.build/perf-probe.err; then
  if grep -q "valgrind's headers" .build/perf-probe.err; then
    # Built before valgrind was installed: rebuild the shim against valgrind/callgrind.h.
    touch Sources/CCallgrind/callgrind.c
    $SWIFT build -c release --product bt >&2
  else
    cat .build/perf-probe.err >&2; exit 1
  fi
fi
out=.build/perf
rm -rf "$out" && mkdir -p "$out"
strip --strip-debug -o "$out/bt" "$bt"
[ ${#names[@]} -gt 0 ] || mapfile -t names < <("$out/bt" bench kernel --list)

start=$(date +%s)
# Two at a time (this machine has 2 cores); each count is independent of the others.
printf '%s\n' "${names[@]}" | xargs -P "$(nproc)" -I{} sh -c \
  'valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$1/$2.callgrind" "$1/bt" bench kernel "$2" \
     >"$1/$2.log" 2>&1 || { echo "error: bt bench kernel $2 failed under callgrind:" >&2; tail -20 "$1/$2.log" >&2; exit 255; }' \
  _ "$out" {}
echo "perf-check: ${#names[@]} workloads counted in $(( $(date +%s) - start )) s" >&2

python3 - "$update" "$out" "${names[@]}" <<'PY'
import json, re, subprocess, sys
update, out, names = sys.argv[1] == "1", sys.argv[2], sys.argv[3:]
path = "Benchmarks/baseline.json"
counts = {}
for name in names:
    with open(f"{out}/{name}.callgrind") as f:
        totals = [int(m.group(1)) for line in f if (m := re.match(r"totals: (\d+)", line))]
    if not totals or totals[0] == 0:
        sys.exit(f"error: no instructions counted for {name} (is bt built with valgrind/callgrind.h?)")
    counts[name] = totals[0]
try:
    with open(path) as f:
        baseline = json.load(f)
except FileNotFoundError:
    baseline = {"tolerance": 0.03, "instructions": {}}
tolerance = baseline.get("tolerance", 0.03)
old = baseline.get("instructions", {})
toolchain = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.splitlines()
toolchain = toolchain[0].strip() if toolchain else "unknown"
valgrind = subprocess.run(["valgrind", "--version"], capture_output=True, text=True).stdout.strip()

print(f"{'workload':<26} {'baseline':>15} {'now':>15} {'change':>8}")
worse = []
for name in names:
    now = counts[name]
    if name in old:
        change = now / old[name] - 1
        flag = "  RISE" if change > tolerance else ("  fell: update the baseline" if change < -tolerance else "")
        print(f"{name:<26} {old[name]:>15,} {now:>15,} {change:>+8.2%}{flag}")
        if change > tolerance:
            worse.append(f"{name}: {now:,} instructions against {old[name]:,} in the baseline ({change:+.2%})")
    else:
        print(f"{name:<26} {'(none)':>15} {now:>15,}")
        worse.append(f"{name}: not in {path}")

if update:
    merged = dict(old)
    merged.update(counts)
    baseline = {
        "about": "Instructions counted by callgrind in `bt bench kernel NAME` (release build); "
                 "make perf-check fails when one rises by more than `tolerance`; make perf-baseline rewrites it.",
        "toolchain": toolchain, "valgrind": valgrind, "tolerance": tolerance,
        "instructions": dict(sorted(merged.items())),
    }
    with open(path, "w") as f:
        json.dump(baseline, f, indent=2)
        f.write("\n")
    print(f"wrote {path}: review its diff and say in the commit why counts changed", file=sys.stderr)
    sys.exit(0)
if baseline.get("toolchain") not in (None, toolchain):
    print(f"note: the baseline was counted with {baseline['toolchain']}; this is {toolchain}", file=sys.stderr)
if worse:
    print("error: perf-check: instruction counts rose more than "
          f"{tolerance:.0%} over {path}:\n  " + "\n  ".join(worse) +
          "\nA deliberate change that costs instructions updates the baseline in the same commit "
          "(make perf-baseline) and says why.", file=sys.stderr)
    sys.exit(1)
print(f"perf-check: every workload within {tolerance:.0%} of {path}", file=sys.stderr)
PY
