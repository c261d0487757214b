# Shared by the bench scripts (sourced, not run): how a figure is recorded, how the C client's loads are run,
# how a daemon is started for a load. record and cload expect WORK (the bench's work folder), RESULTS (its JSON
# lines), DURATION and ROUNDS.

# The line that logs a C client's connection N in as the seeded account seedN (load_client's --login).
SEED_LOGIN='{"jsonrpc":"2.0","method":"auth.login","params":{"provider":"password","credentials":{"email":"seed%d@example.com","password":"seed-password"}},"id":0}'

start_daemon() { # bin, socket, database, config: starts twitterd (its pid in $pid) and returns once it answers
    "$1/twitterd" --socket "$2" --database "$3" --config "$4" --log-level warning 2>>"$2.log" &
    pid=$!
    until "$1/twctl" --socket "$2" status >/dev/null 2>&1; do sleep 0.1; done
}

sweep_workspace() { # a scratch folder in $work, removed on exit with the daemon start_daemon left in $pid
    work=$(mktemp -d /tmp/twitterd-sweep.XXXXXX)
    pid=""
    trap 'kill $pid 2>/dev/null || true; rm -rf "$work"' EXIT
}

record() { # name, json
    printf '{"name":"%s","result":%s}\n' "$1" "$2" >> "$RESULTS"
}

# The independent C client (bench/load_client.c) drives twitterd and every anchor the same way, so each
# ratio compares servers. Connections that need a login log in as seed1, seed2… before the clock starts.
cload() { # name, socket, args...: the median of ROUNDS runs by requests per second
    name=$1; socket=$2; shift 2
    echo "$name (C client)"
    : > "$WORK/rounds.json"
    round=0
    while [ "$round" -lt "$ROUNDS" ]; do
        "$WORK/load_client" --socket "$socket" --duration "$DURATION" "$@" >> "$WORK/rounds.json" || true
        round=$((round + 1))
    done
    record "$name" "$(jq -c -s 'sort_by(.requestsPerSecond) | .[length / 2 | floor] // {}' "$WORK/rounds.json")"
}

ticks() { # pids...: their user and system CPU time so far, in clock ticks, summed (a pid that is gone counts 0)
    for pid in "$@"; do
        # The command name is in parentheses and may hold spaces: count fields after the last ')'.
        sed 's/.*) //' "/proc/$pid/stat" 2>/dev/null | awk '{print $12 + $13}'
    done | awk '{ sum += $1 } END { print sum + 0 }'
}

# cload, recording beside it (as NAME_cpu) how many cores the daemons and the PostgreSQL server's processes
# used over all its rounds (logins and warm-ups included): where the time went; and the machine's one-minute
# load average at its end, which says whether anything else was running.
cload_cpu() { # name, "daemon pids", postmaster pid, socket, args...
    cpu_name=$1; daemons=$2; postmaster=$3; shift 3
    # shellcheck disable=SC2086 # the pid lists are meant to split
    {
        backends=$(pgrep -P "$postmaster" | tr '\n' ' ')
        daemon_before=$(ticks $daemons); server_before=$(ticks "$postmaster" $backends)
        started=$(date +%s.%N)
        cload "$cpu_name" "$@"
        ended=$(date +%s.%N)
        backends=$(pgrep -P "$postmaster" | tr '\n' ' ')
        daemon_after=$(ticks $daemons); server_after=$(ticks "$postmaster" $backends)
    }
    record "${cpu_name}_cpu" "$(awk -v d="$((daemon_after - daemon_before))" -v s="$((server_after - server_before))" \
        -v t0="$started" -v t1="$ended" -v hz="$(getconf CLK_TCK)" \
        -v load="$(cut -d ' ' -f 1 /proc/loadavg)" \
        'BEGIN { w = t1 - t0; printf "{\"seconds\":%.1f,\"twitterdCores\":%.2f,\"postgresCores\":%.2f,\"loadAverage\":%s}", w, d / hz / w, s / hz / w, load }')"
}

# A PostgreSQL cluster of the bench's own in the folder PG (an absolute path: the daemons' URL names the socket's
# folder; made here, 0700), with the twitterd database and pg_stat_statements in it. The server keeps PostgreSQL's
# durable defaults (fsync on, synchronous_commit on, full_page_writes on), so an answered post is on disk, as with
# SQLite's synchronous=FULL; Unix socket only, trust on it (the folder is private to root and the server's user);
# shared_buffers 256 MB (the default 128 MB holds less than the seeded tables and indexes); pg_stat_statements
# preloaded and track_wal_io_timing on, for what a load spent on the server. Sets bindir and as (how the server's
# tools are run); pg_cluster_stop stops it and removes the folder.
pg_cluster_start() { # folder
    PG=$1
    bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
        echo "no PostgreSQL server in /usr/lib/postgresql/*/bin; run scripts/install-deps.sh" >&2
        exit 1
    fi
    rm -rf "$PG" && mkdir -p "$PG" && chmod 0700 "$PG"
    as=""
    if [ "$(id -u)" -eq 0 ]; then
        # Debian's server refuses to run as root: as root it runs as the `postgres` user its package creates.
        chown postgres: "$PG"
        as="runuser -u postgres --"
    fi
    $as "$bindir/initdb" -D "$PG/data" -U twitterd --auth=trust -E UTF8 --locale=C.UTF-8 > "$PG/initdb.log" 2>&1 ||
        { cat "$PG/initdb.log" >&2; exit 1; }
    $as "$bindir/pg_ctl" -D "$PG/data" -l "$PG/server.log" -w -t 60 -o "-k $PG -c listen_addresses='' -p 5432 \
        -c fsync=on -c synchronous_commit=on -c max_connections=100 -c shared_buffers=256MB \
        -c shared_preload_libraries=pg_stat_statements -c track_wal_io_timing=on" start > /dev/null ||
        { cat "$PG/server.log" >&2; exit 1; }
    psql -q -h "$PG" -U twitterd -d postgres -c 'CREATE DATABASE twitterd' > /dev/null
    psql -q -h "$PG" -U twitterd -d twitterd -c 'CREATE EXTENSION pg_stat_statements' > /dev/null
}

pg_cluster_stop() {
    [ -n "${bindir:-}" ] || return 0
    ${as:-} "$bindir/pg_ctl" -D "$PG/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$PG"
}
