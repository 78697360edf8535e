#!/bin/sh
# Stops what deploy/local/pg-ha-up.sh RUN_DIR started: HAProxy, the Patroni
# nodes (each stops its PostgreSQL), then etcd. Data stays in RUN_DIR.
set -u
run=${1:?usage: pg-ha-down.sh RUN_DIR}
stop() { # $1: name; TERM, then KILL after $2 seconds
    [ -s "$run/$1.pid" ] || return 0
    pid=$(cat "$run/$1.pid")
    kill "$pid" 2> /dev/null || { rm -f "$run/$1.pid"; return 0; }
    tries=0
    while kill -0 "$pid" 2> /dev/null && [ "$tries" -lt $(($2 * 4)) ]; do
        sleep 0.25
        tries=$((tries + 1))
    done
    kill -9 "$pid" 2> /dev/null || true
    rm -f "$run/$1.pid"
}
stop haproxy 5
for i in 0 1 2; do stop "patroni$i" 30 & done
wait
# a node killed with -9 leaves its PostgreSQL running: stop it too
for i in 0 1 2; do
    pidfile=$run/pg$i/data/postmaster.pid
    [ -s "$pidfile" ] && kill -QUIT "$(head -n 1 "$pidfile")" 2> /dev/null
done
for i in 0 1 2; do stop "etcd$i" 10; done
exit 0
