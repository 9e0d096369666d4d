#!/usr/bin/env bash
# Fuzzes bt's parsers: scripts/fuzz.sh SECONDS [TARGET...]   (or --build-only: just the build)
#
# Builds the libFuzzer executable of Fuzz/ (-sanitize=fuzzer,address: coverage-guided mutation,
# AddressSanitizer; one program for every target, BT_FUZZ_TARGET picks one) and runs each target
# (default: all in Fuzz/seeds.txt) for SECONDS, as many at a time as there are cores (each
# target's libFuzzer is one process on one core), starting from its seeds (Fuzz/seeds.txt, cut to
# 4 KB) and the inputs that once failed (Tests/Fixtures/fuzz/<target>/). The corpus grows in
# .build/fuzz/corpus/<target>/ across runs. `make test` starts the build early, beside the test
# suite (Fuzz/ is its own package with its own build folder); SwiftPM's lock makes a later
# build wait for it.
# A crash, a hang (an input taking over 10 s), memory over 2 GB or a failed check of FuzzTargets
# stops the run: the input is saved in .build/fuzz/findings/ and the script exits 1.
#
# When the toolchain has no libFuzzer runtime, the same targets run as the test suite's seeded
# mutation pass (FuzzRegressionTests) with BT_FUZZ_MUTATIONS raised to match SECONDS.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:?usage: scripts/fuzz.sh SECONDS [TARGET...] | --build-only}
shift
build_only=0
[ "$seconds" = --build-only ] && build_only=1
if [ $# -gt 0 ]; then targets=("$@"); else
  mapfile -t targets < <(grep -v '^#' Fuzz/seeds.txt | awk 'NF == 2 {print $1}' | awk '!seen[$0]++')
fi
swift=${SWIFT:-swift}
work=.build/fuzz
mkdir -p "$work"

# Is libFuzzer there? Link a one-line target with it.
probe="$work/probe"
mkdir -p "$probe"
cat > "$probe/probe.swift" <<'SWIFT'
@_cdecl("LLVMFuzzerTestOneInput") public func one(_ d: UnsafePointer<UInt8>?, _ n: Int) -> CInt { 0 }
SWIFT
if ! swiftc -sanitize=fuzzer,address -parse-as-library "$probe/probe.swift" -o "$probe/probe" >"$probe/log" 2>&1; then
  echo "fuzz: this toolchain has no libFuzzer runtime (see $probe/log); running the seeded mutation pass instead" >&2
  [ "$build_only" = 1 ] && exit 0
  export BT_FUZZ_MUTATIONS=$(( seconds * 2000 ))
  $swift build --build-tests
  exec $swift test --skip-build --filter FuzzRegressionTests
fi

echo "fuzz: building Fuzz/ with -sanitize=fuzzer,address" >&2
if ! $swift build --package-path Fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library >"$work/build.log" 2>&1; then
  grep -v "Cannot export local symbol" "$work/build.log" >&2 || true
  echo "fuzz: building Fuzz/ failed (the errors above, all of them in $work/build.log)" >&2
  exit 1
fi
bin=$($swift build --package-path Fuzz --show-bin-path)
[ "$build_only" = 1 ] && exit 0

exe="$bin/fuzz"
[ -x "$exe" ] || { echo "fuzz: the build left no $exe" >&2; exit 1; }
# One target for $seconds: returns 1 on a finding.
fuzz_one() {
  local target=$1 corpus="$work/corpus/$1" findings="$work/findings"
  mkdir -p "$corpus" "$findings"
  grep -v '^#' Fuzz/seeds.txt | awk -v t="$target" '$1 == t {print $2}' | while read -r seed; do
    head -c 4096 "$seed" > "$corpus/seed-$(basename "$seed")"
  done
  local dirs=("$corpus")
  [ -d "Tests/Fixtures/fuzz/$target" ] && dirs+=("Tests/Fixtures/fuzz/$target")
  echo "fuzz: $target for ${seconds}s" >&2
  if ! BT_FUZZ_TARGET="$target" "$exe" -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 -detect_leaks=0 \
       -print_final_stats=1 -artifact_prefix="$findings/$target-" "${dirs[@]}" >"$work/$target.log" 2>&1; then
    { echo "fuzz: $target FAILED; see $work/$target.log and the input in $findings/"
      tail -40 "$work/$target.log"
      echo "fuzz: reproduce with BT_FUZZ_TARGET=$target $exe <input>; once fixed, commit the input to Tests/Fixtures/fuzz/$target/"
    } >&2
    return 1
  fi
  local runs
  runs=$(grep -E '^stat::number_of_executed_units' "$work/$target.log" | awk '{print $2}')
  echo "fuzz: $target ok: ${runs:-?} inputs, corpus $(ls "$corpus" | wc -l) files" >&2
}

status=0
parallel=$(nproc)
pids=()
for target in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do sleep 0.2; done
  fuzz_one "$target" &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
exit $status
