#!/usr/bin/env bash
# Sets up the independent harness (../shared/harness) to run here without Docker, with jobqueue's and the Java
# peers' adapters beside pg-boss's: a copy of the harness with the native patch and ours applied, a Python venv,
# PostgreSQL 15 cluster "bench" on port 15555 (the harness's postgres.conf, autovacuum on as shipped), pg-boss's
# npm packages, and the Java adapters built. Idempotent; the copy in ../shared is never written.
#   benchmarks/portable/setup-native.sh            (WORK defaults to benchmarks/portable/work)
set -euo pipefail
shopt -s nullglob

PORTABLE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$PORTABLE/../.." && pwd)"
SHARED_HARNESS="${SHARED_HARNESS:-$ROOT/../shared/harness}"
WORK="${WORK:-$PORTABLE/work}"
HARNESS="$WORK/harness"
VENV="$WORK/venv"

log() { echo "[setup-native] $*" >&2; }

copy_harness() {
    if [[ -f "$HARNESS/.jobqueue-patched" ]]; then return; fi
    log "copying the harness to $HARNESS and patching it"
    rm -rf "$HARNESS"
    mkdir -p "$WORK"
    cp -r "$SHARED_HARNESS/postgresql-job-queue-benchmarking" "$HARNESS"
    chmod -R u+w "$HARNESS"
    (cd "$HARNESS" && patch -s -p1 < "$SHARED_HARNESS/native/native.patch" && patch -s -p1 < "$PORTABLE/jvm-adapters.patch")
    touch "$HARNESS/.jobqueue-patched"
}

link_adapters() {
    local dir
    for dir in "$PORTABLE"/*-bench; do
        ln -sfn "$dir" "$HARNESS/$(basename "$dir")"
    done
}

python_env() {
    if [[ -x "$VENV/bin/python" ]] && "$VENV/bin/python" -c 'import psycopg, matplotlib' 2>/dev/null; then return; fi
    log "creating the Python venv (3.11, with the system's pydantic and numpy)"
    python3.11 -m venv --system-site-packages "$VENV"
    "$VENV/bin/pip" install -q --retries 0 --timeout 5 "psycopg[binary]" matplotlib
}

postgres_cluster() {
    if ! pg_lsclusters -h | awk '{print $2}' | grep -qx bench; then
        log "creating PostgreSQL 15 cluster bench on port 15555"
        pg_createcluster 15 bench -p 15555 >/dev/null
        sed "s/^listen_addresses = .*/listen_addresses = 'localhost'/" "$HARNESS/postgres.conf" \
            > /etc/postgresql/15/bench/conf.d/90-harness.conf
    fi
    if ! pg_lsclusters -h | awk '$2 == "bench" {print $4}' | grep -qx online; then
        pg_ctlcluster 15 bench start
    fi
    su postgres -c "psql -q -p 15555 -tc \"SELECT 1 FROM pg_roles WHERE rolname = 'bench'\"" | grep -q 1 ||
        su postgres -c "psql -q -p 15555 -c \"CREATE ROLE bench SUPERUSER LOGIN PASSWORD 'bench'\""
}

pgboss_packages() {
    if [[ -f "$HARNESS/pgboss-bench/node_modules/pg-boss/package.json" ]]; then return; fi
    log "installing pg-boss's npm packages"
    (cd "$HARNESS/pgboss-bench" && npm ci --omit=dev --no-audit --no-fund --loglevel=error)
}

java_adapters() {
    log "building jobqueue (extension, Liberty configuration) and the Java adapters"
    (cd "$ROOT" && ./mvnw -B -q -ntp install -pl extension,liberty-config -am -DskipTests)
    (cd "$PORTABLE" && "$ROOT/mvnw" -B -q -ntp package -DskipTests)
}

copy_harness
link_adapters
python_env
postgres_cluster
pgboss_packages
if [[ "${SKIP_JAVA_BUILD:-}" != 1 ]]; then java_adapters; fi
log "ready: $HARNESS"
