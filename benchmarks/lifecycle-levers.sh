#!/usr/bin/env bash
# What a job's life on a non-transactional queue costs PostgreSQL alone, without a server: a claim of 32 due
# jobs (synchronous_commit off, as jobqueue's) and the transaction that marks them DONE, in each of the ways
# issue 30 weighs (docs/internals/benchmarks.md#what-a-non-transactional-job-costs-the-database).
# For each variant it creates the database jobqueue_levers from jobqueue's schema script, stores ROWS PENDING
# jobs, and runs pgbench for SECS seconds with 4 clients, each transaction a claim and its finish, beside a
# VACUUM of the table every 5 s (the stand-in for autovacuum the benchmark runner uses). Prints the jobs finished
# a second, and the share of the job table's updates that PostgreSQL applied as HOT updates.
# Needs psql and pgbench (postgresql-contrib), and a PostgreSQL at 127.0.0.1:5432 that trusts the user postgres.
# Drops the database at the end.
#
#   benchmarks/lifecycle-levers.sh                    # every variant
#   VARIANTS=today benchmarks/lifecycle-levers.sh
#   SECS=10 benchmarks/lifecycle-levers.sh            # where 30 s finish every job (the script warns)
set -euo pipefail
source "$(dirname "$0")/levers-common.sh"
ROWS=${ROWS:-1000000}
CLAIM=32
HOT_FILLFACTOR=${HOT_FILLFACTOR:-30}
SCRIPT=$(mktemp)
VACUUM_PID=
trap '[ -n "$VACUUM_PID" ] && kill $VACUUM_PID 2>/dev/null; rm -f "$SCRIPT"; $PG -d postgres -c "DROP DATABASE IF EXISTS $DB" >/dev/null' EXIT

# Creates the table with ROWS PENDING jobs, after running the SQL $1 (if any) on jobqueue's schema.
setup() {
  $PG -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB" >/dev/null
  $PG -d $DB -f $SCHEMA >/dev/null
  [ -z "${1:-}" ] || $PG -d $DB -c "$1" >/dev/null
  $PG -d $DB -c "INSERT INTO jobqueue_job (id, queue, state, payload, attempts, run_at, created_at)
    SELECT md5(n::text)::uuid::text, 'bench', 'PENDING', '{\"n\":' || n || '}', 0, now() - interval '1 minute',
      now() FROM generate_series(1, $ROWS) n" >/dev/null
  $PG -d $DB -c "VACUUM ANALYZE" -c "CHECKPOINT" >/dev/null
}

# Runs the script $2 for SECS seconds beside the vacuum and prints its rate in jobs, named $1.
measure() {
  printf '%s\n' "$2" > "$SCRIPT"
  (while sleep 5; do $PG -d $DB -c "VACUUM $VACUUMED" >/dev/null 2>&1 || true; done) &
  VACUUM_PID=$!
  "$PGBENCH" -h 127.0.0.1 -U postgres -n -M prepared -c 4 -j 2 -T "$SECS" -f "$SCRIPT" $DB >/dev/null 2>&1
  kill $VACUUM_PID; wait $VACUUM_PID 2>/dev/null || true; VACUUM_PID=
  local unfinished
  unfinished=$($PG -d $DB -tAc "SELECT count(*) FROM jobqueue_job WHERE state <> 'DONE'")
  [ "$unfinished" -gt 0 ] || echo "warning: every job was finished before the end; raise ROWS" >&2
  local hot
  sleep 1
  hot=$($PG -d $DB -tAc "SELECT round(100.0 * n_tup_hot_upd / greatest(n_tup_upd, 1))
    FROM pg_stat_user_tables WHERE relname = 'jobqueue_job'")
  printf '| %s | %.0f | %s %% |\n' "$1" "$(awk -v done=$((ROWS - unfinished)) -v secs="$SECS" 'BEGIN { print done / secs }')" "$hot"
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
DONE="UPDATE jobqueue_job SET state = 'DONE', finished_at = now(), lease_token = NULL, lease_expires_at = NULL,
  last_error = NULL"
# The ids a claim returned, joined by commas into the variable ids (\gset), and its finish by them.
CLAIMED_IDS="SELECT string_agg(id, ',') AS ids FROM c \\gset"
BY_IDS="id = ANY (string_to_array(:ids, ','))"
VACUUMED=jobqueue_job

echo "| a claim of $CLAIM jobs, then their finish | jobs/s | job row updates that were HOT |"
echo "|---|---|---|"
for variant in ${VARIANTS:-today delete lease-table hot-claim hot-claim-delete}; do
  case $variant in
    today)
      setup
      measure "today: the claim makes the rows RUNNING, the finish DONE" "$TOKEN
$CLAIM_ROWS
$DONE $FENCE;" ;;
    delete)
      setup
      measure "the finish deletes the rows (retention = 0s)" "$TOKEN
$CLAIM_ROWS
DELETE FROM jobqueue_job $FENCE;" ;;
    lease-table)
      # The claim leaves the job row PENDING and writes its leases into a narrow table of its own, which the
      # next claims skip; the finish deletes the leases and makes the rows DONE. The claims of a queue take
      # turns (a transaction-scoped advisory lock): claims that lock the job rows to skip each other's (FOR NO
      # KEY UPDATE SKIP LOCKED) deadlock with the finish, whose update waits on a row a later claim locked while
      # that claim's lease insert waits on the finish's delete of the same job's lease (measured: 1,710 jobs/s,
      # deadlocks). Sequential scans are off for the claim: the lease table holds few live rows and many dead
      # ones, and a planner that believes it small scans all of them for each due job.
      setup "CREATE TABLE jobqueue_lease (job_id VARCHAR(36) PRIMARY KEY, token VARCHAR(36) NOT NULL,
          expires_at TIMESTAMPTZ NOT NULL);
        CREATE INDEX jobqueue_lease_expiry ON jobqueue_lease (expires_at);"
      VACUUMED="jobqueue_job, jobqueue_lease"
      measure "the claim writes leases into a narrow table; the finish deletes them and makes the rows DONE" "$TOKEN
BEGIN;
SET LOCAL synchronous_commit = off;
SET LOCAL enable_seqscan = off;
SELECT pg_advisory_xact_lock(1);
WITH c AS (INSERT INTO jobqueue_lease (job_id, token, expires_at)
  SELECT j.id, 't' || :t, now() + interval '5 minutes' $DUE
    AND NOT EXISTS (SELECT 1 FROM jobqueue_lease l WHERE l.job_id = j.id)
  ORDER BY j.priority DESC, j.run_at, j.seq LIMIT $CLAIM
  ON CONFLICT (job_id) DO NOTHING RETURNING job_id AS id)
$CLAIMED_IDS
COMMIT;
WITH gone AS (DELETE FROM jobqueue_lease WHERE job_id = ANY (string_to_array(:ids, ',')) RETURNING job_id)
UPDATE jobqueue_job SET state = 'DONE', finished_at = now(), attempts = attempts + 1 FROM gone
  WHERE id = gone.job_id;"
      VACUUMED=jobqueue_job ;;
    hot-claim|hot-claim-delete)
      # The claim writes only columns no index reads, so that PostgreSQL can apply it as a HOT update (no new
      # index entries): the row stays PENDING with a lease token, which the next claims skip, and the lease
      # indexes are dropped. The claimed version must fit on its row's page: fillfactor HOT_FILLFACTOR (30
      # unless set; at 50 a sixth of the claims are not HOT). An upper bound: without the lease indexes nothing
      # finds expired leases. hot-claim-delete: the same, the finish deleting the rows (retention = 0s).
      setup "ALTER TABLE jobqueue_job SET (fillfactor = $HOT_FILLFACTOR);
        DROP INDEX jobqueue_job_lease, jobqueue_job_running_expiry;"
      measure "the claim is a HOT update of unindexed columns; the finish $([ $variant = hot-claim ] && echo "makes the rows DONE" || echo "deletes them")" "$TOKEN
BEGIN;
SET LOCAL synchronous_commit = off;
WITH claimed AS (SELECT j.id $DUE AND j.lease_token IS NULL $ORDER),
c AS (UPDATE jobqueue_job u SET attempts = attempts + 1, lease_token = 't' || :t, claimed_by = 'node-1',
  lease_expires_at = now() + interval '5 minutes', started_at = now() FROM claimed WHERE u.id = claimed.id
  RETURNING u.id)
$CLAIMED_IDS
COMMIT;
$(if [ $variant = hot-claim ]; then echo "$DONE"; else echo "DELETE FROM jobqueue_job"; fi) WHERE $BY_IDS AND lease_token = 't' || :t;" ;;
    *) echo "unknown variant $variant" >&2; exit 1 ;;
  esac
done
