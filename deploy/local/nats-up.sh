#!/bin/sh
# NATS with JetStream on loopback for deploy/local/up.sh: one node, or the
# three-node cluster of deploy/nats/nats.conf (stream replicas 3: any one node
# may be lost), then the stream, made by the admin (`ledger nats setup`).
#
#   deploy/local/nats-up.sh RUN_DIR NODES PORT
#
# NODES 1: one node (deploy/nats/single.conf), clients on PORT.
# NODES 3: clients on PORT..PORT+2, routes on PORT+3..PORT+5, monitoring
# (/healthz) on PORT+6..PORT+8. Node i's pid is RUN_DIR/nats-i.pid, its log
# RUN_DIR/nats-i.log, its store RUN_DIR/nats/i.
# Passwords: the servers' user "ledger" (LEDGER_NATS_PASSWORD), the admin
# (LEDGER_NATS_ADMIN_PASSWORD) and the routes', generated into RUN_DIR
# (nats-password, nats-admin-password, nats-route-password) unless set; the
# admin's never reaches the ledger servers. The last line on stdout is the
# servers' LEDGER_NATS_URL. On failure: one line on stderr, exit 1 (the
# caller stops what started, by the pid files).
set -eu
run=${1:?usage: nats-up.sh RUN_DIR NODES PORT}
nodes=${2:?usage: nats-up.sh RUN_DIR NODES PORT}
port=${3:?usage: nats-up.sh RUN_DIR NODES PORT}
ledger=${LEDGER_BIN:-ledger}
python=${PYTHON:-python3}
nats=${NATS_SERVER:-$(command -v nats-server || echo /usr/sbin/nats-server)}
conf=$(cd "$(dirname "$0")/../nats" && pwd)
fail() { echo "nats-up.sh: $*" >&2; exit 1; }
[ "$nodes" = 1 ] || [ "$nodes" = 3 ] || fail "NODES is 1 or 3, not $nodes"
secret() { # the password in RUN_DIR/$1, made once; NATS's config syntax wants a letter first
    [ -s "$run/$1" ] || (umask 077 && "$python" -c 'import secrets; print("n" + secrets.token_hex(24))' > "$run/$1")
    cat "$run/$1"
}
mkdir -p "$run/nats"
LEDGER_NATS_PASSWORD=${LEDGER_NATS_PASSWORD:-$(secret nats-password)}
LEDGER_NATS_ADMIN_PASSWORD=${LEDGER_NATS_ADMIN_PASSWORD:-$(secret nats-admin-password)}
NATS_ROUTE_PASSWORD=${NATS_ROUTE_PASSWORD:-$(secret nats-route-password)}
export LEDGER_NATS_PASSWORD LEDGER_NATS_ADMIN_PASSWORD NATS_ROUTE_PASSWORD

urls=
i=1
while [ "$i" -le "$nodes" ]; do
    client=$((port + i - 1))
    if [ "$nodes" = 1 ]; then
        NATS_LISTEN="127.0.0.1:$client" NATS_STORE_DIR="$run/nats/$i" \
            nohup "$nats" -c "$conf/single.conf" > "$run/nats-$i.log" 2>&1 &
    else
        route() { echo "nats-route://route:$NATS_ROUTE_PASSWORD@127.0.0.1:$((port + 2 + $1))"; }
        NATS_SERVER_NAME="nats-$i" NATS_LISTEN="127.0.0.1:$client" \
            NATS_MONITOR="127.0.0.1:$((port + 5 + i))" \
            NATS_CLUSTER_LISTEN="127.0.0.1:$((port + 2 + i))" \
            NATS_ROUTE_1=$(route 1) NATS_ROUTE_2=$(route 2) NATS_ROUTE_3=$(route 3) \
            NATS_STORE_DIR="$run/nats/$i" \
            nohup "$nats" -c "$conf/nats.conf" > "$run/nats-$i.log" 2>&1 &
    fi
    echo $! > "$run/nats-$i.pid"
    urls="$urls${urls:+,}nats://127.0.0.1:$client"
    i=$((i + 1))
done

# the admin makes the stream once JetStream answers (a cluster first elects
# its leaders: a few seconds)
tries=0
until LEDGER_NATS_URL=$urls LEDGER_NATS_ADMIN_USER=admin \
    "$ledger" nats setup --replicas "$nodes" --timeout 3 > "$run/nats-setup.log" 2>&1; do
    tries=$((tries + 1))
    i=1
    while [ "$i" -le "$nodes" ]; do
        kill -0 "$(cat "$run/nats-$i.pid")" 2> /dev/null ||
            fail "nats-server $i exited: $(tail -n 1 "$run/nats-$i.log") (see $run/nats-$i.log)"
        i=$((i + 1))
    done
    [ "$tries" -lt 20 ] || fail "ledger nats setup failed: $(tail -n 1 "$run/nats-setup.log")"
    sleep 1
done
echo "$urls"
