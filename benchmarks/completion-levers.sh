#!/usr/bin/env bash
# What each way of finishing a job costs PostgreSQL alone, without a server: the upper bounds of issue 30's
# levers (docs/internals/benchmarks.md#what-finishing-a-job-costs-the-database). For each variant it creates the
# database jobqueue_levers from jobqueue's schema script, stores ROWS RUNNING jobs, and runs pgbench for SECS
# seconds with 4 clients, each transaction finishing the next job. Needs psql and pgbench (postgresql-contrib),
# and a PostgreSQL at 127.0.0.1:5432 that trusts the user postgres. Drops the database at the end.
#
#   benchmarks/completion-levers.sh                   # every variant
#   VARIANTS="today group4" benchmarks/completion-levers.sh
set -euo pipefail
source "$(dirname "$0")/levers-common.sh"
ROWS=${ROWS:-300000}
SCRIPT=$(mktemp)
trap 'rm -f "$SCRIPT"; $PG -d postgres -c "DROP DATABASE IF EXISTS $DB" >/dev/null' EXIT

# Job n's id: random as jobqueue's UUIDv4 ids, or time-ordered as UUIDv7 ids would be.
RANDOM_ID="md5(n::text)::uuid::text"
ORDERED_ID="lpad(to_hex(n), 8, '0') || '-0000-7000-8000-' || substr(md5(n::text), 1, 12)"

# Creates the table with ROWS RUNNING jobs whose ids are $1 of n.
setup() {
  $PG -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB" >/dev/null
  $PG -d $DB -f $SCHEMA >/dev/null
  $PG -d $DB -c "CREATE SEQUENCE next_job" \
    -c "CREATE TABLE jobqueue_done_marker (id VARCHAR(36) PRIMARY KEY, finished_at TIMESTAMPTZ NOT NULL)" >/dev/null
  $PG -d $DB -c "INSERT INTO jobqueue_job (id, queue, state, payload, attempts, run_at, created_at, started_at,
      lease_token, lease_expires_at, claimed_by)
    SELECT $1, 'bench', 'RUNNING', '{\"n\":' || n || '}', 1, now(), now(), now(), md5('t' || n),
      now() + interval '5 minutes', 'node-1' FROM generate_series(1, $ROWS) n" >/dev/null
  $PG -d $DB -c "VACUUM ANALYZE" -c "CHECKPOINT" >/dev/null
}

# Runs the transaction $2 for SECS seconds and prints its rate, named $1.
measure() {
  printf '%s\n' "$2" > "$SCRIPT"
  local tps
  tps=$("$PGBENCH" -h 127.0.0.1 -U postgres -n -M prepared -c 4 -j 2 -T "$SECS" -f "$SCRIPT" $DB 2>&1 \
    | grep -oP 'tps = \K[0-9.]+' | head -1)
  printf '| %s | %.0f |\n' "$1" "$tps"
}

NEXT="SELECT nextval('next_job') AS n \\gset"
DONE="UPDATE jobqueue_job SET state = 'DONE', finished_at = now(), lease_token = NULL, lease_expires_at = NULL,
  last_error = NULL"
FENCE="AND lease_token = md5('t' || :n) AND state = 'RUNNING'"
BY_RANDOM_ID="id = $(echo "$RANDOM_ID" | sed 's/\bn\b/:n/g')"
BY_ORDERED_ID="id = $(echo "$ORDERED_ID" | sed 's/to_hex(n)/to_hex(:n::bigint)/; s/md5(n::text)/md5(:n::text)/')"

echo "| a transaction that finishes one job (4 jobs for group4) | transactions/s |"
echo "|---|---|"
for variant in ${VARIANTS:-today no-seq-index no-seq-index-ordered-ids marker delete group4}; do
  case $variant in
    today)
      setup "$RANDOM_ID"
      measure "today: UPDATE to DONE, every index" "$NEXT
$DONE WHERE $BY_RANDOM_ID $FENCE;" ;;
    no-seq-index)
      setup "$RANDOM_ID"; $PG -d $DB -c "DROP INDEX jobqueue_job_seq" >/dev/null
      measure "UPDATE to DONE without jobqueue_job_seq" "$NEXT
$DONE WHERE $BY_RANDOM_ID $FENCE;" ;;
    no-seq-index-ordered-ids)
      setup "$ORDERED_ID"; $PG -d $DB -c "DROP INDEX jobqueue_job_seq" >/dev/null
      measure "UPDATE to DONE without jobqueue_job_seq, time-ordered ids" "$NEXT
$DONE WHERE $BY_ORDERED_ID $FENCE;" ;;
    marker)
      setup "$RANDOM_ID"
      measure "INSERT a DONE marker into a table of its own, the job row untouched" "$NEXT
INSERT INTO jobqueue_done_marker (id, finished_at) VALUES ($(echo "$RANDOM_ID" | sed 's/\bn\b/:n/g'), now());" ;;
    delete)
      setup "$RANDOM_ID"
      measure "DELETE the job row (retention = 0s)" "$NEXT
DELETE FROM jobqueue_job WHERE $BY_RANDOM_ID $FENCE;" ;;
    group4)
      setup "$RANDOM_ID"
      one="$NEXT
$DONE WHERE $BY_RANDOM_ID $FENCE;"
      measure "4 UPDATEs to DONE in one transaction" "BEGIN;
$one
$one
$one
$one
COMMIT;" ;;
    *) echo "unknown variant $variant" >&2; exit 1 ;;
  esac
done
