#!/usr/bin/env bash
# bt on a real Slurm cluster (make test-slurm): starts a single-node cluster in a temporary folder
# (scripts/slurm/cluster.sh installs Debian's slurmctld, slurmd, slurm-client and munge when
# missing), then
#   1. `bt slurm screen` over 200 synthetic symbols and `bt slurm sweep` (with walk-forward and
#      PBO), 4 tasks each; waits for both merge jobs and compares every merged file with a
#      single-process run of the same command line, byte for byte;
#   2. a further `bt slurm sweep` whose task 3 is cancelled while pending: the merge job never
#      runs, `bt merge` fails naming the missing shard (exit 2), and after `sbatch --array=3`
#      reruns that task, `bt merge` writes the same files as the single-process run;
# and stops the daemons it started, by their PIDs (cluster.sh stop), also on failure.
#
#   scripts/test-slurm.sh [--bt PATH]      (default: a debug build made here); needs root
#
# BT_SLURM_TEST_KEEP=1 keeps the temporary folder; it is kept whenever a check fails.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

bt=""
while [ $# -gt 0 ]; do
    case "$1" in
        --bt) bt="$2"; shift ;;
        -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
        *) echo "test-slurm: unknown argument $1" >&2; exit 2 ;;
    esac
    shift
done
if [ -z "$bt" ]; then
    swift build --product bt
    bt=.build/debug/bt
fi
bt=$(cd "$(dirname "$bt")" && pwd)/$(basename "$bt")
[ "$(id -u)" = 0 ] || { echo "test-slurm: needs root (the Slurm daemons of the test cluster run as root)" >&2; exit 2; }

cluster=$root/scripts/slurm/cluster.sh
dir=$(mktemp -d /tmp/bt-slurm-test.XXXXXX)
state=$dir/cluster
passed=0 failed=0
t0=$(date +%s.%N)
say() { printf 'test-slurm: %s\n' "$*"; }
ok() { passed=$((passed + 1)); say "ok   $*"; }
bad() { failed=$((failed + 1)); say "FAIL $*"; }
fatal() { bad "$*"; exit 1; }
elapsed() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }

cleanup() {
    local rc=$?
    trap - EXIT
    if [ -d "$state/pids" ]; then "$cluster" stop "$state" || { bad "cluster.sh stop failed"; rc=1; }; fi
    [ "$failed" = 0 ] || rc=1
    if [ "$rc" = 0 ] && [ "${BT_SLURM_TEST_KEEP:-0}" != 1 ]; then
        rm -rf "$dir"
    else
        say "kept $dir (job logs in */*.parts/logs, daemon logs in cluster/log)"
    fi
    say "$passed passed, $failed failed, $(elapsed "$t0") s in all"
    exit "$rc"
}
trap cleanup EXIT

env=$("$cluster" start "$state") || fatal "the cluster did not start"
eval "$env"
say "cluster up after $(elapsed "$t0") s"

db=$dir/bt.sqlite
"$bt" data synth --symbols 200 --bars 750 --db "$db" >/dev/null
screen_args=(screen ma-cross --all --db "$db" --min-trades 3 --param fast=10 --param slow=40)
sweep_args=(sweep ma-cross SYN0007 --db "$db" --grid fast=4:40:4 --grid slow=20:120:10 --where "fast<slow"
            --walk-forward 4 --pbo-blocks 8)

# Single-process runs: what the merged outputs must equal. Each run (and each merge) sits in a
# folder of its own with --out the same relative name, so the command lines in the reports agree.
mkdir -p "$dir/single" "$dir/slurm" "$dir/cancel"
t=$(date +%s.%N)
(cd "$dir/single" && "$bt" "${screen_args[@]}" --out screen >/dev/null && "$bt" "${sweep_args[@]}" --out sweep >/dev/null) \
    || fatal "single-process runs failed"
say "single-process screen and sweep took $(elapsed "$t") s"

job_id() { sed -n "s/^Submitted $1 job \([0-9][0-9]*\).*/\1/p"; }
same_files() { # same_files WHAT EXPECTED_DIR ACTUAL_DIR
    local what=$1 a=$2 b=$3 f mismatch=""
    if [ "$(cd "$a" && find . -type f | sort)" != "$(cd "$b" && find . -type f | sort)" ]; then
        bad "$what: other files than the single-process run: $(cd "$b" && find . -type f | sort | tr '\n' ' ')"
        return
    fi
    for f in $(cd "$a" && find . -type f | sort); do cmp -s "$a/$f" "$b/$f" || mismatch+="$f "; done
    if [ -z "$mismatch" ]; then
        ok "$what: $(cd "$a" && find . -type f | wc -l) files byte for byte as the single-process run"
    else
        bad "$what: differs from the single-process run in $mismatch"
    fi
}

# 1. Screen and sweep through bt slurm, 4 tasks each.
t=$(date +%s.%N)
out=$(cd "$dir/slurm" && "$bt" slurm "${screen_args[@]}" --tasks 4 --out screen) || fatal "bt slurm screen failed"
screen_array=$(job_id array <<<"$out") screen_merge=$(job_id merge <<<"$out")
out=$(cd "$dir/slurm" && "$bt" slurm "${sweep_args[@]}" --tasks 4 --out sweep) || fatal "bt slurm sweep failed"
sweep_array=$(job_id array <<<"$out") sweep_merge=$(job_id merge <<<"$out")
[ -n "$screen_array" ] && [ -n "$screen_merge" ] && [ -n "$sweep_array" ] && [ -n "$sweep_merge" ] \
    || fatal "bt slurm printed no job ids: $out"
if "$cluster" wait "$state" --timeout 300 "$screen_array" "$screen_merge" "$sweep_array" "$sweep_merge"; then
    ok "screen and sweep arrays and their merge jobs completed ($(elapsed "$t") s)"
else
    bad "a job did not complete (see $dir/slurm/*.parts/logs)"
fi
# Jobs can be COMPLETED without having run (see scripts/slurm/README.md): check the outputs.
for k in 0 1 2 3; do
    for what in screen sweep; do
        [ -f "$dir/slurm/$what.parts/shard-$k-of-4/partial.json" ] || bad "$what: no partial result of task $k"
    done
done
same_files "bt slurm screen (200 symbols)" "$dir/single/screen" "$dir/slurm/screen"
same_files "bt slurm sweep" "$dir/single/sweep" "$dir/slurm/sweep"

# 2. A task cancelled while pending leaves no job record: the merge names the missing shard from
# the files. A job holding both CPUs keeps the array pending until task 3 is cancelled.
t=$(date +%s.%N)
blocker=$(sbatch --parsable --cpus-per-task=2 --output=/dev/null --wrap "sleep 300") || fatal "cannot submit the blocking job"
blocker=${blocker%%;*}
for _ in $(seq 1 120); do
    [ "$(squeue -h -j "$blocker" -o %T 2>/dev/null)" = RUNNING ] && break
    sleep 0.25
done
[ "$(squeue -h -j "$blocker" -o %T 2>/dev/null)" = RUNNING ] || fatal "the blocking job did not start"
out=$(cd "$dir/cancel" && "$bt" slurm "${sweep_args[@]}" --tasks 4 --out sweep) || fatal "bt slurm sweep (cancel case) failed"
cancel_array=$(job_id array <<<"$out") cancel_merge=$(job_id merge <<<"$out")
scancel "${cancel_array}_3"
scancel "$blocker"
set +e
"$cluster" wait "$state" --timeout 300 "$cancel_array" "$cancel_merge" >"$dir/cancel/wait.txt"
wait_status=$?
set -e
if [ "$wait_status" = 1 ] && grep -q "^$cancel_merge PENDING DependencyNeverSatisfied" "$dir/cancel/wait.txt"; then
    ok "the merge job never runs once a task is cancelled"
else
    bad "after cancelling task 3: wait exit $wait_status, $(tr '\n' ';' <"$dir/cancel/wait.txt")"
fi
scancel "$cancel_merge"
[ ! -e "$dir/cancel/sweep.parts/shard-3-of-4" ] || bad "task 3 ran although it was cancelled while pending"
[ ! -e "$dir/cancel/sweep" ] || bad "a merged report exists although the merge job never ran"
set +e
(cd "$dir/cancel" && "$bt" merge sweep.parts --out sweep >/dev/null 2>"$dir/cancel/merge.err")
merge_status=$?
set -e
if [ "$merge_status" = 2 ] && grep -q "missing shard 3 of 4" "$dir/cancel/merge.err"; then
    ok "bt merge names the missing shard (exit 2): $(grep -o 'missing shard 3 of 4[^;]*' "$dir/cancel/merge.err")"
else
    bad "bt merge without shard 3: exit $merge_status, $(cat "$dir/cancel/merge.err")"
fi
[ ! -e "$dir/cancel/sweep" ] || bad "the failed merge left an output folder"
rerun=$(cd "$dir/cancel" && sbatch --parsable --array=3 sweep.parts/array.sbatch) || fatal "cannot resubmit task 3"
rerun=${rerun%%;*}
if "$cluster" wait "$state" --timeout 300 "$rerun" >/dev/null && [ -f "$dir/cancel/sweep.parts/shard-3-of-4/partial.json" ]; then
    ok "task 3 rerun alone (sbatch --array=3) wrote shard 3 of 4"
else
    bad "the rerun of task 3 failed"
fi
if (cd "$dir/cancel" && "$bt" merge sweep.parts --out sweep >/dev/null); then
    ok "bt merge succeeds after the rerun"
    same_files "merge after the rerun" "$dir/single/sweep" "$dir/cancel/sweep"
else
    bad "bt merge failed after the rerun"
fi
say "cancel case took $(elapsed "$t") s"
