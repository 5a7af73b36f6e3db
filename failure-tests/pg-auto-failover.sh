#!/usr/bin/env bash
# A pg_auto_failover formation on this machine, beside the PostgreSQL server on 5432, for FailoverIT: a monitor on
# port 6440 and two PostgreSQL 15 nodes on 6441 and 6442, each run by its own `pg_autoctl run` as the user
# postgres, with their files in /tmp/jobqueue-paf. No Docker.
#
#   failure-tests/pg-auto-failover.sh up [sync|async] [database]
#        installs Debian's postgresql-15-auto-failover and pg-auto-failover-cli if missing, creates the monitor and
#        both nodes (the first becomes the primary) and the database (default jobqueue_failover). sync (default):
#        the secondary is in the replication quorum, so the primary runs with synchronous_standby_names =
#        'ANY 1 (pgautofailover_standby_2)' and a commit returns once the secondary has it. (number_sync_standbys
#        stays 0: pg_auto_failover takes 1 only with two standbys, and then a commit waits for one of them.)
#        async: the secondary leaves the replication quorum, and a commit returns before it has it.
#   failure-tests/pg-auto-failover.sh primary              prints the primary's port
#   failure-tests/pg-auto-failover.sh kill-primary         SIGKILL of the primary's pg_autoctl and postmaster: the
#                                                          node is gone, as with a crashed machine
#   failure-tests/pg-auto-failover.sh switchover           pg_autoctl perform failover: a planned switchover
#   failure-tests/pg-auto-failover.sh rejoin               starts the killed node again; it rejoins as secondary
#   failure-tests/pg-auto-failover.sh sync|async           the current secondary joins or leaves the quorum
#   failure-tests/pg-auto-failover.sh wait-healthy         waits until one primary and one secondary are in sync
#   failure-tests/pg-auto-failover.sh state                pg_autoctl show state
#   failure-tests/pg-auto-failover.sh down                 stops everything and deletes /tmp/jobqueue-paf
set -euo pipefail

base=/tmp/jobqueue-paf
bin=/usr/lib/postgresql/15/bin
monitor_port=6440
node_ports=(6441 6442)
monitor_uri="postgres://autoctl_node@127.0.0.1:$monitor_port/pg_auto_failover?sslmode=disable"

# pg_autoctl keeps its configuration and state under XDG folders: ours, so that down removes everything.
as_postgres() {
  runuser -u postgres -- env HOME="$base/home" XDG_CONFIG_HOME="$base/home/config" \
    XDG_DATA_HOME="$base/home/data" XDG_RUNTIME_DIR="$base/home/run" PATH="$bin:$PATH" "$@"
}

# Starts `pg_autoctl run` for a data folder in the background, in a process group of its own (with the PostgreSQL
# server it starts), and records the group's id.
run_keeper() {
  local name=$1
  setsid runuser -u postgres -- env HOME="$base/home" XDG_CONFIG_HOME="$base/home/config" \
    XDG_DATA_HOME="$base/home/data" XDG_RUNTIME_DIR="$base/home/run" PATH="$bin:$PATH" \
    pg_autoctl run --pgdata "$base/$name" >>"$base/$name.log" 2>&1 </dev/null &
  echo $! >"$base/$name.group"
}

# The pid of a node's postmaster, if it runs: checked against its command line, as a pid file can be stale.
postmaster_pid() {
  local pid
  pid=$(head -1 "$base/$1/postmaster.pid" 2>/dev/null) || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q -- "$base/$1" && echo "$pid"
}

# Whether the process group of a keeper still has a process.
group_alive() {
  [ -f "$base/$1.group" ] && kill -0 -- "-$(cat "$base/$1.group")" 2>/dev/null
}

show_state() {
  as_postgres pg_autoctl show state --monitor "$monitor_uri" "$@"
}

# The state of the node on a port, as the monitor last assigned it: primary, secondary, wait_primary, ...
node_state() {
  psql -h 127.0.0.1 -p $monitor_port -U autoctl_node -d pg_auto_failover -Atc \
    "SELECT reportedstate FROM pgautofailover.node WHERE nodeport = $1 AND reportedstate = goalstate" 2>/dev/null || true
}

primary_port() {
  for port in "${node_ports[@]}"; do
    if [ "$(node_state "$port")" = primary ]; then
      echo "$port"
      return
    fi
  done
  return 1
}

await() {
  local what=$1 seconds=$2
  shift 2
  for _ in $(seq 1 $((seconds * 2))); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.5
  done
  echo "timed out after ${seconds}s waiting for $what" >&2
  show_state >&2 || true
  return 1
}

healthy() {
  local states
  states=$(for port in "${node_ports[@]}"; do node_state "$port"; done | sort | tr '\n' ' ')
  [ "$states" = "primary secondary " ]
}

standby_names() {
  psql -h 127.0.0.1 -p "$(primary_port)" -U postgres -d postgres -Atc 'SHOW synchronous_standby_names'
}

replication_is() {
  local names
  names=$(standby_names) || return 1
  if [ "$1" = sync ]; then [[ $names == ANY* ]]; else [ -z "$names" ]; fi
}

node_name() {
  [ "$1" = "${node_ports[0]}" ] && echo node1 || echo node2
}

case ${1:?usage: pg-auto-failover.sh up|primary|kill-primary|switchover|rejoin|wait-healthy|state|down} in
  up)
    mode=${2:-sync}
    database=${3:-jobqueue_failover}
    if ! command -v pg_autoctl >/dev/null || [ ! -x "$bin/pg_autoctl" ]; then
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-15-auto-failover pg-auto-failover-cli >/dev/null
    fi
    if [ -d "$base" ]; then
      echo "$base exists: run down first" >&2
      exit 1
    fi
    mkdir -p "$base/home/run"
    chmod 700 "$base/home/run"
    chown -R postgres:postgres "$base"
    as_postgres pg_autoctl create monitor --pgdata "$base/monitor" --pgport $monitor_port --hostname 127.0.0.1 \
      --listen 127.0.0.1 --auth trust --no-ssl --pgctl "$bin/pg_ctl" >>"$base/monitor.log" 2>&1
    run_keeper monitor
    await "the monitor" 60 pg_isready -h 127.0.0.1 -p $monitor_port
    i=0
    for port in "${node_ports[@]}"; do
      i=$((i + 1))
      as_postgres pg_autoctl create postgres --pgdata "$base/node$i" --pgport "$port" --hostname 127.0.0.1 \
        --name "node$i" --listen 127.0.0.1 --auth trust --no-ssl --pgctl "$bin/pg_ctl" --dbname "$database" \
        --monitor "$monitor_uri" >>"$base/node$i.log" 2>&1
      run_keeper "node$i"
      if [ $i = 1 ]; then
        await "node1 to be primary" 120 bash -c "[ \"\$(psql -h 127.0.0.1 -p $monitor_port -U autoctl_node -d pg_auto_failover -Atc \"SELECT reportedstate FROM pgautofailover.node WHERE nodeport = $port\")\" = single ]"
      fi
    done
    await "a primary and a secondary" 180 healthy
    "$0" "$mode"
    show_state
    ;;
  sync | async)
    for port in "${node_ports[@]}"; do
      if [ "$(node_state "$port")" = secondary ]; then
        # Out of the quorum, the secondary is not waited for: synchronous_standby_names becomes empty.
        quorum=$([ "$1" = sync ] && echo true || echo false)
        as_postgres pg_autoctl set node replication-quorum "$quorum" --pgdata "$base/$(node_name "$port")" \
          >>"$base/$(node_name "$port").log" 2>&1
      fi
    done
    await "synchronous_standby_names to say $1" 60 replication_is "$1"
    echo "replication $1: synchronous_standby_names = '$(standby_names)'"
    ;;
  primary)
    primary_port
    ;;
  kill-primary)
    port=$(primary_port)
    name=$(node_name "$port")
    postmaster=$(postmaster_pid "$name")
    # The whole group at once: the keeper would start PostgreSQL again at once.
    kill -KILL -- "-$(cat "$base/$name.group")"
    kill -KILL "$postmaster" 2>/dev/null || true
    echo "killed $name (port $port): the keeper's process group $(cat "$base/$name.group") and postmaster $postmaster"
    ;;
  switchover)
    as_postgres pg_autoctl perform failover --monitor "$monitor_uri" --wait 120
    ;;
  rejoin)
    for i in 1 2; do
      if ! group_alive "node$i"; then
        rm -f "$base/node$i/postmaster.pid"
        run_keeper "node$i"
        echo "node$i starts again"
      fi
    done
    await "a primary and a secondary" 240 healthy
    ;;
  wait-healthy)
    await "a primary and a secondary" 240 healthy
    ;;
  state)
    show_state
    ;;
  down)
    for name in node1 node2 monitor; do
      if group_alive "$name"; then
        as_postgres pg_autoctl stop --pgdata "$base/$name" >/dev/null 2>&1 || true
      fi
    done
    for name in node1 node2 monitor; do
      for _ in $(seq 1 40); do group_alive "$name" || break; sleep 0.5; done
      if group_alive "$name"; then kill -KILL -- "-$(cat "$base/$name.group")" || true; fi
      pid=$(postmaster_pid "$name") && kill -KILL "$pid" || true
    done
    rm -rf "$base"
    echo "pg_auto_failover formation removed"
    ;;
  *)
    echo "usage: pg-auto-failover.sh up|primary|kill-primary|switchover|rejoin|wait-healthy|state|down" >&2
    exit 2
    ;;
esac
