#!/bin/sh
# ab-postgres.sh SQLITE_SEED BIN_DIR…: durable posts on PostgreSQL, several builds of twitterd alternately on one
# database, driven by the C client (64 connections × 4 in flight, rates off), ROUNDS rounds (default 3) of 5 s;
# with LOAD=home, home timelines 16 × 8 instead, as `make bench` runs them; with PAIR=1 through two daemons of each
# build on the database, the client's connections dealt between them (make bench's c_pg2 loads). Each round starts with the last build
# on SQLite under the same load, on a copy of SQLITE_SEED (seeded with `twitterd seed`), so each PostgreSQL figure
# has its ratio to SQLite's in the same minutes, as `make bench` takes it. Beside each round of posts: the WAL
# syncs and commits (pg_stat_wal, pg_stat_database), the statements a batch ran (pg_stat_statements' calls over
# the batches' inserts, with each one's mean time on the server), and a batch's cycle against the server's part.
# The cluster is made and removed here, with make bench's settings (bench/lib.sh's pg_cluster_start); PG_USERS,
# PG_TWEETS and PG_FOLLOWS size its seed (default 1,000, 100,000 and 100). The builds alternate on the same database, so each finds the
# tweets the ones before it posted. Example, main against a change:
#   sh bench/ab-postgres.sh /tmp/seed.sqlite /tmp/main/.build/release .build/release
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
[ $# -ge 2 ] || { echo "usage: ab-postgres.sh SQLITE_SEED BIN_DIR..." >&2; exit 64; }
seed=$1; shift
rounds=${ROUNDS:-3}
PG_USERS=${PG_USERS:-1000}
PG_TWEETS=${PG_TWEETS:-100000}
PG_FOLLOWS=${PG_FOLLOWS:-100}
for last in "$@"; do :; done
work=$(mktemp -d /tmp/twitterd-abpg.XXXXXX)
# The cluster beside it, not in it: a daemon makes the folder of its SQLite database private, and the server's user
# must go on entering the cluster's (bench/postgres.sh does the same).
cluster=$(mktemp -d /tmp/twitterd-abpg-cluster.XXXXXX)
chmod 0755 "$cluster"
pid=""; partner=""
stop() {
    # shellcheck disable=SC2086 # either may be empty
    kill $pid $partner 2>/dev/null || true
    pg_cluster_stop
    rm -rf "$work" "$cluster"
}
trap stop EXIT
trap 'exit 130' INT TERM
cc -O2 -o "$work/load_client" bench/load_client.c
printf '[rates]\nposts = "off"\nfollows = "off"\nlikes = "off"\nreposts = "off"\nreports = "off"\n' > "$work/twitterd.toml"
pg_cluster_start "$cluster/pg"
sql() { psql -h "$PG" -U twitterd -d twitterd -At -F ' ' "$@"; }
URL="postgres://twitterd@/twitterd?host=$PG"
POST='{"jsonrpc":"2.0","method":"tweets.post","params":{"text":"load from the C client"},"id":1}'

start() { # bin, database, socket: starts twitterd on the socket, its pid in $started, and returns once it answers
    "$1/twitterd" --socket "$3" --http "unix:${3%.sock}-http.sock" --database "$2" --config "$work/twitterd.toml" \
        --log-level warning 2>> "$work/twitterd.log" &
    started=$!
    tries=0
    until "$1/twctl" --socket "$3" status > /dev/null 2>&1; do
        tries=$((tries + 1))
        if [ "$tries" -gt 600 ] || ! kill -0 "$started" 2>/dev/null; then
            echo "ab-postgres.sh: twitterd did not start:" >&2; cat "$work/twitterd.log" >&2; exit 1
        fi
        sleep 0.1
    done
}
serve() { # bin, database: twitterd on $work/a.sock (pid in $pid), and with PAIR=1 on PostgreSQL a second on b.sock
    start "$1" "$2" "$work/a.sock"; pid=$started
    if [ "${PAIR:-0}" = 1 ] && [ "$2" = "$URL" ]; then start "$1" "$2" "$work/b.sock"; partner=$started; fi
}
halt() {
    # shellcheck disable=SC2086 # partner may be empty
    kill $pid $partner 2>/dev/null || true; wait $pid $partner 2>/dev/null || true; pid=""; partner=""
}
case ${LOAD:-post} in
post) load="--connections 64 --depth 4"; request=$POST ;;
home) load="--connections 16 --depth 8"; request='{"jsonrpc":"2.0","method":"timeline.home","params":{"limit":20},"id":1}' ;;
*) echo "ab-postgres.sh: LOAD is post or home" >&2; exit 64 ;;
esac
drive() { # the C client's load, one object
    # shellcheck disable=SC2086 # the load's options are meant to split
    sockets="--socket $work/a.sock"
    [ -z "$partner" ] || sockets="$sockets --socket $work/b.sock"
    "$work/load_client" $sockets --duration 5 $load --login "$SEED_LOGIN" "$request"
}

# The first build makes the schema and signs seed1 up (its password hash is the daemon's own), then the seed.
serve "$last" "$URL"
printf '%s\n' '{"jsonrpc":"2.0","method":"auth.signup","params":{"email":"seed1@example.com","password":"seed-password","username":"seed1"},"id":1}' |
    socat -t 30 - "UNIX-CONNECT:$work/a.sock" | grep -q '"result"'
halt
sql -q -v users="$PG_USERS" -v tweets="$PG_TWEETS" -v follows="$PG_FOLLOWS" -f bench/postgres-seed.sql > /dev/null
sync

round=1
while [ "$round" -le "$rounds" ]; do
    cp "$seed" "$work/sqlite.db"
    serve "$last" "$work/sqlite.db"
    drive | jq -r --arg round "$round" '"\($round) SQLite (last build) \(.requestsPerSecond | floor) req/s, p50 \(.p50Micros) µs, p99 \(.p99Micros) µs, \(.errors) errors"'
    halt
    rm -f "$work/sqlite.db"*
    for bin in "$@"; do
        serve "$bin" "$URL"
        sql -q -c 'SELECT pg_stat_statements_reset()' > /dev/null
        read -r syncs0 commits0 synced0 <<EOF
$(sql -c "SELECT wal_sync, (SELECT xact_commit FROM pg_stat_database WHERE datname = 'twitterd'), wal_sync_time FROM pg_stat_wal")
EOF
        result=$(drive)
        read -r syncs1 commits1 synced1 <<EOF
$(sql -c "SELECT wal_sync, (SELECT xact_commit FROM pg_stat_database WHERE datname = 'twitterd'), wal_sync_time FROM pg_stat_wal")
EOF
        halt
        echo "$result" | jq -r --arg bin "$bin" --arg round "$round" --arg s "$((syncs1 - syncs0))" \
            --arg c "$((commits1 - commits0))" \
            '"\($round) \($bin) \(.requestsPerSecond | floor) req/s, p50 \(.p50Micros) µs, p99 \(.p99Micros) µs, \(.errors) errors; \($s) WAL syncs, \($c) commits in the round"'
        [ "${LOAD:-post}" = post ] || continue
        # The statements of the ordered writes, per batch (one INSERT INTO tweets a batch).
        perbatch=$(sql -c "WITH s AS (SELECT left(regexp_replace(query, '\\s+', ' ', 'g'), 60) AS q, calls, mean_exec_time
                FROM pg_stat_statements),
            b AS (SELECT sum(calls) AS n FROM s WHERE q LIKE 'INSERT INTO tweets%')
            SELECT string_agg(round(calls::numeric / (SELECT n FROM b), 2) || ' x ' || round(mean_exec_time::numeric, 3)
                || ' ms ' || q, '; ' ORDER BY calls DESC)
            FROM s WHERE calls >= (SELECT n FROM b) / 2")
        # A batch's cycle (the load's 5 s over its batches) against what the server spent on it: its statements
        # and the WAL syncs (wal_sync_time, over the batches); the rest is the daemon's side of the chain.
        cycle=$(sql -c "WITH s AS (SELECT query, calls, total_exec_time FROM pg_stat_statements),
            b AS (SELECT sum(calls) AS n FROM s WHERE query LIKE 'INSERT INTO tweets%')
            SELECT (SELECT n FROM b) || ' batches, a cycle of ' || round(5000 / (SELECT n FROM b), 2) || ' ms: statements '
                || round(sum(total_exec_time)::numeric / (SELECT n FROM b), 2) || ' ms, WAL syncs '
                || round(($synced1 - $synced0)::numeric / (SELECT n FROM b), 2) || ' ms'
            FROM s WHERE calls >= (SELECT n FROM b) / 2")
        echo "    a batch's statements: $perbatch"
        echo "    $cycle"
    done
    round=$((round + 1))
done
