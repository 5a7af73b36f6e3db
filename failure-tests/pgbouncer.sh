#!/usr/bin/env bash
# PgBouncer in transaction pooling in front of the PostgreSQL server at 127.0.0.1:5432, for the tests that run
# through it (-Ppgbouncer in integration-tests/ and failure-tests/).
#
#   failure-tests/pgbouncer.sh start [port] [target]   installs Debian's pgbouncer if missing, writes its
#                                                      configuration and starts it on 127.0.0.1:port (default
#                                                      6432), in front of PostgreSQL on 127.0.0.1:target (5432)
#   failure-tests/pgbouncer.sh retarget port target    leads it to PostgreSQL on 127.0.0.1:target instead, and
#                                                      reloads it: what a failover manager does after a failover
#   failure-tests/pgbouncer.sh stop [port]             stops the one this script started on that port
#   failure-tests/pgbouncer.sh kill [port]             SIGKILL, as a crash: every client connection breaks at once
#
# It runs as the user postgres (PgBouncer refuses root), with its files in /tmp/jobqueue-pgbouncer-<port>. Every
# user is trusted, as PostgreSQL trusts 127.0.0.1 on this machine (.ci/run); the password is not checked.
set -euo pipefail

usage='usage: pgbouncer.sh start [port] [target] | retarget port target | stop|kill [port]'
command=${1:?$usage}
port=${2:-6432}
target=${3:-5432}
dir=/tmp/jobqueue-pgbouncer-$port
pidfile=$dir/pgbouncer.pid

running_pid() {
  [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null && cat "$pidfile"
}

case $command in
  start)
    if ! command -v pgbouncer >/dev/null; then
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pgbouncer >/dev/null
    fi
    if running_pid >/dev/null; then
      echo "pgbouncer already runs on port $port (pid $(running_pid))"
      exit 0
    fi
    mkdir -p "$dir"
    printf '"postgres" ""\n"root" ""\n' >"$dir/users.txt"
    # Transaction pooling: a client holds a server connection for one transaction only. pgjdbc sends
    # extra_float_digits at start-up, which 1.18 refuses unless told to ignore it. The pool is as large as one
    # Liberty node's (jobqueue.db.pool.max in the tests): a transactional consumer that writes its start log in a
    # REQUIRES_NEW transaction holds two server connections at once, and a smaller pool can deadlock on them.
    # server_login_retry: after a failed connection to PostgreSQL, PgBouncer waits this long before the next try
    # (15 s by default), and a failover or restart is followed by such failures.
    cat >"$dir/pgbouncer.ini" <<EOF
[databases]
* = host=127.0.0.1 port=$target

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $port
unix_socket_dir =
auth_type = trust
auth_file = $dir/users.txt
admin_users = postgres
pool_mode = transaction
default_pool_size = 40
max_client_conn = 500
ignore_startup_parameters = extra_float_digits
server_login_retry = 1
logfile = $dir/pgbouncer.log
pidfile = $pidfile
EOF
    chown -R postgres:postgres "$dir"
    runuser -u postgres -- pgbouncer -d "$dir/pgbouncer.ini"
    for _ in $(seq 1 50); do
      pg_isready -q -h 127.0.0.1 -p "$port" && break
      sleep 0.2
    done
    pg_isready -h 127.0.0.1 -p "$port"
    echo "pgbouncer $(pgbouncer --version | head -1 | cut -d' ' -f2) runs on 127.0.0.1:$port in transaction mode in front of 127.0.0.1:$target (pid $(running_pid))"
    ;;
  retarget)
    pid=$(running_pid) || { echo "no pgbouncer of this script runs on port $port" >&2; exit 1; }
    [ -n "${3:-}" ] || { echo "$usage" >&2; exit 2; }
    sed -i "s/^\* = host=127\.0\.0\.1 port=[0-9]*$/* = host=127.0.0.1 port=$target/" "$dir/pgbouncer.ini"
    # SIGHUP: PgBouncer reads its configuration again and closes the server connections of a changed database.
    kill -HUP "$pid"
    echo "pgbouncer on port $port leads to 127.0.0.1:$target"
    ;;
  stop | kill)
    pid=$(running_pid || true)
    if [ -z "$pid" ]; then
      echo "no pgbouncer of this script runs on port $port"
      exit 0
    fi
    if [ "$command" = kill ]; then kill -KILL "$pid"; else kill -INT "$pid"; fi
    for _ in $(seq 1 50); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.2
    done
    if [ "$command" = stop ] && kill -0 "$pid" 2>/dev/null; then
      kill -TERM "$pid"
    fi
    rm -f "$pidfile"
    echo "pgbouncer on port $port ($command, pid $pid) is gone"
    ;;
  *)
    echo "$usage" >&2
    exit 2
    ;;
esac
