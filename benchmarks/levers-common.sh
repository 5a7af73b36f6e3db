# Sourced by the lever scripts (completion-levers.sh, lifecycle-levers.sh): the PostgreSQL they measure, pgbench,
# and the scratch database they create from jobqueue's schema script and drop at the end.
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PGOPTIONS="-c client_min_messages=warning"
PG="psql -q -h 127.0.0.1 -U postgres"
PGBENCH=${PGBENCH:-$(ls /usr/lib/postgresql/*/bin/pgbench 2>/dev/null | sort -V | tail -1)}
PGBENCH=${PGBENCH:-pgbench}
SECS=${SECS:-30}
DB=jobqueue_levers
SCHEMA=extension/src/main/resources/META-INF/jobqueue/schema/postgresql.sql
