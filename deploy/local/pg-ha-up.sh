#!/bin/sh
# PostgreSQL high availability on one machine, on loopback: a 3-member etcd,
# 3 PostgreSQL 15 nodes run by Patroni (deploy/patroni/patroni.yml:
# synchronous replication, automatic failover), HAProxy in front of them
# (deploy/patroni/haproxy.cfg) and a pgBackRest repository the nodes archive
# their WAL into (backups from a replica).
#
#   deploy/local/pg-ha-up.sh RUN_DIR [BASE_PORT]
#   deploy/local/pg-ha-down.sh RUN_DIR
#
# Ports from BASE_PORT (default 55400): PostgreSQL of node i on BASE+i, its
# Patroni REST API on BASE+3+i, etcd member i's clients on BASE+6+i and peers
# on BASE+9+i, HAProxy's primary port on BASE+12 and its replicas' on BASE+13.
# Printed at the end, and written to RUN_DIR/env for the ledger servers:
#   LEDGER_DATABASE_URL        through HAProxy (follows the primary)
#   LEDGER_DATABASE_URL_MULTI  libpq's multi-host URL with
#                              target_session_attrs=read-write (no proxy)
#   LEDGER_READ_DATABASE_URL   HAProxy's replicas port
#   PATRONICTL_CONFIG_FILE     for `patronictl list`, `switchover`, ...
#   PGBACKREST_CONFIG          for `pgbackrest --stanza=ledger backup`, ...
# Run again on the same RUN_DIR, it starts only what is not running (a node
# killed or stopped comes back, and Patroni makes it a replica of the
# current primary). The superuser's password is generated into RUN_DIR/postgres-password.
# As root, PostgreSQL (and so Patroni and pgBackRest) runs as the user
# "postgres" (PG_USER); it refuses to run as root. Each process's pid is
# RUN_DIR/<name>.pid and its log RUN_DIR/<name>.log. On any failure it says
# so in one line on stderr and stops what it started.
# Tested by tests/deploy/test_patroni_failover.py (kill -9 of the primary's
# node under load, its return as a replica, a switchover) and
# tests/deploy/test_readme_restore.py (deploy/README.md's backup and restore).
set -eu
run=${1:?usage: pg-ha-up.sh RUN_DIR [BASE_PORT]}
base=${2:-55400}
python=${PYTHON:-python3}
here=$(cd "$(dirname "$0")" && pwd)
conf=$(cd "$here/../patroni" && pwd)
mkdir -p "$run"
run=$(cd "$run" && pwd)
started=0
cleanup() { [ "$started" = 1 ] || "$here/pg-ha-down.sh" "$run" > /dev/null 2>&1 || true; }
trap cleanup EXIT
trap 'exit 130' INT TERM
fail() { echo "pg-ha-up.sh: $*" >&2; exit 1; }
for tool in etcd etcdctl patroni patronictl haproxy pgbackrest pg_isready; do
    command -v "$tool" > /dev/null || fail "$tool is not installed (apt-get install patroni etcd-server etcd-client haproxy pgbackrest)"
done
as_pg=   # a command prefix, not a function: `$as_pg cmd &` is cmd's own pid
owner=
if [ "$(id -u)" = 0 ]; then
    owner=${PG_USER:-postgres}
    id "$owner" > /dev/null 2>&1 || fail "no user $owner to run PostgreSQL as (PG_USER)"
    # setpriv execs (runuser forks): each pid file names the process itself
    as_pg="setpriv --reuid=$owner --regid=$owner --init-groups --"
fi
secret() { [ -s "$run/$1" ] || (umask 077 && "$python" -c 'import secrets; print(secrets.token_urlsafe(24))' > "$run/$1"); cat "$run/$1"; }
running() { [ -s "$run/$1.pid" ] && kill -0 "$(cat "$run/$1.pid")" 2> /dev/null; }
wait_for() { # $1: what, $2: log, then a command that succeeds once it is up
    what=$1 log=$2
    shift 2
    tries=0
    until "$@" > /dev/null 2>&1; do
        tries=$((tries + 1))
        [ "$tries" -lt 240 ] || fail "$what did not start: $(tail -n 1 "$log" 2> /dev/null) (see $log)"
        sleep 0.25
    done
}
superuser=$(secret postgres-password)
replication=$(secret replication-password)
rewind=$(secret rewind-password)

# etcd: three members, one quorum (any one may be lost)
cluster=
i=0
while [ "$i" -lt 3 ]; do
    cluster="${cluster:+$cluster,}etcd$i=http://127.0.0.1:$((base + 9 + i))"
    i=$((i + 1))
done
etcd_hosts=127.0.0.1:$((base + 6)),127.0.0.1:$((base + 7)),127.0.0.1:$((base + 8))
i=0
while [ "$i" -lt 3 ]; do
    client=http://127.0.0.1:$((base + 6 + i))
    peer=http://127.0.0.1:$((base + 9 + i))
    state=new
    [ ! -d "$run/etcd$i" ] || state=existing
    running "etcd$i" && { i=$((i + 1)); continue; }
    nohup etcd --name "etcd$i" --data-dir "$run/etcd$i" \
        --listen-client-urls "$client" --advertise-client-urls "$client" \
        --listen-peer-urls "$peer" --initial-advertise-peer-urls "$peer" \
        --initial-cluster "$cluster" --initial-cluster-token "ledger-$base" \
        --initial-cluster-state "$state" > "$run/etcd$i.log" 2>&1 &
    echo $! > "$run/etcd$i.pid"
    i=$((i + 1))
done
i=0
while [ "$i" -lt 3 ]; do
    wait_for "etcd$i" "$run/etcd$i.log" etcdctl --endpoints "127.0.0.1:$((base + 6 + i))" endpoint health
    i=$((i + 1))
done

# pgBackRest: one repository; backups come from a replica (backup-standby)
mkdir -p "$run/backup" "$run/pgbackrest"
{
    echo "[global]"
    echo "repo1-path=$run/backup"
    echo "repo1-retention-full=2"
    echo "start-fast=y"
    echo "backup-standby=y"
    echo "log-path=$run/pgbackrest"
    echo "lock-path=$run/pgbackrest"
    echo "spool-path=$run/pgbackrest"
    echo "log-level-console=warn"
    echo "log-level-file=info"
    echo
    echo "[ledger]"
    i=0
    while [ "$i" -lt 3 ]; do
        echo "pg$((i + 1))-path=$run/pg$i/data"
        echo "pg$((i + 1))-port=$((base + i))"
        echo "pg$((i + 1))-socket-path=/tmp"
        i=$((i + 1))
    done
} > "$run/pgbackrest.conf"
PGBACKREST_CONFIG=$run/pgbackrest.conf
export PGBACKREST_CONFIG

# Patroni: three nodes of one file, told apart by their environment (its
# post_bootstrap script is found here, not in the image's /etc/patroni).
# archive-push runs in a node's PostgreSQL and must name that node's data
# directory as pg1 (on separate machines, each node's own pgbackrest.conf)
sed "s#/etc/patroni/#$conf/#" "$conf/patroni.yml" > "$run/patroni.yml"
i=0
while [ "$i" -lt 3 ]; do
    mkdir -p "$run/pg$i"
    chmod 700 "$run/pg$i"
    i=$((i + 1))
done
[ -z "$owner" ] || chown -R "$owner:" "$run/pg0" "$run/pg1" "$run/pg2" "$run/backup" "$run/pgbackrest" "$run/pgbackrest.conf" "$run/patroni.yml"
i=0
while [ "$i" -lt 3 ]; do
    running "patroni$i" && { i=$((i + 1)); continue; }
    PATRONI_NAME="pg$i" \
        PATRONI_RESTAPI_LISTEN="127.0.0.1:$((base + 3 + i))" \
        PATRONI_RESTAPI_CONNECT_ADDRESS="127.0.0.1:$((base + 3 + i))" \
        PATRONI_ETCD3_HOSTS="$etcd_hosts" \
        PATRONI_POSTGRESQL_LISTEN="127.0.0.1:$((base + i))" \
        PATRONI_POSTGRESQL_CONNECT_ADDRESS="127.0.0.1:$((base + i))" \
        PATRONI_POSTGRESQL_DATA_DIR="$run/pg$i/data" \
        PATRONI_POSTGRESQL_PGPASS="$run/pg$i/pgpass" \
        PATRONI_SUPERUSER_PASSWORD="$superuser" \
        PATRONI_REPLICATION_PASSWORD="$replication" \
        PATRONI_REWIND_PASSWORD="$rewind" \
        PGBACKREST_PG1_PATH="$run/pg$i/data" PGBACKREST_PG1_PORT=$((base + i)) \
        $as_pg nohup patroni "$run/patroni.yml" > "$run/patroni$i.log" 2>&1 &
    echo $! > "$run/patroni$i.pid"
    i=$((i + 1))
done
# for patronictl: the same file, and where etcd is
{
    echo "scope: ledger"
    echo "etcd3:"
    echo "  hosts: $etcd_hosts"
} > "$run/patronictl.yml"
PATRONICTL_CONFIG_FILE=$run/patronictl.yml
export PATRONICTL_CONFIG_FILE
url_of() { echo "postgresql://postgres:$superuser@$1/postgres"; }
wait_for "a primary (node pg0..pg2)" "$run/patroni0.log" sh -c "
    for port in $((base + 3)) $((base + 4)) $((base + 5)); do
        \"$python\" -c \"import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:\$port/primary', timeout=1).status != 200)\" && exit 0
    done
    exit 1"
i=0
while [ "$i" -lt 3 ]; do
    wait_for "node pg$i" "$run/patroni$i.log" sh -c "
        \"$python\" -c \"import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:$((base + 3 + i))/health', timeout=1).status != 200)\""
    i=$((i + 1))
done

# HAProxy: the primary's port follows Patroni's /primary
if ! running haproxy; then
    HA_PRIMARY=127.0.0.1:$((base + 12)) HA_REPLICAS=127.0.0.1:$((base + 13)) \
        PG_NODE_0=127.0.0.1:$base PG_NODE_1=127.0.0.1:$((base + 1)) PG_NODE_2=127.0.0.1:$((base + 2)) \
        PG_REST_HOST_0=127.0.0.1 PG_REST_HOST_1=127.0.0.1 PG_REST_HOST_2=127.0.0.1 \
        PG_REST_PORT_0=$((base + 3)) PG_REST_PORT_1=$((base + 4)) PG_REST_PORT_2=$((base + 5)) \
        nohup haproxy -db -f "$conf/haproxy.cfg" > "$run/haproxy.log" 2>&1 &
    echo $! > "$run/haproxy.pid"
fi
wait_for "haproxy" "$run/haproxy.log" pg_isready -q -h 127.0.0.1 -p $((base + 12)) -t 2

# the stanza, once the primary archives into it
$as_pg pgbackrest --stanza=ledger stanza-create > "$run/stanza.log" 2>&1 ||
    fail "pgbackrest stanza-create failed: $(tail -n 1 "$run/stanza.log") (see $run/stanza.log)"

hosts=127.0.0.1:$base,127.0.0.1:$((base + 1)),127.0.0.1:$((base + 2))
{
    echo "LEDGER_DATABASE_URL=$(url_of "127.0.0.1:$((base + 12))")"
    echo "LEDGER_DATABASE_URL_MULTI=$(url_of "$hosts")?target_session_attrs=read-write"
    echo "LEDGER_READ_DATABASE_URL=$(url_of "127.0.0.1:$((base + 13))")"
    echo "PATRONICTL_CONFIG_FILE=$PATRONICTL_CONFIG_FILE"
    echo "PGBACKREST_CONFIG=$PGBACKREST_CONFIG"
} > "$run/env"
chmod 600 "$run/env"
started=1
echo "etcd: $etcd_hosts"
echo "patroni: REST on 127.0.0.1:$((base + 3))..$((base + 5)), PostgreSQL on $hosts"
echo "haproxy: primary 127.0.0.1:$((base + 12)), replicas 127.0.0.1:$((base + 13))"
echo "settings for the servers and tools: $run/env"
