#!/usr/bin/env bash
# A throw-away single-node Slurm cluster for tests, kept entirely inside one folder.
#
#   cluster.sh start  STATE_DIR   install if missing, configure, start munged + slurmctld + slurmd,
#                                 wait until the node is idle and slurmctld schedules, print
#                                 `export SLURM_CONF=...` on stdout
#   cluster.sh stop   STATE_DIR   cancel every job, stop exactly the daemons `start` recorded (by PID),
#                                 wait for them and for any job step they left, report strays
#   cluster.sh status STATE_DIR   exit 0 all running, 1 partly running, 3 stopped
#   cluster.sh env    STATE_DIR   print the export lines again
#   cluster.sh wait   STATE_DIR [--timeout SECONDS] JOBID...
#                                 wait until every record of each job (every task of an array) has
#                                 ended, print one line per record, exit 0 if all COMPLETED, 1 if
#                                 any ended otherwise or can never start (DependencyNeverSatisfied),
#                                 124 on timeout
#
# Typical use in a test script:
#   dir=$(mktemp -d)
#   trap 'scripts/slurm/cluster.sh stop "$dir"' EXIT
#   env=$(scripts/slurm/cluster.sh start "$dir") || exit 1   # not eval "$(...)": eval of the
#   eval "$env"                                              # empty output would hide a failure
#   id=$(sbatch --parsable --array=0-3 task.sh)
#   scripts/slurm/cluster.sh wait "$dir" "$id"
#
# Only stdout of `start`/`env` is meant for eval; all messages go to stderr.
# Environment knobs: BT_SLURMCTLD_PORT (6817), BT_SLURMD_PORT (6818), BT_SLURM_START_TIMEOUT (60 s),
# BT_SLURM_KILL_INVALID_DEPEND=1 (slurmctld cancels jobs whose dependency can never be satisfied).
# See scripts/slurm/README.md for the reasoning behind every configuration line.
set -euo pipefail

CTLD_PORT=${BT_SLURMCTLD_PORT:-6817}
SLURMD_PORT=${BT_SLURMD_PORT:-6818}
START_TIMEOUT=${BT_SLURM_START_TIMEOUT:-60}
KILL_INVALID_DEPEND=${BT_SLURM_KILL_INVALID_DEPEND:-0}
DAEMONS=(munged slurmctld slurmd)

log() { printf 'cluster.sh: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

usage() {
    sed -n '2,28p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

# ---------------------------------------------------------------- processes

# Start time of a process in clock ticks since boot (field 22 of /proc/PID/stat), or nothing.
# Together with the PID it identifies a process even if the PID is reused later.
proc_start() {
    local stat
    stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 0
    stat=${stat##*) }                       # drop "pid (comm) "; comm may hold spaces
    local f
    read -r -a f <<<"$stat"
    echo "${f[19]}"                         # field 22 counted from "pid" = index 19 here
}

# True while the process is alive and not a zombie. PID 1 in this container reaps late, so an
# exited daemon can linger as a zombie for a few seconds: that counts as gone.
proc_alive() {
    local stat
    stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
    stat=${stat##*) }
    [[ ${stat:0:1} != Z ]]
}

pidfile() { echo "$STATE/pids/$1.pid"; }

# Prints the recorded PID of daemon $1 if that very process (same start time) still runs.
recorded_pid() {
    local f pid start
    f=$(pidfile "$1")
    [[ -s $f ]] || return 1
    read -r pid start <"$f" || return 1
    [[ -n $pid && -n $start ]] || return 1
    proc_alive "$pid" || return 1
    [[ $(proc_start "$pid") == "$start" ]] || return 1
    echo "$pid"
}

# Launch a daemon in the foreground mode of its own, detached (own session, no terminal, stdio to
# files, so `start` can run inside $(...) or make without hanging), record "PID STARTTIME".
launch() {
    local name=$1; shift
    # The marker variable lets `stop` find what these daemons fork (slurmctld's slurmscriptd)
    # by identity instead of by name. It is never exported to the caller.
    BT_SLURM_CLUSTER_DIR=$STATE SLURM_CONF=$STATE/slurm.conf \
        setsid "$@" </dev/null >"$STATE/log/$name.stderr" 2>&1 &
    local pid=$! start="" exe
    exe=$(readlink -f "$(command -v "$1")")
    # setsid execs in place (a background child of a non-interactive shell is no group leader),
    # so $! becomes the daemon itself; wait for that exec so the recorded start time is the
    # daemon's, and check it really is the daemon.
    for _ in $(seq 1 100); do
        if [[ $(readlink "/proc/$pid/exe" 2>/dev/null) == "$exe" ]]; then
            start=$(proc_start "$pid")
            break
        fi
        proc_alive "$pid" || break
        sleep 0.02
    done
    [[ -n $start ]] || { log "$name (pid $pid) did not come up as $exe"; return 1; }
    echo "$pid $start" >"$(pidfile "$name")"
    log "started $name, pid $pid"
}

# TERM the recorded daemon, wait up to $2 seconds, then KILL. Never signals anything else.
stop_daemon() {
    local name=$1 grace=${2:-20} pid
    if ! pid=$(recorded_pid "$name"); then
        [[ -e $(pidfile "$name") ]] && log "$name was not running"
        rm -f "$(pidfile "$name")"
        return 0
    fi
    kill -TERM "$pid" 2>/dev/null || true
    local t0; t0=$(now)
    for _ in $(seq 1 $((grace * 10))); do
        proc_alive "$pid" || break
        sleep 0.1
    done
    if proc_alive "$pid"; then
        log "$name (pid $pid) did not exit within ${grace}s, sending KILL"
        kill -KILL "$pid" 2>/dev/null || true
        for _ in $(seq 1 50); do proc_alive "$pid" || break; sleep 0.1; done
    fi
    proc_alive "$pid" && die "$name (pid $pid) is still running"
    log "stopped $name (pid $pid) in $(elapsed "$t0") s"
    rm -f "$(pidfile "$name")"
}

# PIDs of processes this cluster spawned that are not the recorded daemons, found by identity,
# never by name:
#  - our marker variable in the environment (slurmscriptd, forked by slurmctld);
#  - an open slurmd/slurmctld log file of this folder (slurmstepd logs to slurmd's file; its
#    environment cannot be used, setproctitle overwrites the start of it);
#  - job processes: SLURM_JOB_ID set and SLURM_CONF pointing at our slurm.conf.
# This script and its ancestors are excluded (the caller's shell has SLURM_CONF too).
cluster_strays() {
    local self=" $$ " p ppid
    p=$$
    while [[ $p -gt 1 ]]; do
        ppid=$(awk '/^PPid:/ { print $2 }' "/proc/$p/status" 2>/dev/null) || break
        [[ -n $ppid ]] || break
        self+="$ppid "
        p=$ppid
    done
    local jobenv
    jobenv=$(grep -lzxF "SLURM_CONF=$STATE/slurm.conf" /proc/[0-9]*/environ 2>/dev/null || true)
    {
        grep -lzxF "BT_SLURM_CLUSTER_DIR=$STATE" /proc/[0-9]*/environ 2>/dev/null || true
        # shellcheck disable=SC2086
        [[ -z $jobenv ]] || grep -lz '^SLURM_JOB_ID=' $jobenv 2>/dev/null || true
        find /proc/[0-9]*/fd -maxdepth 1 \( -lname "$STATE/log/slurmd.log" -o -lname "$STATE/log/slurmctld.log" \) 2>/dev/null || true
    } | cut -d/ -f3 | sort -un | while read -r p; do
        [[ $self == *" $p "* ]] && continue
        proc_alive "$p" && echo "$p"
    done
}

# ---------------------------------------------------------------- install

install_packages() {
    local missing=0 c
    for c in munged mungekey slurmctld slurmd sbatch scontrol sinfo squeue scancel; do
        command -v "$c" >/dev/null 2>&1 || missing=1
    done
    [[ $missing == 0 ]] && return 0
    [[ $(id -u) == 0 ]] || die "slurm/munge are not installed and installing them needs root"
    # --no-install-recommends: 8 packages instead of 42 (the recommended plugin set brings
    # HDF5, ROCm, IPMI, ... and mpi/pmix plugins that log errors at every daemon start).
    log "installing slurmctld slurmd slurm-client munge (apt-get)"
    local t0 made_policy=0
    t0=$(now)
    # Without systemd, package scripts would start munged/slurmd through invoke-rc.d with the
    # /etc configuration. Deny that for the install if the image does not already do so.
    if [[ ! -e /usr/sbin/policy-rc.d ]]; then
        printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
        chmod 755 /usr/sbin/policy-rc.d
        made_policy=1
    fi
    local rc=0
    {
        DEBIAN_FRONTEND=noninteractive apt-get update &&
            DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
                slurmctld slurmd slurm-client munge
    } >"$STATE/apt.log" 2>&1 || rc=$?
    [[ $made_policy == 1 ]] && rm -f /usr/sbin/policy-rc.d
    if [[ $rc != 0 ]]; then
        tail -30 "$STATE/apt.log" >&2
        die "apt-get failed (rc $rc), full log in $STATE/apt.log"
    fi
    log "installed in $(elapsed "$t0") s"
}

# ---------------------------------------------------------------- configuration

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

write_config() {
    local node=$1 hw=$2 depend=""
    # Since Slurm 20.11 this lives in DependencyParameters (SchedulerParameters ignores it).
    [[ $KILL_INVALID_DEPEND == 1 ]] && depend="DependencyParameters=kill_invalid_depend"
    : >"$STATE/plugstack.conf"
    cat >"$STATE/slurm.conf" <<EOF
# Written by scripts/slurm/cluster.sh: a single-node test cluster, everything under this folder.
ClusterName=bttest
# The address in parentheses means the controller's name need not resolve.
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$STATE/munge/munge.socket
StateSaveLocation=$STATE/state
SlurmdSpoolDir=$STATE/spool
SlurmctldPidFile=$STATE/run/slurmctld.pid
SlurmdPidFile=$STATE/run/slurmd.pid
SlurmctldLogFile=$STATE/log/slurmctld.log
SlurmdLogFile=$STATE/log/slurmd.log
PlugStackConfig=$STATE/plugstack.conf
MailProg=/bin/true
# No systemd, no usable cgroup hierarchy: track job processes through /proc, bind nothing.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
# One CPU per task by default, memory not consumed: N tasks run side by side on N CPUs.
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
# Keep finished jobs visible to scontrol for an hour (there is no accounting database).
MinJobAge=3600
# Schedule submitted batch jobs at once (default: up to 3 s later, which also delays the first
# job after start-up by 3 s).
SchedulerParameters=batch_sched_delay=0
$depend
NodeName=$node NodeAddr=127.0.0.1 $hw State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
}

print_env() {
    echo "export SLURM_CONF=$STATE/slurm.conf"
}

dump_logs() {
    local f n
    for f in "$STATE"/log/*; do
        [[ -s $f ]] || continue
        n=40
        # With -D the slurm daemons write their log to stderr as well: show only its end then.
        [[ $f == *.stderr && -s ${f%.stderr}.log ]] && n=10
        echo "----- $f (last $n lines)" >&2
        tail -n "$n" "$f" >&2
    done
}

# ---------------------------------------------------------------- subcommands

cmd_start() {
    local t_all; t_all=$(now)
    install_packages
    local n running=0
    for n in "${DAEMONS[@]}"; do recorded_pid "$n" >/dev/null && running=1; done
    [[ $running == 0 ]] || die "a cluster is already running from $STATE: run '$0 stop $STATE' first"
    for n in "$CTLD_PORT" "$SLURMD_PORT"; do
        port_in_use "$n" && die "port $n on 127.0.0.1 is already in use (another slurmctld/slurmd?); set BT_SLURMCTLD_PORT/BT_SLURMD_PORT"
    done

    local t0; t0=$(now)
    # Fresh state every start: no jobs recovered from an earlier run. The munge key is kept.
    rm -rf "$STATE/state" "$STATE/spool" "$STATE/run" "$STATE/log" "$STATE/munge" "$STATE/pids"
    mkdir -p "$STATE"/{state,spool,run,log,pids,munge}
    # munged wants its socket folder searchable by everyone, its key folder private.
    chmod 755 "$STATE" "$STATE/munge"
    mkdir -p "$STATE/munge-key"
    chmod 700 "$STATE/munge-key"
    if [[ ! -s $STATE/munge-key/munge.key ]]; then
        mungekey --create --keyfile="$STATE/munge-key/munge.key" >/dev/null 2>&1 ||
            { dd if=/dev/urandom of="$STATE/munge-key/munge.key" bs=1024 count=1 status=none &&
                chmod 400 "$STATE/munge-key/munge.key"; }
    fi

    local node hw
    node=$(hostname -s)
    [[ -n $node ]] || die "hostname -s is empty"
    # slurmd -C prints the hardware exactly as slurmd will report it when it registers, so the
    # node cannot be drained for a mismatch (e.g. "Low RealMemory").
    hw=$(slurmd -C | head -1 | tr ' ' '\n' | grep -E '^(CPUs|Boards|SocketsPerBoard|CoresPerSocket|ThreadsPerCore|RealMemory)=' | tr '\n' ' ')
    [[ $hw == *CPUs=* && $hw == *RealMemory=* ]] || die "could not read the hardware from 'slurmd -C'"
    write_config "$node" "$hw"

    local fail=""
    # --force: run even if a folder above STATE_DIR is not world-searchable (e.g. under mktemp -d).
    launch munged munged --foreground --force \
        --socket="$STATE/munge/munge.socket" --key-file="$STATE/munge-key/munge.key" \
        --pid-file="$STATE/munge/munged.pid" --seed-file="$STATE/munge/munged.seed" \
        --log-file="$STATE/log/munged.log" || fail="munged did not start"
    if [[ -z $fail ]]; then
        fail="munged does not answer on $STATE/munge/munge.socket"
        for _ in $(seq 1 100); do
            if munge -n -S "$STATE/munge/munge.socket" 2>/dev/null | unmunge -S "$STATE/munge/munge.socket" >/dev/null 2>&1; then
                fail=""; break
            fi
            recorded_pid munged >/dev/null || break
            sleep 0.1
        done
    fi
    [[ -z $fail ]] && { launch slurmctld slurmctld -D -f "$STATE/slurm.conf" || fail="slurmctld did not start"; }
    [[ -z $fail ]] && { launch slurmd slurmd -D -f "$STATE/slurm.conf" -N "$node" || fail="slurmd did not start"; }

    export SLURM_CONF=$STATE/slurm.conf
    local state=""
    if [[ -z $fail ]]; then
        fail="node $node not idle after ${START_TIMEOUT}s"
        local deadline=$((SECONDS + START_TIMEOUT))
        while ((SECONDS < deadline)); do
            state=$(sinfo -h -N -n "$node" -o %T 2>/dev/null || true)
            [[ $state == idle ]] && { fail=""; log "node $node idle $(elapsed "$t0") s after launch"; break; }
            for n in "${DAEMONS[@]}"; do
                recorded_pid "$n" >/dev/null || { fail="$n exited during start-up"; break 2; }
            done
            sleep 0.2
        done
    fi
    # slurmctld runs its first scheduling pass about 3 s after it came up; a job submitted before
    # that waits for it. Wait for that pass too, so that jobs start as soon as they are submitted.
    if [[ -z $fail ]]; then
        local cycles=""
        while ((SECONDS < deadline)); do
            cycles=$(sdiag 2>/dev/null | awk '/Main schedule statistics/ { m = 1 } m && /Total cycles:/ { print $3; exit }' || true)
            [[ -n $cycles && $cycles != 0 ]] && break
            recorded_pid slurmctld >/dev/null || { fail="slurmctld exited during start-up"; break; }
            sleep 0.2
        done
        [[ -n $fail || (-n $cycles && $cycles != 0) ]] || fail="slurmctld ran no scheduling pass within ${START_TIMEOUT}s"
    fi
    if [[ -n $fail ]]; then
        log "error: $fail (last node state: '${state:-none}')"
        dump_logs
        log "stopping what was started"
        cmd_stop || true
        exit 1
    fi
    log "node $node idle and scheduling: ready $(elapsed "$t0") s after launch (whole start $(elapsed "$t_all") s)"
    print_env | tee "$STATE/env.sh"
}

cmd_stop() {
    local any=0 n
    for n in "${DAEMONS[@]}"; do [[ -e $(pidfile "$n") ]] && any=1; done
    if [[ $any == 0 ]]; then
        log "nothing recorded in $STATE/pids: nothing to stop"
        return 0
    fi
    export SLURM_CONF=$STATE/slurm.conf
    # Cancel every job first, so slurmd's job steps end (and take their processes with them)
    # before slurmd itself goes.
    if recorded_pid slurmctld >/dev/null && recorded_pid slurmd >/dev/null; then
        local ids
        ids=$(squeue -h -o %i 2>/dev/null | sort -u | tr '\n' ' ' || true)
        if [[ -n ${ids// /} ]]; then
            log "cancelling jobs: $ids"
            # shellcheck disable=SC2086
            scancel $ids 2>/dev/null || true
            for _ in $(seq 1 150); do
                [[ -z $(squeue -h -o %i 2>/dev/null) ]] && break
                sleep 0.2
            done
        fi
    fi
    stop_daemon slurmd 20
    stop_daemon slurmctld 30
    stop_daemon munged 10

    # Anything they spawned that is still around (slurmscriptd normally leaves with slurmctld).
    local strays pass
    for pass in TERM KILL; do
        strays=$(cluster_strays)
        [[ -z $strays ]] && break
        log "stray processes of this cluster: ${strays//$'\n'/ } ($pass)"
        # shellcheck disable=SC2086
        kill -"$pass" $strays 2>/dev/null || true
        for _ in $(seq 1 30); do
            [[ -z $(cluster_strays) ]] && break
            sleep 0.1
        done
    done
    strays=$(cluster_strays)
    [[ -z $strays ]] || die "processes still running after stop: ${strays//$'\n'/ }"
    log "stopped; no processes of $STATE left"
}

cmd_status() {
    local up=0 n pid
    for n in "${DAEMONS[@]}"; do
        if pid=$(recorded_pid "$n"); then
            echo "$n running (pid $pid)"
            up=$((up + 1))
        else
            echo "$n not running"
        fi
    done
    if recorded_pid slurmctld >/dev/null; then
        SLURM_CONF=$STATE/slurm.conf sinfo -N -o '%N %T %c %m' 2>&1 || true
        SLURM_CONF=$STATE/slurm.conf squeue 2>&1 || true
    fi
    [[ $up == "${#DAEMONS[@]}" ]] && return 0
    [[ $up == 0 ]] && return 3
    return 1
}

# One line per record: "<id> <JobState> <Reason> <ExitCode>", where <id> is JOBID or
# ARRAYJOBID_TASK (or ARRAYJOBID_[a-b] for tasks not yet started).
job_records() {
    { scontrol show job -o "$1" 2>/dev/null || true; } | awk '{
        id = ""; arr = ""; task = ""; st = ""; rs = ""; ec = ""
        for (i = 1; i <= NF; i++) {
            split($i, kv, "=")
            if (kv[1] == "JobId") id = kv[2]
            else if (kv[1] == "ArrayJobId") arr = kv[2]
            else if (kv[1] == "ArrayTaskId") task = kv[2]
            else if (kv[1] == "JobState") st = kv[2]
            else if (kv[1] == "Reason") rs = kv[2]
            else if (kv[1] == "ExitCode") ec = kv[2]
        }
        if (arr != "") id = arr "_" task
        print id, st, rs, ec
    }'
}

cmd_wait() {
    local timeout=600 ids=()
    while (($#)); do
        case $1 in
        --timeout) timeout=$2; shift 2 ;;
        --timeout=*) timeout=${1#*=}; shift ;;
        *) ids+=("$1"); shift ;;
        esac
    done
    ((${#ids[@]})) || die "wait: no job id given"
    export SLURM_CONF=$STATE/slurm.conf
    local deadline=$((SECONDS + timeout)) id recs done_all
    while :; do
        done_all=1
        for id in "${ids[@]}"; do
            recs=$(job_records "$id")
            [[ -n $recs ]] || continue           # unknown id: reported below
            # Finished: a final state, or pending on a dependency that can never be satisfied.
            if awk '$2 !~ /^(COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|BOOT_FAIL|DEADLINE|PREEMPTED)$/ &&
                    !($2 == "PENDING" && $3 == "DependencyNeverSatisfied") { bad = 1 } END { exit bad }' <<<"$recs"; then
                :
            else
                done_all=0
            fi
        done
        [[ $done_all == 1 ]] && break
        if ((SECONDS >= deadline)); then
            log "wait: timeout after ${timeout}s"
            for id in "${ids[@]}"; do job_records "$id"; done
            return 124
        fi
        sleep 0.5
    done
    local rc=0
    for id in "${ids[@]}"; do
        recs=$(job_records "$id")
        if [[ -z $recs ]]; then
            echo "$id UNKNOWN - -"
            rc=1
            continue
        fi
        sort -V <<<"$recs"
        awk '$2 != "COMPLETED" { bad = 1 } END { exit bad }' <<<"$recs" || rc=1
    done
    return $rc
}

# ---------------------------------------------------------------- main

(($# >= 2)) || usage
cmd=$1
[[ $cmd == start ]] && mkdir -p "$2"
if [[ ! -d $2 ]]; then
    case $cmd in
    stop) log "no folder $2: nothing to stop"; exit 0 ;;
    status) echo "no cluster in $2"; exit 3 ;;
    *) die "no such folder: $2" ;;
    esac
fi
STATE=$(cd "$2" && pwd -P)
[[ $STATE != *[[:space:]]* ]] || die "the state folder must not contain white space: '$STATE'"
shift 2
case $cmd in
start) (($# == 0)) || usage; cmd_start ;;
stop) (($# == 0)) || usage; cmd_stop ;;
status) (($# == 0)) || usage; cmd_status ;;
env) (($# == 0)) || usage; print_env ;;
wait) cmd_wait "$@" ;;
*) usage ;;
esac
