#!/usr/bin/env bash
# Runs the independent harness's cells for every system, one cell and one system at a time, after
# setup-native.sh. Each harness run lands in $WORK/harness/results/<run-id>; sweep.tsv beside them lists
# cell, system and run id, and summarize.py turns it into the per-cell table.
#   benchmarks/portable/run-sweep.sh [--systems "jobqueue dbscheduler"] [--cells "throughput_w16 chaos_postgres_restart"]
#   --list prints the cells. The phases are shortened from the harness's named scenarios so that the whole sweep
#   fits one sitting on a 2-core machine; docs/internals/benchmarks.md says how.
set -euo pipefail

PORTABLE="$(cd "$(dirname "$0")" && pwd)"
WORK="${WORK:-$PORTABLE/work}"
HARNESS="$WORK/harness"
SYSTEMS="jobqueue jobqueue-jpt jobqueue-nontx dbscheduler jobrunr pgboss"
WARMUP="--phase warmup=warmup:45s"
FIXED="--producer-rate 600 --worker-count 32"

# cell name | extra environment | harness arguments
CELLS=(
    "throughput_w4|PRODUCER_BATCH_MAX=1000|--producer-mode depth-target --target-depth 4000 --producer-rate 50000 --worker-count 4 $WARMUP --phase clean=clean:45s"
    "throughput_w16|PRODUCER_BATCH_MAX=1000|--producer-mode depth-target --target-depth 4000 --producer-rate 50000 --worker-count 16 $WARMUP --phase clean=clean:45s"
    "throughput_w64|PRODUCER_BATCH_MAX=1000|--producer-mode depth-target --target-depth 4000 --producer-rate 50000 --worker-count 64 $WARMUP --phase clean=clean:45s"
    "chaos_crash_recovery||$FIXED $WARMUP --phase baseline=clean:30s --phase kill=kill-worker(instance=0):20s --phase restart=start-worker(instance=0):30s --phase recovery=clean:60s"
    "chaos_repeated_kills||$FIXED $WARMUP --phase baseline=clean:30s --phase repeated=repeated-kill(instance=0,period=20s):90s --phase recovery=clean:60s"
    "chaos_postgres_restart||$FIXED $WARMUP --phase baseline=clean:30s --phase restart=postgres-restart:30s --phase recovery=clean:60s"
    "chaos_pg_backend_kill||$FIXED $WARMUP --phase baseline=clean:30s --phase kills=pg-backend-kill(rate=2):30s --phase recovery=clean:60s"
    "chaos_pool_exhaustion||$FIXED $WARMUP --phase baseline=clean:30s --phase exhaustion=pool-exhaustion(idle_conns=300):30s --phase recovery=clean:60s"
    "idle_in_tx_saturation||$FIXED $WARMUP --phase clean_1=clean:30s --phase idle_1=idle-in-tx:180s --phase recovery_1=recovery:120s"
    "active_readers||$FIXED $WARMUP --phase clean_1=clean:30s --phase readers_1=active-readers:90s --phase recovery_1=clean:60s"
    "sustained_high_load||$FIXED $WARMUP --phase clean_1=clean:30s --phase pressure_1=high-load:90s --phase recovery_1=clean:60s"
    "long_horizon||$FIXED --phase warmup=warmup:2m --phase clean_1=clean:60m"
)

# Jobs put more than 5 s before the last phase ended and not finished (the harness leaves each system's database
# in place): the complement of "every job put completes", which the harness's jobs_lost only estimates from rates.
# The last 5 s are left out: a job put just before SIGTERM cannot finish, and a stopping node hands it back.
unfinished_sql() {
    local early="timestamptz '$2' - interval '5 seconds'"
    case "$1" in
        jobqueue*) echo "SELECT count(*) FROM jobqueue_job WHERE state <> 'DONE' AND created_at < $early" ;;
        dbscheduler) echo "SELECT count(*) FROM scheduled_tasks WHERE execution_time < $early" ;;
        jobrunr) echo "SELECT count(*) FROM jobrunr_jobs WHERE state <> 'SUCCEEDED' AND createdat < $early" ;;
        pgboss) echo "SELECT count(*) FROM pgboss.job WHERE state <> 'completed' AND created_on < $early" ;;
    esac
}

# The unfinished jobs by state, into the cell's log: what they wait for.
unfinished_detail_sql() {
    local early="timestamptz '$2' - interval '5 seconds'"
    case "$1" in
        jobqueue*) echo "SELECT state, attempts, count(*), min(lease_expires_at), max(lease_expires_at) FROM jobqueue_job
                         WHERE state <> 'DONE' AND created_at < $early GROUP BY 1, 2" ;;
        dbscheduler) echo "SELECT picked, count(*), min(last_heartbeat) FROM scheduled_tasks
                           WHERE execution_time < $early GROUP BY 1" ;;
        jobrunr) echo "SELECT state, count(*) FROM jobrunr_jobs WHERE state <> 'SUCCEEDED' AND createdat < $early GROUP BY 1" ;;
        pgboss) echo "SELECT state, count(*) FROM pgboss.job WHERE state <> 'completed' AND created_on < $early GROUP BY 1" ;;
    esac
}

db_name() {
    python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["db_name"])' "$HARNESS/$1-bench/adapter.json"
}

# When the run's last sample was taken: the end of its last phase.
last_sample() {
    [[ -f "$1" ]] && python3 -c 'import csv, sys; print(max(r["sampled_at"] for r in csv.DictReader(open(sys.argv[1]))))' "$1"
}

cells=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --systems) SYSTEMS="$2"; shift 2 ;;
        --cells) cells="$2"; shift 2 ;;
        --list) printf '%s\n' "${CELLS[@]}" | cut -d'|' -f1; exit 0 ;;
        *) echo "run-sweep.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
# long_horizon takes an hour per system: only when asked for by name.
[[ -n "$cells" ]] || cells="$(printf '%s\n' "${CELLS[@]}" | cut -d'|' -f1 | grep -vx long_horizon | tr '\n' ' ')"

[[ -d "$HARNESS" ]] || { echo "run-sweep.sh: run setup-native.sh first" >&2; exit 2; }
pg_lsclusters -h | awk '$2 == "bench" {print $4}' | grep -qx online || pg_ctlcluster 15 bench start

index="$HARNESS/results/sweep.tsv"
mkdir -p "$HARNESS/results"
for cell in $cells; do
    line="$(printf '%s\n' "${CELLS[@]}" | grep "^$cell|")" || { echo "run-sweep.sh: no cell $cell" >&2; exit 2; }
    IFS='|' read -r _ extra arguments <<< "$line"
    for system in $SYSTEMS; do
        echo "[run-sweep] $(date -u +%H:%M:%S) $cell $system (load $(cut -d' ' -f1-3 /proc/loadavg))" >&2
        log="$WORK/logs/$cell-$system.log"
        mkdir -p "$WORK/logs"
        # shellcheck disable=SC2086 # the cell's arguments are words
        (cd "$HARNESS" && env BENCH_NATIVE=1 PRODUCER_PACING=adapter $extra \
            "$WORK/venv/bin/python" bench.py run --systems "$system" --fast --skip-build $arguments) > "$log" 2>&1 || true
        run_id="$(grep -o 'run_id = [^ ]*' "$log" | head -1 | cut -d' ' -f3)"
        ended="$(last_sample "$HARNESS/results/${run_id:-none}/raw.csv")"
        unfinished="$(PGPASSWORD=bench psql -h localhost -p 15555 -U bench -d "$(db_name "$system")" -tAc \
            "$(unfinished_sql "$system" "$ended")" 2>/dev/null || echo unknown)"
        if [[ "$unfinished" != 0 ]]; then
            PGPASSWORD=bench psql -h localhost -p 15555 -U bench -d "$(db_name "$system")" \
                -c "$(unfinished_detail_sql "$system" "$ended")" >> "$log" 2>&1 || true
        fi
        printf '%s\t%s\t%s\t%s\t%s\n' "$cell" "$system" "${run_id:-failed}" "$unfinished" "$(date -u +%FT%TZ)" >> "$index"
    done
done
echo "[run-sweep] done: $index" >&2
