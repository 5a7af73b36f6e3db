#!/usr/bin/env bash
# Claims under an open snapshot, on the database alone: for each way of claiming, 400,000 due jobs, a session
# that holds a snapshot open for the whole run (BEGIN; SELECT txid_current(); then idle), and pgbench with four
# clients claiming four jobs at a time and finishing them, for SECONDS_EACH seconds, with progress every 10 s.
# Then the same without the snapshot.
#   benchmarks/pinned-snapshot/run.sh            (PostgreSQL on 127.0.0.1:5432 as postgres; SECONDS_EACH=45)
set -euo pipefail
cd "$(dirname "$0")"
PSQL=(psql -X -q -h "${PGHOST:-127.0.0.1}" -p "${PGPORT:-5432}" -U "${PGUSER:-postgres}")
DB=jobqueue_pinned_snapshot
SECONDS_EACH="${SECONDS_EACH:-45}"

"${PSQL[@]}" -d postgres -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB"
"${PSQL[@]}" -d "$DB" -f ../../extension/src/main/resources/META-INF/jobqueue/schema/postgresql.sql

run() {
    local script=$1 pin=$2
    "${PSQL[@]}" -d "$DB" -f seed.sql
    local holder=
    if [[ $pin == snapshot-held ]]; then
        "${PSQL[@]}" -d "$DB" -c "BEGIN; SELECT txid_current(); SELECT pg_sleep($SECONDS_EACH + 5);" >/dev/null 2>&1 &
        holder=$!
        sleep 1
    fi
    echo "== $script, $pin"
    pgbench -h "${PGHOST:-127.0.0.1}" -p "${PGPORT:-5432}" -U "${PGUSER:-postgres}" -n -c 4 -j 2 \
        -T "$SECONDS_EACH" -P 10 -r -D due_from=0 -f "$script" "$DB" 2>&1 \
        | grep -E '^progress|^tps|WITH claimed|UPDATE jobqueue_job SET state'
    if [[ -n $holder ]]; then
        "${PSQL[@]}" -d "$DB" -c "SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE datname = '$DB' AND pid <> pg_backend_pid()" >/dev/null
        wait "$holder" 2>/dev/null || true
    fi
}

for pin in snapshot-held no-snapshot; do
    run claim-from-first.sql "$pin"
    run claim-from-place.sql "$pin"
done
"${PSQL[@]}" -d postgres -c "DROP DATABASE $DB WITH (FORCE)"
