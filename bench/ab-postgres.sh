#!/bin/sh
# ab-postgres.sh SQLITE_SEED BIN_DIR…: durable posts on PostgreSQL, several builds of twitterd alternately on one
# database, driven by the C client (64 connections × 4 in flight, rates off), ROUNDS rounds (default 3) of 5 s.
# Each round starts with the last build's SQLite posts under the same load on a copy of SQLITE_SEED (seeded with
# `twitterd seed`), so each PostgreSQL figure has its ratio to SQLite's in the same minutes, as `make bench` takes
# it. Beside each round: the WAL flushes and commits a second (pg_stat_wal, pg_stat_database) and the statements
# a batch ran (pg_stat_statements' calls over the batches' inserts, and each one's mean time on the server), the
# serial chain each batch is.
# The cluster is made and removed here, with bench/postgres.sh's settings; PG_USERS, PG_TWEETS and PG_FOLLOWS
# size its seed (default 1,000, 100,000 and 100). The builds alternate on the same database, so each finds the
# tweets the ones before it posted. Example, main against a change:
#   sh bench/ab-postgres.sh /tmp/seed.sqlite /tmp/main/.build/release .build/release
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
seed=$1; shift
rounds=${ROUNDS:-3}
PG_USERS=${PG_USERS:-1000}
PG_TWEETS=${PG_TWEETS:-100000}
PG_FOLLOWS=${PG_FOLLOWS:-100}
for last in "$@"; do :; done
work=$(mktemp -d /tmp/twitterd-abpg.XXXXXX)
chmod 0755 "$work"
bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
PG="$work/pg"
mkdir -p "$PG" && chmod 0700 "$PG"
as=""
if [ "$(id -u)" -eq 0 ]; then
    chown postgres: "$PG"
    as="runuser -u postgres --"
fi
pid=""
stop() {
    [ -z "$pid" ] || kill "$pid" 2>/dev/null || true
    $as "$bindir/pg_ctl" -D "$PG/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap stop EXIT
trap 'exit 130' INT TERM
cc -O2 -o "$work/load_client" bench/load_client.c
printf '[rates]\nposts = "off"\nfollows = "off"\nlikes = "off"\nreposts = "off"\nreports = "off"\n' > "$work/twitterd.toml"
$as "$bindir/initdb" -D "$PG/data" -U twitterd --auth=trust -E UTF8 --locale=C.UTF-8 > "$work/initdb.log" 2>&1
$as "$bindir/pg_ctl" -D "$PG/data" -l "$PG/server.log" -w -t 60 -o "-k $PG -c listen_addresses='' -p 5432 \
    -c fsync=on -c synchronous_commit=on -c max_connections=100 -c shared_buffers=256MB \
    -c shared_preload_libraries=pg_stat_statements" start > /dev/null
sql() { psql -h "$PG" -U twitterd -d twitterd -At -F ' ' "$@"; }
psql -q -h "$PG" -U twitterd -d postgres -c 'CREATE DATABASE twitterd' > /dev/null
sql -q -c 'CREATE EXTENSION pg_stat_statements' > /dev/null
URL="postgres://twitterd@/twitterd?host=$PG"
POST='{"jsonrpc":"2.0","method":"tweets.post","params":{"text":"load from the C client"},"id":1}'

serve() { # bin, database: starts twitterd on $work/sock, its pid in $pid, and returns once it answers
    "$1/twitterd" --socket "$work/sock" --http "unix:$work/http.sock" --database "$2" --config "$work/twitterd.toml" \
        --log-level warning 2>> "$work/twitterd.log" &
    pid=$!
    until "$1/twctl" --socket "$work/sock" status > /dev/null 2>&1; do
        kill -0 "$pid" 2>/dev/null || { cat "$work/twitterd.log" >&2; exit 1; }
        sleep 0.1
    done
}
halt() { kill "$pid"; wait "$pid" 2>/dev/null || true; pid=""; }
posts() { # the C client's posts, one object
    "$work/load_client" --socket "$work/sock" --duration 5 --connections 64 --depth 4 --login "$SEED_LOGIN" "$POST"
}

# The first build makes the schema and signs seed1 up (its password hash is the daemon's own), then the seed.
serve "$last" "$URL"
printf '%s\n' '{"jsonrpc":"2.0","method":"auth.signup","params":{"email":"seed1@example.com","password":"seed-password","username":"seed1"},"id":1}' |
    socat -t 30 - "UNIX-CONNECT:$work/sock" | grep -q '"result"'
halt
sql -q -v users="$PG_USERS" -v tweets="$PG_TWEETS" -v follows="$PG_FOLLOWS" -f bench/postgres-seed.sql > /dev/null
sync

round=1
while [ "$round" -le "$rounds" ]; do
    cp "$seed" "$work/sqlite.db"
    serve "$last" "$work/sqlite.db"
    posts | jq -r --arg round "$round" '"\($round) SQLite (last build) \(.requestsPerSecond | floor) posts/s, p50 \(.p50Micros) µs, p99 \(.p99Micros) µs, \(.errors) errors"'
    halt
    rm -f "$work/sqlite.db"*
    for bin in "$@"; do
        serve "$bin" "$URL"
        sql -q -c 'SELECT pg_stat_statements_reset()' > /dev/null
        read -r syncs0 commits0 <<EOF
$(sql -c "SELECT wal_sync, (SELECT xact_commit FROM pg_stat_database WHERE datname = 'twitterd') FROM pg_stat_wal")
EOF
        result=$(posts)
        read -r syncs1 commits1 <<EOF
$(sql -c "SELECT wal_sync, (SELECT xact_commit FROM pg_stat_database WHERE datname = 'twitterd') FROM pg_stat_wal")
EOF
        # The statements of the ordered writes, per batch (one INSERT INTO tweets a batch).
        perbatch=$(sql -c "WITH s AS (SELECT left(regexp_replace(query, '\\s+', ' ', 'g'), 60) AS q, calls, mean_exec_time
                FROM pg_stat_statements),
            b AS (SELECT sum(calls) AS n FROM s WHERE q LIKE 'INSERT INTO tweets%')
            SELECT string_agg(round(calls::numeric / (SELECT n FROM b), 2) || ' x ' || round(mean_exec_time::numeric, 3)
                || ' ms ' || q, '; ' ORDER BY calls DESC)
            FROM s WHERE calls >= (SELECT n FROM b) / 2")
        halt
        echo "$result" | jq -r --arg bin "$bin" --arg round "$round" --arg s "$((syncs1 - syncs0))" \
            --arg c "$((commits1 - commits0))" \
            '"\($round) \($bin) \(.requestsPerSecond | floor) posts/s, p50 \(.p50Micros) µs, p99 \(.p99Micros) µs, \(.errors) errors; \($s) WAL syncs, \($c) commits in the round"'
        echo "    a batch's statements: $perbatch"
    done
    round=$((round + 1))
done
