#!/usr/bin/env bash
# The harness's launcher for jobqueue: starts the Liberty server that setup-native.sh built (target/liberty) as
# the adapter process itself (`server run` execs the JVM, so the harness's SIGTERM and SIGKILL reach it).
#   launch.sh jobqueue | jobqueue-jpt | jobqueue-nontx        (the harness sets DATABASE_URL and the rest)
set -euo pipefail
cd "$(dirname "$(readlink -f "$0")")"

export BENCH_SYSTEM="${1:-jobqueue}"
case "$BENCH_SYSTEM" in
    jobqueue) queue=bench-tx ;;
    jobqueue-jpt) queue=bench-jpt ;;
    jobqueue-nontx) queue=bench-nontx ;;
    *) echo "launch.sh: unknown system $BENCH_SYSTEM" >&2; exit 2 ;;
esac

# postgres://user:password@host:port/name -> the variables of jobqueue's datasource-postgresql.xml
if [[ ! "${DATABASE_URL:-}" =~ ^postgres(ql)?://([^:@/]*)(:([^@/]*))?@([^:/]+)(:([0-9]+))?/([^?]+) ]]; then
    echo "launch.sh: DATABASE_URL is not postgres://user:password@host:port/name: ${DATABASE_URL:-unset}" >&2
    exit 2
fi
export JOBQUEUE_DB_USER="${BASH_REMATCH[2]}" JOBQUEUE_DB_PASSWORD="${BASH_REMATCH[4]}"
export JOBQUEUE_DB_HOST="${BASH_REMATCH[5]}" JOBQUEUE_DB_PORT="${BASH_REMATCH[7]:-5432}"
export JOBQUEUE_DB_NAME="${BASH_REMATCH[8]}"

instance="${BENCH_INSTANCE_ID:-0}"
workers="${WORKER_COUNT:-32}"
# The same name across a restart, so that a node killed and started again takes back its own jobs.
export JOBQUEUE_NODE_NAME="harness-$BENCH_SYSTEM-$instance"
export BENCH_HTTP_PORT=$((19080 + instance))
# One connection per runner, and room for the producer, the depth poller, the lease keeper and the poller.
export JOBQUEUE_DB_POOL_MAX=$((workers + 8))
export JOBQUEUE_CONCURRENCY="$workers"
# DONE jobs are kept 10 minutes (the default is a day, which a run of an hour never reaches), so that a long run
# shows the table's size once retention deletes as fast as jobs finish.
export JOBQUEUE_RETENTION="${JOBQUEUE_BENCH_RETENTION:-10m}"
for other in bench-tx bench-jpt bench-nontx; do
    name="${other//-/_}"
    [[ "$other" == "$queue" ]] || export "JOBQUEUE_QUEUE_${name^^}_ENABLED=false"
done
export JOBQUEUE_BENCH_VERSION="${JOBQUEUE_BENCH_VERSION:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}"
export JVM_ARGS="-Xmx1g ${JOBQUEUE_BENCH_JVM_ARGS:-}"

exec target/liberty/wlp/bin/server run jobqueueHarness
