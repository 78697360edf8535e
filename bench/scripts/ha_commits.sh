#!/bin/sh
# What synchronous replication and NOTIFY cost a commit, on the Patroni
# cluster of deploy/local/pg-ha-up.sh (this machine: every node on it).
#
#   bench/scripts/ha_commits.sh RUN_DIR [SECONDS] [CLIENTS]
#
# RUN_DIR is a running pg-ha-up.sh cluster. pgbench runs one INSERT of a
# 600-byte row per transaction (an event's size), through HAProxy's primary
# port, four ways: synchronous_commit local (the primary alone) or on (the
# sync standby too), each with and without a pg_notify in the transaction
# (as every move does). Prints one "mode tps" line each. docs/scale-out.md
# ("One primary plus Patroni replicas") quotes a run.
set -eu
run=${1:?usage: ha_commits.sh RUN_DIR [SECONDS] [CLIENTS]}
seconds=${2:-15}
clients=${3:-16}
set -a
. "$run/env"
set +a
url=$LEDGER_DATABASE_URL
psql "$url" -qc "DROP TABLE IF EXISTS bench_commits; CREATE TABLE bench_commits (id bigserial PRIMARY KEY, payload text)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "INSERT INTO bench_commits (payload) VALUES (repeat('x', 600));" > "$work/insert.sql"
{
    echo "BEGIN;"
    echo "INSERT INTO bench_commits (payload) VALUES (repeat('x', 600));"
    echo "SELECT pg_notify('bench_commits', 'game');"
    echo "COMMIT;"
} > "$work/notify.sql"
for commit in local on; do
    for script in insert notify; do
        tps=$(PGOPTIONS="-c synchronous_commit=$commit" pgbench -n -c "$clients" -j 2 -T "$seconds" \
            -f "$work/$script.sql" "$url" 2> /dev/null | sed -n 's/^tps = \([0-9.]*\).*/\1/p')
        echo "synchronous_commit=$commit $script $tps"
    done
done
psql "$url" -qc "DROP TABLE bench_commits"
