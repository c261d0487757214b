#!/bin/sh
# The PostgreSQL part of `make bench`, run by bench/run.sh (which builds, compiles the C client and measures
# the anchors): durable posts and home timelines through one daemon, then through two daemons sharing the
# database, in a PostgreSQL cluster of its own in .build/bench-postgres, removed at the end.
#
# The cluster's settings are bench/lib.sh's (pg_cluster_start): PostgreSQL's durable defaults, everything else the
# default but shared_buffers (256 MB) and what measures the server (pg_stat_statements, track_wal_io_timing).
#
# Expects from run.sh: BIN, WORK, RESULTS, DURATION, ROUNDS, the C client in $WORK/load_client, and
# $WORK/twitterd.toml (rates off). PG_USERS, PG_TWEETS and PG_FOLLOWS size the seed (default: the SQLite
# bench's 10,000 users, 1,000,000 tweets, about 100 follows each).
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
PG_USERS=${PG_USERS:-10000}
PG_TWEETS=${PG_TWEETS:-1000000}
PG_FOLLOWS=${PG_FOLLOWS:-100}

DAEMONS=""
stop() {
    # shellcheck disable=SC2086
    [ -z "$DAEMONS" ] || kill $DAEMONS 2>/dev/null || true
    pg_cluster_stop
}
trap stop EXIT
trap 'exit 130' INT TERM
# Beside the bench's work folder, not in it: twitterd makes the folder of its SQLite database (that one) 0700,
# which the server's user could not enter.
pg_cluster_start "$PWD/$(dirname "$WORK")/bench-postgres"
echo "PostgreSQL $("$bindir/postgres" --version | awk '{print $3}'): a cluster in $PG"
POSTMASTER=$(head -n 1 "$PG/data/postmaster.pid")
URL="postgres://twitterd@/twitterd?host=$PG"
record postgres_server "{\"version\":\"$("$bindir/postgres" --version | awk '{print $3}')\",\"fsync\":\"$(psql -h "$PG" -U twitterd -d twitterd -Atc 'SHOW fsync')\",\"synchronousCommit\":\"$(psql -h "$PG" -U twitterd -d twitterd -Atc 'SHOW synchronous_commit')\",\"sharedBuffers\":\"$(psql -h "$PG" -U twitterd -d twitterd -Atc 'SHOW shared_buffers')\"}"

serve() { # socket: starts a daemon on the shared database, waits until it answers, prints its pid
    # Each daemon's HTTP listener on a socket of its own: by default it is http.sock beside the RPC socket, which
    # run.sh's SQLite daemon, still up, already serves.
    "$BIN/twitterd" --socket "$1" --http "unix:${1%.sock}-http.sock" --database "$URL" --config "$WORK/twitterd.toml" \
        --log-level warning \
        > /dev/null 2>> "$WORK/twitterd-postgres.log" &
    pid=$!
    tries=0
    until "$BIN/twctl" --socket "$1" status > /dev/null 2>&1; do
        tries=$((tries + 1))
        if [ "$tries" -gt 600 ] || ! kill -0 "$pid" 2>/dev/null; then
            echo "postgres.sh: the daemon on $1 did not start:" >&2
            cat "$WORK/twitterd-postgres.log" >&2
            exit 1
        fi
        sleep 0.1
    done
    echo "$pid"
}

# The first daemon makes the schema; seed1 signs up through it, so its password hash is the daemon's own.
echo "seeding PostgreSQL: $PG_USERS users following about $PG_FOLLOWS each and $PG_TWEETS tweets"
seed_start=$(date +%s.%N)
SEEDER=$(serve "$WORK/pg-seed.sock"); DAEMONS=$SEEDER
printf '%s\n' '{"jsonrpc":"2.0","method":"auth.signup","params":{"email":"seed1@example.com","password":"seed-password","username":"seed1"},"id":1}' |
    socat -t 30 - "UNIX-CONNECT:$WORK/pg-seed.sock" | grep -q '"result"' ||
    { echo "postgres.sh: seed1's signup failed" >&2; exit 1; }
# Stopped before the rows go in behind its back: the measured daemons start on the seeded database.
kill "$SEEDER"; wait "$SEEDER" 2>/dev/null || true; DAEMONS=""
psql -q -h "$PG" -U twitterd -d twitterd -v users="$PG_USERS" -v tweets="$PG_TWEETS" -v follows="$PG_FOLLOWS" \
    -f bench/postgres-seed.sql -At -F ' ' > "$PG/seed.out"
seed_end=$(date +%s.%N)
read -r users follows tweets tags <<EOF
$(tail -n 1 "$PG/seed.out")
EOF
record postgres_seed "{\"users\":$users,\"follows\":$follows,\"tweets\":$tweets,\"tags\":$tags,\"seconds\":$(echo "$seed_end $seed_start" | awk '{printf "%.1f", $1 - $2}'),\"databaseBytes\":$(psql -h "$PG" -U twitterd -d twitterd -Atc "SELECT pg_database_size('twitterd')")}"
sync

HOME_PAGE='{"jsonrpc":"2.0","method":"timeline.home","params":{"limit":20},"id":1}'
POST='{"jsonrpc":"2.0","method":"tweets.post","params":{"text":"load from the C client"},"id":1}'

# The server's WAL flushes and commits so far (pg_stat_wal, pg_stat_database): "syncs commits".
wal() {
    psql -h "$PG" -U twitterd -d twitterd -At -F ' ' -c \
        "SELECT wal_sync, (SELECT xact_commit FROM pg_stat_database WHERE datname = 'twitterd') FROM pg_stat_wal"
}
# A post load, recording beside it (as NAME_wal) how many WAL flushes and commits it made per second:
# with group commit, posts per flush is how many posts share one fsync.
post_load() { # name, "daemon pids", args...
    wal_name=$1
    before=$(wal); started_wal=$(date +%s.%N)
    cload_cpu "$@"
    after=$(wal); ended_wal=$(date +%s.%N)
    record "${wal_name}_wal" "$(echo "$before $after $started_wal $ended_wal" | awk '{ w = $6 - $5;
        printf "{\"seconds\":%.1f,\"walSyncsPerSecond\":%.0f,\"commitsPerSecond\":%.0f}", w, ($3 - $1) / w, ($4 - $2) / w }')"
}

# The statements executed since the last reset, the eight that took the most time: calls, total and mean time,
# rows; and every statement's calls, to divide by the posts answered.
statements() {
    psql -h "$PG" -U twitterd -d twitterd -At -c "
        SELECT json_build_object('calls', (SELECT sum(calls) FROM pg_stat_statements),
            'top', (SELECT json_agg(t) FROM (
                SELECT left(regexp_replace(query, '\\s+', ' ', 'g'), 90) AS query, calls,
                    round(total_exec_time::numeric, 1) AS \"totalMs\", round(mean_exec_time::numeric, 3) AS \"meanMs\",
                    rows
                FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 8) t))"
}

# One daemon: the loads run as the SQLite ones do (home, then posts), each as the median of ROUNDS.
FIRST=$(serve "$WORK/pg1.sock"); DAEMONS=$FIRST
cload_cpu c_pg_home_16x8 "$FIRST" "$POSTMASTER" "$WORK/pg1.sock" --connections 16 --depth 8 --login "$SEED_LOGIN" "$HOME_PAGE"
psql -q -h "$PG" -U twitterd -d twitterd -Atc 'SELECT pg_stat_statements_reset()' > /dev/null
# BENCH_PERF=1 (with DURATION at least 10): the daemon's own profile for 4 s of the first round, after its logins
# (perf record), by thread in $WORK/perf-pg-post-threads.txt and by function in $WORK/perf-pg-post.txt.
if [ "${BENCH_PERF:-0}" = 1 ]; then
    # After the 64 logins (Argon2id), inside the first round.
    (sleep 6; perf record -q -F 999 -g -p "$FIRST" -o "$WORK/perf-pg-post.data" -- sleep 4 > /dev/null 2>&1
        perf report -i "$WORK/perf-pg-post.data" --no-children --sort comm --stdio -g none \
            > "$WORK/perf-pg-post-threads.txt" 2>/dev/null
        perf report -i "$WORK/perf-pg-post.data" --no-children --percent-limit 1 --stdio -g none \
            > "$WORK/perf-pg-post.txt" 2>/dev/null) &
fi
post_load c_pg_post_64x4 "$FIRST" "$POSTMASTER" "$WORK/pg1.sock" --connections 64 --depth 4 --login "$SEED_LOGIN" "$POST"
record c_pg_post_64x4_statements "$(statements)"

# Two daemons on the same database: one C client deals its connections out between the two sockets in turn
# (bench/load_client.c), so seed1…seed64 stay distinct accounts and one histogram covers both.
SECOND=$(serve "$WORK/pg2.sock"); DAEMONS="$FIRST $SECOND"
cload_cpu c_pg2_home_16x8 "$FIRST $SECOND" "$POSTMASTER" "$WORK/pg1.sock" --socket "$WORK/pg2.sock" \
    --connections 16 --depth 8 --login "$SEED_LOGIN" "$HOME_PAGE"
post_load c_pg2_post_64x4 "$FIRST $SECOND" "$POSTMASTER" "$WORK/pg1.sock" --socket "$WORK/pg2.sock" \
    --connections 64 --depth 4 --login "$SEED_LOGIN" "$POST"
record postgres_after "{\"tweets\":$(psql -h "$PG" -U twitterd -d twitterd -Atc 'SELECT count(*) FROM tweets'),\"databaseBytes\":$(psql -h "$PG" -U twitterd -d twitterd -Atc "SELECT pg_database_size('twitterd')"),\"walBytes\":$(psql -h "$PG" -U twitterd -d twitterd -Atc "SELECT pg_current_wal_lsn() - '0/0'::pg_lsn")}"
