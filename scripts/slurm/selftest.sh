#!/usr/bin/env bash
# Self-test of scripts/slurm/cluster.sh: starts a single-node cluster in a temporary folder, runs a
# 4-task job array and an afterok merge job, then a second array with one task cancelled (the merge
# must never run), and stops the cluster. Needs root (installs the packages when missing).
#
#   scripts/slurm/selftest.sh          exit 0 when every check passed
#
# BT_SLURM_SELFTEST_KEEP=1 keeps the temporary folder; it is always kept when a check fails.
# BT_SLURM_KILL_INVALID_DEPEND=1 runs the same test with slurmctld cancelling the merge job itself.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cluster=$here/cluster.sh
dir=$(mktemp -d /tmp/bt-slurm-selftest.XXXXXX)
state=$dir/cluster
work=$dir/shared
mkdir -p "$work/logs"
passed=0 failed=0
pids_before=""

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
say() { printf 'selftest: %s\n' "$*"; }
ok() { passed=$((passed + 1)); say "ok   $*"; }
bad() { failed=$((failed + 1)); say "FAIL $*"; }
check() { # check DESCRIPTION COMMAND...
    local what=$1; shift
    if "$@"; then ok "$what"; else bad "$what"; fi
}
fatal() {
    bad "$*"
    exit 1
}

cleanup() {
    local rc=$?
    trap - EXIT
    local t0; t0=$(now)
    if [[ -d $state/pids ]]; then
        "$cluster" stop "$state" || { bad "cluster.sh stop failed"; rc=1; }
        say "stop took $(elapsed "$t0") s"
    fi
    if [[ -n $pids_before ]]; then
        local p alive=""
        for p in $pids_before; do [[ -d /proc/$p ]] && ! grep -q '^State:.*Z' "/proc/$p/status" 2>/dev/null && alive+="$p "; done
        if [[ -z $alive ]]; then ok "every recorded daemon is gone after stop"; else bad "still running after stop: $alive"; rc=1; fi
        set +e; "$cluster" status "$state" >/dev/null 2>&1; local st=$?; set -e
        if [[ $st == 3 ]]; then ok "status reports stopped (exit 3)"; else bad "status exit $st after stop, want 3"; rc=1; fi
    fi
    ((failed == 0)) || rc=1
    if [[ $rc == 0 && ${BT_SLURM_SELFTEST_KEEP:-0} != 1 ]]; then
        rm -rf "$dir"
    else
        say "kept $dir for inspection (daemon logs in $state/log)"
    fi
    say "total $(elapsed "$t_total") s"
    echo "$passed passed, $failed failed"
    exit "$rc"
}
t_total=$(now)
trap cleanup EXIT

# ------------------------------------------------------------------ start
t0=$(now)
env_lines=$("$cluster" start "$state") || fatal "cluster.sh start failed"
eval "$env_lines"
t_start=$(elapsed "$t0")
say "start took $t_start s (includes installing if the packages were missing)"
check "start printed SLURM_CONF inside the state folder" test "${SLURM_CONF:-}" = "$state/slurm.conf"
pids_before=$(cut -d' ' -f1 "$state"/pids/*.pid | tr '\n' ' ')
check "status reports running (exit 0)" "$cluster" status "$state"

# ------------------------------------------------------------------ job scripts
cat >"$work/task.sh" <<'EOF'
#!/bin/bash
# task.sh OUT_DIR [GATE_FILE]: one array task; waits for GATE_FILE first when given.
set -eu
out=$1
if [ -n "${2:-}" ]; then
    for _ in $(seq 1 600); do [ -e "$2" ] && break; sleep 0.1; done
    [ -e "$2" ] || { echo "gate $2 never appeared" >&2; exit 1; }
fi
f=$out/part-$SLURM_ARRAY_TASK_ID.txt
echo "$SLURM_ARRAY_TASK_ID $SLURM_ARRAY_TASK_COUNT $SLURM_ARRAY_JOB_ID $SLURM_JOB_ID" >"$f.tmp"
mv "$f.tmp" "$f"
EOF
cat >"$work/merge.sh" <<'EOF'
#!/bin/bash
# merge.sh OUT_DIR: concatenates the parts in task order.
set -eu
cd "$1"
ls part-*.txt | sort -t- -k2 -n | xargs cat >merged.txt.tmp
mv merged.txt.tmp merged.txt
EOF
chmod +x "$work/task.sh" "$work/merge.sh"

job_field() { # job_field JOBID FIELD: value of FIELD in `scontrol show job -o` (first record)
    scontrol show job -o "$1" 2>/dev/null | head -1 | tr ' ' '\n' | sed -n "s/^$2=//p"
}
is_number() { [[ $1 =~ ^[0-9]+$ ]]; }

# ------------------------------------------------------------------ 1: array + afterok merge
t0=$(now)
run1=$work/run1
mkdir -p "$run1"
a1=$(sbatch --parsable --array=0-3 --job-name=bt-task \
    --output="$work/logs/task-%A_%a.out" "$work/task.sh" "$run1")
check "sbatch --parsable prints a bare job id for the array ('$a1')" is_number "$a1"
m1=$(sbatch --parsable --dependency=afterok:"$a1" --job-name=bt-merge \
    --output="$work/logs/merge-%j.out" "$work/merge.sh" "$run1")
check "sbatch --parsable prints a bare job id for the merge ('$m1')" is_number "$m1"
set +e
records=$("$cluster" wait "$state" --timeout 60 "$a1" "$m1")
rc=$?
set -e
printf '%s\n' "$records" | sed 's/^/    /'
check "array and merge job all COMPLETED (wait exit $rc)" test "$rc" = 0
expect=""
for i in 0 1 2 3; do expect+="$i 4 $a1"$'\n'; done
check "merged.txt holds every task id with SLURM_ARRAY_TASK_COUNT=4 and SLURM_ARRAY_JOB_ID=$a1" \
    test "$(cut -d' ' -f1-3 "$run1/merged.txt" 2>/dev/null)"$'\n' = "$expect"
check "each task has its own SLURM_JOB_ID" \
    test "$(cut -d' ' -f4 "$run1/merged.txt" 2>/dev/null | sort -u | wc -l)" = 4
check "output files follow --output=task-%A_%a.out" \
    test -e "$work/logs/task-${a1}_0.out" -a -e "$work/logs/task-${a1}_3.out" -a -e "$work/logs/merge-$m1.out"
t_run1=$(elapsed "$t0")
say "array + merge took $t_run1 s"

# ------------------------------------------------------------------ 2: one task cancelled
t0=$(now)
run2=$work/run2
mkdir -p "$run2"
gate=$work/gate2
a2=$(sbatch --parsable --array=0-3 --job-name=bt-task \
    --output="$work/logs/task-%A_%a.out" "$work/task.sh" "$run2" "$gate")
m2=$(sbatch --parsable --dependency=afterok:"$a2" --job-name=bt-merge \
    --output="$work/logs/merge-%j.out" "$work/merge.sh" "$run2")
# Tasks 0 and 1 run (2 CPUs), 2 and 3 pend; all wait for the gate. Cancel task 1 while it runs.
st=""
for _ in $(seq 1 300); do
    st=$(job_field "${a2}_1" JobState)
    [[ $st == RUNNING ]] && break
    sleep 0.1
done
[[ $st == RUNNING ]] || fatal "task ${a2}_1 did not start (state '$st')"
scancel "${a2}_1"
for _ in $(seq 1 100); do
    st=$(job_field "${a2}_1" JobState)
    [[ $st == CANCELLED ]] && break
    sleep 0.1
done
check "scancel ${a2}_1 leaves that task CANCELLED" test "$st" = CANCELLED
touch "$gate"
set +e
records=$("$cluster" wait "$state" --timeout 60 "$a2")
rc=$?
set -e
printf '%s\n' "$records" | sed 's/^/    /'
check "wait on the array reports the cancelled task (exit $rc)" test "$rc" = 1
check "tasks 0, 2, 3 COMPLETED and task 1 CANCELLED" test "$(awk '{ print $1, $2 }' <<<"$records")" = \
    "$(printf '%s\n' "${a2}_0 COMPLETED" "${a2}_1 CANCELLED" "${a2}_2 COMPLETED" "${a2}_3 COMPLETED")"
check "parts of tasks 0, 2, 3 written, none of task 1" \
    test "$(cd "$run2" && echo part-*.txt)" = "part-0.txt part-2.txt part-3.txt"
# The afterok job can never start now. Without kill_invalid_depend it stays PENDING with
# Reason=DependencyNeverSatisfied (cluster.sh wait counts that as finished); with it slurmctld
# cancels the job itself.
set +e
records=$("$cluster" wait "$state" --timeout 60 "$m2")
rc=$?
set -e
printf '%s\n' "$records" | sed 's/^/    /'
read -r _ m2_state m2_reason _ <<<"$records"
check "merge job is stuck on DependencyNeverSatisfied (state $m2_state, reason $m2_reason, wait exit $rc)" \
    test "$rc" = 1 -a "$m2_reason" = DependencyNeverSatisfied
if [[ $m2_state == PENDING ]]; then
    scancel "$m2"
    for _ in $(seq 1 100); do
        m2_state=$(job_field "$m2" JobState)
        [[ $m2_state == CANCELLED ]] && break
        sleep 0.1
    done
fi
check "merge job ends CANCELLED" test "$m2_state" = CANCELLED
check "merge job never ran (no merged.txt, no output file)" \
    test ! -e "$run2/merged.txt" -a ! -e "$work/logs/merge-$m2.out"
check "queue is empty" test -z "$(squeue -h)"
t_run2=$(elapsed "$t0")
say "cancel scenario took $t_run2 s"
