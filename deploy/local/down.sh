#!/bin/sh
# Stops what deploy/local/up.sh RUN_DIR started (SIGTERM, by the pids it wrote).
set -u
run=${1:?usage: down.sh RUN_DIR}
for pidfile in "$run"/*.pid; do
    [ -e "$pidfile" ] || continue
    pid=$(cat "$pidfile")
    kill "$pid" 2> /dev/null || true
done
for pidfile in "$run"/*.pid; do
    [ -e "$pidfile" ] || continue
    pid=$(cat "$pidfile")
    tries=0
    while kill -0 "$pid" 2> /dev/null && [ "$tries" -lt 40 ]; do
        sleep 0.25
        tries=$((tries + 1))
    done
    kill -9 "$pid" 2> /dev/null || true
    rm -f "$pidfile"
done
