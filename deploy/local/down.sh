#!/bin/sh
# Stops what deploy/local/up.sh RUN_DIR started, by the pids it wrote.
#
# The servers and the projection worker first: SIGTERM, then each gets its
# drain (LEDGER_DRAIN_SECONDS as up.sh saw it, in RUN_DIR/drain-seconds;
# default 10) plus a margin of DOWN_MARGIN seconds (default 10) to exit before
# SIGKILL, so a loaded drain is never cut. A drain ends as soon as its calls
# in flight have answered, so an idle deployment stops in about a second.
# NATS last, so the servers' last publishes reach it.
set -u
run=${1:?usage: down.sh RUN_DIR}
drain=$(cat "$run/drain-seconds" 2> /dev/null || echo 10)
margin=${DOWN_MARGIN:-10}
# quarter-second ticks until SIGKILL: (drain + margin) * 4, drain rounded up
ticks=$(awk -v d="$drain" -v m="$margin" 'BEGIN { t = (d + m) * 4; print (t == int(t)) ? t : int(t) + 1 }')

alive() { # a zombie (exited, not yet reaped by whoever started it) is gone
    kill -0 "$1" 2> /dev/null || return 1
    [ "$(sed 's/.*) //' "/proc/$1/stat" 2> /dev/null | cut -d' ' -f1)" != Z ]
}

stop() { # $@: pid files; SIGTERM them all, wait for each, SIGKILL what outlives it
    for pidfile in "$@"; do
        [ -e "$pidfile" ] || continue
        kill "$(cat "$pidfile")" 2> /dev/null || true
    done
    for pidfile in "$@"; do
        [ -e "$pidfile" ] || continue
        pid=$(cat "$pidfile")
        tries=0
        while alive "$pid" && [ "$tries" -lt "$ticks" ]; do
            sleep 0.25
            tries=$((tries + 1))
        done
        if alive "$pid"; then
            echo "down.sh: $(basename "$pidfile" .pid) still running after ${drain}s + ${margin}s: SIGKILL" >&2
            kill -9 "$pid" 2> /dev/null || true
        fi
        rm -f "$pidfile"
    done
}
set --
for pidfile in "$run"/*.pid; do
    case $(basename "$pidfile") in nats-*) ;; *) set -- "$@" "$pidfile" ;; esac
done
stop "$@"
stop "$run"/nats-*.pid
