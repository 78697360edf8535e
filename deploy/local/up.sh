#!/bin/sh
# A local scale-out deployment on loopback: the tables (once), 3 x `ledger serve`
# on consecutive ports, all on one PostgreSQL, and one `ledger project` worker.
#
#   LEDGER_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/ledger deploy/local/up.sh RUN_DIR [BASE_PORT]
#   deploy/local/down.sh RUN_DIR
#
# Each process's pid is RUN_DIR/<name>.pid and its log RUN_DIR/<name>.log;
# the servers answer on 127.0.0.1:BASE_PORT..BASE_PORT+2 (default 50061).
# LEDGER_ADMIN_TOKEN is shared by the three (generated into RUN_DIR if unset),
# and so is the receipt signing key: LEDGER_SIGNING_KEY or
# LEDGER_SIGNING_KEY_FILE, else one generated into RUN_DIR/signing-key, so
# `ledger audit` verifies every receipt with one keyring (docs/scale-out.md).
# NATS: with LEDGER_NATS_URL set, the servers use that one; else, when
# nats-server is installed (NATS_SERVER, default: found on PATH or in
# /usr/sbin), local/nats-up.sh runs LEDGER_LOCAL_NATS nodes of it: 1 (the
# default) on 127.0.0.1:BASE_PORT+3, or 3, the cluster of deploy/nats/nats.conf,
# on BASE_PORT+5..+13 (clients on +5..+7), with the stream in 3 replicas; the
# servers log in as user "ledger" (publish and follow only), the stream is
# made by the admin, whose password stays in RUN_DIR/nats-admin-password.
# LEDGER_LOCAL_NATS=0 keeps the in-process fan-out.
# LEDGER_METRICS_PORT=M gives every process a /metrics port of its own:
# server i on M+i, the projection worker on M+3 (M+LEDGER_LOCAL_SERVERS).
# On any failure it says so in one line on stderr and stops what it started.
# Tested by tests/deploy/test_local_scale_out.py (kill -9 of one server under load)
# and tests/deploy/test_shipped_deployments_start.py (metrics on, no database).
set -eu
run=${1:?usage: up.sh RUN_DIR [BASE_PORT]}
base=${2:-50061}
: "${LEDGER_DATABASE_URL:?set LEDGER_DATABASE_URL}"
ledger=${LEDGER_BIN:-ledger}
python=${PYTHON:-python3}
servers=${LEDGER_LOCAL_SERVERS:-3}
metrics=${LEDGER_METRICS_PORT:-}
unset LEDGER_METRICS_PORT   # each process gets its own, below
mkdir -p "$run"
here=$(cd "$(dirname "$0")" && pwd)
started=0
# Until everything is up, any exit (an error, set -e, Ctrl-C) stops what started.
cleanup() { [ "$started" = 1 ] || "$here/down.sh" "$run" > /dev/null 2>&1 || true; }
trap cleanup EXIT
trap 'exit 130' INT TERM
fail() { echo "up.sh: $*" >&2; exit 1; }
metrics_env() { # the LEDGER_METRICS_PORT of process $1 (0..), or nothing
    [ -n "$metrics" ] && echo "LEDGER_METRICS_PORT=$((metrics + $1))" || true
}
if [ -z "${LEDGER_ADMIN_TOKEN:-}" ]; then
    [ -s "$run/admin-token" ] || "$python" -c 'import secrets; print(secrets.token_urlsafe(32))' > "$run/admin-token"
    LEDGER_ADMIN_TOKEN=$(cat "$run/admin-token")
fi
export LEDGER_ADMIN_TOKEN LEDGER_DATABASE_URL
if [ -z "${LEDGER_SIGNING_KEY:-}" ] && [ -z "${LEDGER_SIGNING_KEY_FILE:-}" ]; then
    [ -s "$run/signing-key" ] || (umask 077 && "$python" -c 'import secrets; print(secrets.token_hex(32))' > "$run/signing-key")
    LEDGER_SIGNING_KEY_FILE="$run/signing-key"
    export LEDGER_SIGNING_KEY_FILE
fi
export LEDGER_PROJECTIONS=false   # the worker below runs the views
# down.sh waits this long (and a margin) for a server's drain before SIGKILL
echo "${LEDGER_DRAIN_SECONDS:-10}" > "$run/drain-seconds"

nats=${NATS_SERVER:-$(command -v nats-server || echo /usr/sbin/nats-server)}
nats_nodes=${LEDGER_LOCAL_NATS:-1}
if [ -z "${LEDGER_NATS_URL:-}" ] && [ "$nats_nodes" != 0 ] && [ -x "$nats" ]; then
    nats_port=$((base + 3))
    [ "$nats_nodes" = 1 ] || nats_port=$((base + 5))
    urls=$(NATS_SERVER=$nats "$here/nats-up.sh" "$run" "$nats_nodes" "$nats_port") || exit 1
    LEDGER_NATS_URL=$(echo "$urls" | tail -n 1)
    LEDGER_NATS_USER=ledger
    LEDGER_NATS_PASSWORD=${LEDGER_NATS_PASSWORD:-$(cat "$run/nats-password")}
    export LEDGER_NATS_USER LEDGER_NATS_PASSWORD
    pids=
    for pidfile in "$run"/nats-*.pid; do pids="$pids${pids:+ }$(cat "$pidfile")"; done
    echo "nats: $LEDGER_NATS_URL (JetStream, pid $pids; $nats_nodes node(s))"
fi
unset LEDGER_NATS_ADMIN_PASSWORD   # the admin's: never the servers'
[ -z "${LEDGER_NATS_URL:-}" ] || export LEDGER_NATS_URL

# tables once, before the servers race for them
"$ledger" db setup > "$run/setup.log" 2>&1 ||
    fail "ledger db setup failed: $(grep -v '^[[:space:]]*$' "$run/setup.log" | tail -n 1) (see $run/setup.log)"

i=0
while [ "$i" -lt "$servers" ]; do
    port=$((base + i))
    mkdir -p "$run/serve-$i"
    http=off   # one dashboard is enough: the first server's, on BASE_PORT + 4
    [ "$i" -ne 0 ] || http="127.0.0.1:$((base + 4))"
    env $(metrics_env "$i") LEDGER_DATA_DIR="$run/serve-$i" LEDGER_LISTEN="127.0.0.1:$port" \
        LEDGER_HTTP_LISTEN="$http" nohup "$ledger" serve > "$run/serve-$i.log" 2>&1 &
    echo $! > "$run/serve-$i.pid"
    i=$((i + 1))
done
env $(metrics_env "$servers") LEDGER_DATA_DIR="$run" nohup "$ledger" project > "$run/project.log" 2>&1 &
echo $! > "$run/project.pid"

i=0
while [ "$i" -lt "$servers" ]; do
    port=$((base + i))
    tries=0
    until "$python" -m services.runtime.health_probe --target "127.0.0.1:$port" --timeout 1 > /dev/null 2>&1; do
        tries=$((tries + 1))
        if [ "$tries" -gt 120 ] || ! kill -0 "$(cat "$run/serve-$i.pid")" 2> /dev/null; then
            fail "serve-$i on port $port did not start: $(tail -n 1 "$run/serve-$i.log") (see $run/serve-$i.log)"
        fi
        sleep 0.5
    done
    echo "serve-$i: 127.0.0.1:$port SERVING (pid $(cat "$run/serve-$i.pid"))"
    i=$((i + 1))
done
kill -0 "$(cat "$run/project.pid")" 2> /dev/null ||
    fail "ledger project exited: $(tail -n 1 "$run/project.log") (see $run/project.log)"
started=1
echo "project: pid $(cat "$run/project.pid")${metrics:+, metrics on :$((metrics + servers))}"
