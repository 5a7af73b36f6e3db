#!/usr/bin/env bash
# Starts the JobRunr adapter; exec, so that the harness's signals (SIGTERM, SIGKILL) reach the JVM itself.
# ParallelGC: no concurrent GC threads competing with PostgreSQL for the machine's cores, and short young
# collections, since nearly everything this process allocates (jobs, rows, JSON) dies young.
cd "$(dirname "$0")"
exec java -Xmx1g -XX:+UseParallelGC -cp "target/classes:target/lib/*" dev.jobqueue.portable.jobrunr.JobRunrBench
