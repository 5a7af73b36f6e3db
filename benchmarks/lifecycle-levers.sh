#!/usr/bin/env bash
# What a job's life on a non-transactional queue costs PostgreSQL alone, without a server: a claim of 32 due
# jobs (synchronous_commit off, as jobqueue's) and the transaction that marks them DONE, in each of the ways
# issue 30 weighs (docs/internals/benchmarks.md#what-a-non-transactional-job-costs-the-database).
# For each variant it creates the database jobqueue_levers from jobqueue's schema script, stores ROWS PENDING
# jobs, and runs pgbench for SECS seconds with 4 clients, each transaction a claim and its finish, beside a
# VACUUM of the table every 5 s (the stand-in for autovacuum the benchmark runner uses). Prints the jobs finished
# a second.
# Needs psql and pgbench (postgresql-contrib), and a PostgreSQL at 127.0.0.1:5432 that trusts the user postgres.
# Drops the database at the end.
#
#   benchmarks/lifecycle-levers.sh                    # every variant
#   VARIANTS=today benchmarks/lifecycle-levers.sh
set -euo pipefail
source "$(dirname "$0")/levers-common.sh"
ROWS=${ROWS:-1000000}
CLAIM=32
SCRIPT=$(mktemp)
VACUUM_PID=
trap '[ -n "$VACUUM_PID" ] && kill $VACUUM_PID 2>/dev/null; rm -f "$SCRIPT"; $PG -d postgres -c "DROP DATABASE IF EXISTS $DB" >/dev/null' EXIT

# Creates the table with ROWS PENDING jobs.
setup() {
  $PG -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB" >/dev/null
  $PG -d $DB -f $SCHEMA >/dev/null
  $PG -d $DB -c "INSERT INTO jobqueue_job (id, queue, state, payload, attempts, run_at, created_at)
    SELECT md5(n::text)::uuid::text, 'bench', 'PENDING', '{\"n\":' || n || '}', 0, now() - interval '1 minute',
      now() FROM generate_series(1, $ROWS) n" >/dev/null
  $PG -d $DB -c "VACUUM ANALYZE" -c "CHECKPOINT" >/dev/null
}

# Runs the script $2 for SECS seconds beside the vacuum and prints its rate in jobs, named $1.
measure() {
  printf '%s\n' "$2" > "$SCRIPT"
  (while sleep 5; do $PG -d $DB -c "VACUUM jobqueue_job" >/dev/null 2>&1 || true; done) &
  VACUUM_PID=$!
  "$PGBENCH" -h 127.0.0.1 -U postgres -n -M prepared -c 4 -j 2 -T "$SECS" -f "$SCRIPT" $DB >/dev/null 2>&1
  kill $VACUUM_PID; wait $VACUUM_PID 2>/dev/null || true; VACUUM_PID=
  local unfinished
  unfinished=$($PG -d $DB -tAc "SELECT count(*) FROM jobqueue_job WHERE state <> 'DONE'")
  [ "$unfinished" -gt 0 ] || echo "warning: every job was finished before the end; raise ROWS" >&2
  printf '| %s | %.0f |\n' "$1" "$(awk -v done=$((ROWS - unfinished)) -v secs="$SECS" 'BEGIN { print done / secs }')"
}

TOKEN="\\set t random(1, 2000000000)"
DUE="FROM jobqueue_job j WHERE j.queue = 'bench' AND j.state = 'PENDING' AND j.run_at <= now()"
ORDER="ORDER BY j.priority DESC, j.run_at, j.seq LIMIT $CLAIM FOR UPDATE SKIP LOCKED"
# The claim jobqueue makes today: the job rows become RUNNING with the claim's lease token.
CLAIM_ROWS="BEGIN;
SET LOCAL synchronous_commit = off;
WITH claimed AS (SELECT j.id $DUE $ORDER)
UPDATE jobqueue_job u SET state = 'RUNNING', attempts = attempts + 1, lease_token = 't' || :t, claimed_by = 'node-1',
  lease_expires_at = now() + interval '5 minutes', started_at = now() FROM claimed WHERE u.id = claimed.id;
COMMIT;"
FENCE="WHERE lease_token = 't' || :t AND state = 'RUNNING' AND has_dependents = FALSE"

echo "| a claim of $CLAIM jobs, then their finish | jobs/s |"
echo "|---|---|"
for variant in ${VARIANTS:-today delete}; do
  case $variant in
    today)
      setup
      measure "today: the claim makes the rows RUNNING, the finish DONE" "$TOKEN
$CLAIM_ROWS
UPDATE jobqueue_job SET state = 'DONE', finished_at = now(), lease_token = NULL, lease_expires_at = NULL,
  last_error = NULL $FENCE;" ;;
    delete)
      setup
      measure "the finish deletes the rows (retention = 0s)" "$TOKEN
$CLAIM_ROWS
DELETE FROM jobqueue_job $FENCE;" ;;
    *) echo "unknown variant $variant" >&2; exit 1 ;;
  esac
done
