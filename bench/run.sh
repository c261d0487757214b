#!/bin/sh
# make bench: builds in release mode, seeds 10k users following about 100 each and 1M tweets, and measures twitterd against the
# physical limit of a line server (bench/line_server.c) and against Redis, in one run on this machine, then counts
# the instructions a request costs under callgrind (bench/instructions.sh).
# Writes docs/BENCHMARKS.md and bench/results.json. Not part of CI.
# The same loads run on PostgreSQL, through one daemon and through two sharing the database (bench/postgres.sh).
#
# BENCH_ONLY=http runs only bench/http.sh (the Mastodon client API beside JSON-RPC) on a seed of its own, sized by
# HTTP_USERS, HTTP_TWEETS (default 10,000 users following about 100 each, 1,000,000 tweets), and prints its rows.
#
# BENCH_ONLY=postgres runs only what the PostgreSQL rows need, in one run: the anchors they are compared to
# (Redis LPUSH with appendfsync always, the line server), the SQLite c_home_16x8 and c_post_64x4 beside them
# (BENCH_SQLITE=0 leaves those and the 1M-tweet SQLite seed out, to iterate), and bench/postgres.sh. It writes
# bench/results-postgres.json and prints the PostgreSQL table; bench/results.json and docs/BENCHMARKS.md are
# left alone.
set -eu
cd "$(dirname "$0")/.."
BENCH_ONLY=${BENCH_ONLY:-}
BENCH_SQLITE=${BENCH_SQLITE:-1}
case "$BENCH_ONLY" in "" | postgres | http) ;; *) echo "run.sh: BENCH_ONLY is empty, postgres or http" >&2; exit 64 ;; esac
DURATION=${DURATION:-5}
# This VM's speed drifts by up to a third between minutes, so every load (and every anchor) is measured
# ROUNDS times and the median round is reported.
ROUNDS=${ROUNDS:-3}
sh scripts/install-deps.sh
missing=""
for tool in redis-server bc cc valgrind socat strip curl; do command -v "$tool" >/dev/null 2>&1 || missing=yes; done
if [ -n "$missing" ]; then
    sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq && $sudo apt-get install -y -qq redis-server redis-tools bc gcc valgrind socat binutils curl >/dev/null
fi
# BENCH_BUILD_LOCK=FILE takes flock(1) on FILE around the build, for machines where builds must not overlap.
# BENCH_SKIP_BUILD=1 uses the release binaries already in .build/release, or in BENCH_BIN (to iterate on the
# scripts, or to measure a build made with another --scratch-path).
if [ "${BENCH_SKIP_BUILD:-0}" != 1 ]; then
    ${BENCH_BUILD_LOCK:+flock "$BENCH_BUILD_LOCK"} swift build -c release --static-swift-stdlib
fi
BIN=${BENCH_BIN:-.build/release}
WORK=.build/bench
rm -rf "$WORK" && mkdir -p "$WORK"
RESULTS="$WORK/results.jsonl"
: > "$RESULTS"
cc -O2 -o "$WORK/line_server" bench/line_server.c
cc -O2 -o "$WORK/load_client" bench/load_client.c
export BIN WORK RESULTS DURATION ROUNDS
. bench/lib.sh

machine="$(nproc) cores ($(awk -F: '/model name/ {print $2; exit}' /proc/cpuinfo | sed 's/^ //')), $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -sr)"
record meta "{\"command\":\"BENCH_ONLY=$BENCH_ONLY make bench\",\"commit\":\"$(git rev-parse --short HEAD)\",\"date\":\"$(date -u +%Y-%m-%d)\",\"durationSeconds\":$DURATION,\"rounds\":$ROUNDS,\"only\":\"$BENCH_ONLY\",\"machine\":\"$machine\"}"
printf '[limits]\nmax_connections = 16384\n[rates]\nposts = "off"\nfollows = "off"\nlikes = "off"\nreposts = "off"\nreports = "off"\nmessages = "off"\n' > "$WORK/twitterd.toml"
PING='{"jsonrpc":"2.0","method":"system.ping","id":1}'

if [ "$BENCH_ONLY" = http ]; then
    echo "seeding ${HTTP_USERS:-10000} users following about 100 each and ${HTTP_TWEETS:-1000000} tweets"
    "$BIN/twitterd" seed --users "${HTTP_USERS:-10000}" --tweets "${HTTP_TWEETS:-1000000}" --follows 100 \
        --database "$WORK/twitterd.sqlite" >/dev/null
    sync
    sh bench/http.sh
    jq -s 'map({(.name): .result}) | add' "$RESULTS" > bench/results-http.json
    sh bench/report-http.sh bench/results-http.json
    echo "wrote bench/results-http.json"
    exit 0
fi

if [ "$BENCH_ONLY" = postgres ]; then
    "$WORK/line_server" "$WORK/limit.sock" &
    LIMIT=$!
    redis-server --port 0 --unixsocket "$PWD/$WORK/redis-aof.sock" --save '' --dir "$PWD/$WORK" --appendonly yes \
        --appendfsync always --daemonize no > "$WORK/redis-aof.log" &
    REDIS_AOF=$!
    DAEMON=""
    trap 'kill $LIMIT $REDIS_AOF $DAEMON 2>/dev/null || true' EXIT
    if [ "$BENCH_SQLITE" = 1 ]; then
        echo "seeding 10000 users following about 100 each and 1000000 tweets (SQLite)"
        "$BIN/twitterd" seed --users 10000 --tweets 1000000 --follows 100 --database "$WORK/twitterd.sqlite" >/dev/null
        sync
        "$BIN/twitterd" --socket "$WORK/twitterd.sock" --database "$WORK/twitterd.sqlite" --config "$WORK/twitterd.toml" \
            --log-level warning 2> "$WORK/twitterd.log" &
        DAEMON=$!
        until "$BIN/twctl" --socket "$WORK/twitterd.sock" status >/dev/null 2>&1; do sleep 0.1; done
    fi
    until redis-cli -s "$WORK/redis-aof.sock" ping >/dev/null 2>&1; do sleep 0.1; done
    cload c_limit_ping_16x8 "$WORK/limit.sock" --connections 16 --depth 8 "$PING"
    if [ -n "$DAEMON" ]; then
        cload c_home_16x8 "$WORK/twitterd.sock" --connections 16 --depth 8 --login "$SEED_LOGIN" \
            '{"jsonrpc":"2.0","method":"timeline.home","params":{"limit":20},"id":1}'
    fi
    cload c_redis_lpush_aof_64x4 "$WORK/redis-aof.sock" --connections 64 --depth 4 \
        --resp '*3\r\n$5\r\nLPUSH\r\n$5\r\nbench\r\n$5\r\nhello\r\n'
    if [ -n "$DAEMON" ]; then
        cload c_post_64x4 "$WORK/twitterd.sock" --connections 64 --depth 4 --login "$SEED_LOGIN" \
            '{"jsonrpc":"2.0","method":"tweets.post","params":{"text":"load from the C client"},"id":1}'
        kill "$DAEMON"; wait "$DAEMON" 2>/dev/null || true; DAEMON=""
    fi
    sh bench/postgres.sh
    jq -s 'map({(.name): .result}) | add' "$RESULTS" > bench/results-postgres.json
    sh bench/report-postgres.sh bench/results-postgres.json
    echo "wrote bench/results-postgres.json"
    exit 0
fi

echo "seeding 10000 users following about 100 each and 1000000 tweets"
seed_start=$(date +%s.%N)
"$BIN/twitterd" seed --users 10000 --tweets 1000000 --follows 100 --database "$WORK/twitterd.sqlite" >/dev/null
seed_end=$(date +%s.%N)
record seed "{\"seconds\":$(echo "$seed_end $seed_start" | awk '{printf "%.1f", $1 - $2}')}"
# The seed leaves about 160 MB of dirty pages; writing them back during the first loads slowed every
# figure (and its anchor) by up to half.
sync

echo "time to READY with the 1M-tweet database"
record ready "$("$BIN/twbench" ready --json -- "$BIN/twitterd" --socket "$WORK/ready.sock" --database "$WORK/twitterd.sqlite" --log-level warning)"

# What a daemon holds after its first login (a password's Argon2id, a session written) and one page, beside the
# idle figure below: started alone, so that neither the other's connections nor its loads are in it. Its session
# stays in the database, one row among the loads' own logins.
"$BIN/twitterd" --socket "$WORK/first.sock" --database "$WORK/twitterd.sqlite" --config "$WORK/twitterd.toml" \
    --log-level warning 2> "$WORK/first.log" &
FIRST=$!
trap 'kill $FIRST 2>/dev/null || true' EXIT
until "$BIN/twctl" --socket "$WORK/first.sock" status >/dev/null 2>&1; do
    kill -0 "$FIRST" 2>/dev/null || { echo "run.sh: the first-login daemon did not start" >&2; cat "$WORK/first.log" >&2; exit 1; }
    sleep 0.1
done
# shellcheck disable=SC2059 # SEED_LOGIN is the format
printf "$SEED_LOGIN\n"'{"jsonrpc":"2.0","method":"tweets.fetch","params":{"limit":20},"id":1}\n' 1 |
    socat -t 5 - "UNIX-CONNECT:$WORK/first.sock" | tail -n 1 | grep -q '"tweets":\[{' ||
    { echo "run.sh: no first page" >&2; kill "$FIRST"; exit 1; }
record rss_first_page "{\"kib\":$(awk '/VmRSS/ {print $2}' "/proc/$FIRST/status")}"
kill "$FIRST" 2>/dev/null || true; wait "$FIRST" 2>/dev/null || true

"$BIN/twitterd" --socket "$WORK/twitterd.sock" --database "$WORK/twitterd.sqlite" --config "$WORK/twitterd.toml" \
    --log-level warning 2> "$WORK/twitterd.log" &
DAEMON=$!
"$WORK/line_server" "$WORK/limit.sock" &
LIMIT=$!
redis-server --port 0 --unixsocket "$WORK/redis.sock" --save '' --appendonly no --daemonize no > "$WORK/redis.log" &
REDIS=$!
# The same promise as a durable post: on disk before the answer.
# --dir moves Redis into the folder, so its socket path must not be relative.
redis-server --port 0 --unixsocket "$PWD/$WORK/redis-aof.sock" --save '' --dir "$PWD/$WORK" --appendonly yes \
    --appendfsync always --daemonize no > "$WORK/redis-aof.log" &
REDIS_AOF=$!
FETCH_LIMIT=""
trap 'kill $DAEMON $LIMIT $REDIS $REDIS_AOF $FETCH_LIMIT 2>/dev/null || true' EXIT
until "$BIN/twctl" --socket "$WORK/twitterd.sock" status >/dev/null 2>&1; do sleep 0.1; done
until redis-cli -s "$WORK/redis.sock" ping >/dev/null 2>&1; do sleep 0.1; done
until redis-cli -s "$WORK/redis-aof.sock" ping >/dev/null 2>&1; do sleep 0.1; done
# Idle: no request yet but twctl status, as issue #51's memory row was measured (cbf6aa6 had put the fetch below
# before it, and the figure with it). 10,000 connections are added before any load too: what they cost, not what
# the loads' caches hold.
rss() { awk '/VmRSS/ {print $2}' "/proc/$DAEMON/status"; }
record rss_idle "{\"kib\":$(rss)}"
echo "10,000 idle connections"
record idle "$("$BIN/twbench" idle --socket "$WORK/twitterd.sock" --connections 10000 --pid "$DAEMON" --json)"
# Issue #51's anchor for fetch 20: the line server answering every line with the very bytes twitterd answers
# seed1's tweets.fetch with, before any load posts.
# shellcheck disable=SC2059 # SEED_LOGIN is the format
printf "$SEED_LOGIN\n"'{"jsonrpc":"2.0","method":"tweets.fetch","params":{"limit":20},"id":1}\n' 1 |
    socat -t 5 - "UNIX-CONNECT:$WORK/twitterd.sock" | tail -n 1 > "$WORK/fetch-answer.json"
grep -q '"tweets":\[{' "$WORK/fetch-answer.json" || { echo "run.sh: no fetch page to answer with" >&2; exit 1; }
"$WORK/line_server" "$WORK/fetch-limit.sock" "$WORK/fetch-answer.json" &
FETCH_LIMIT=$!

load() { # name, socket, args...: the median of ROUNDS runs, by the first figure's requests per second
    name=$1; socket=$2; shift 2
    echo "$name"
    : > "$WORK/rounds.json"
    round=0
    while [ "$round" -lt "$ROUNDS" ]; do
        "$BIN/twbench" load --socket "$socket" --duration "$DURATION" --json "$@" >> "$WORK/rounds.json" || echo '[]' >> "$WORK/rounds.json"
        round=$((round + 1))
    done
    record "$name" "$(jq -c -s 'map(select(length > 0)) | sort_by(.[0].requestsPerSecond) | .[length / 2 | floor] // []' "$WORK/rounds.json")"
}
load limit_ping_d1 "$WORK/limit.sock" --method ping --depth 1
load limit_ping_d64 "$WORK/limit.sock" --method ping --depth 64
load ping_d1 "$WORK/twitterd.sock" --method ping --depth 1
load ping_d64 "$WORK/twitterd.sock" --method ping --depth 64
load fetch_c1 "$WORK/twitterd.sock" --method fetch --connections 1 --depth 1
load fetch_c16 "$WORK/twitterd.sock" --method fetch --connections 16 --depth 4
load fetch_c64 "$WORK/twitterd.sock" --method fetch --connections 64 --depth 4
load post_c1 "$WORK/twitterd.sock" --method post --connections 1 --depth 1
load post_c16 "$WORK/twitterd.sock" --method post --connections 16 --depth 4
load post_c64 "$WORK/twitterd.sock" --method post --connections 64 --depth 4
load mix_c16 "$WORK/twitterd.sock" --method mix --connections 16 --depth 4
# Home timelines: each connection logs in as its own seeded account (seed1…seed64) before the clock starts.
load home_c16 "$WORK/twitterd.sock" --method home --connections 16 --depth 4
load home_c64 "$WORK/twitterd.sock" --method home --connections 64 --depth 4
# Full-text search: a two-word query of the seeded vocabulary (tens of thousands of matches to rank), alone
# for its latency and over 16 connections for its throughput.
load search_c1 "$WORK/twitterd.sock" --method search --connections 1 --depth 1
load search_c16 "$WORK/twitterd.sock" --method search --connections 16 --depth 1
# Direct messages: seed1 writes to (and reads) its conversation with seed2, each text sealed and opened.
load messages_send_c16 "$WORK/twitterd.sock" --method dmsend --connections 16 --depth 4
load messages_list_c16 "$WORK/twitterd.sock" --method dmlist --connections 16 --depth 4
load login "$WORK/twitterd.sock" --method login --connections 8 --depth 2 --accounts 1000 --probe

# The C client's loads (cload, in bench/lib.sh): twitterd and every anchor driven the same way.
cload c_redis_ping_1x64 "$WORK/redis.sock" --connections 1 --depth 64 --resp '*1\r\n$4\r\nPING\r\n'
cload c_ping_1x64 "$WORK/twitterd.sock" --connections 1 --depth 64 "$PING"
cload c_redis_ping_16x16 "$WORK/redis.sock" --connections 16 --depth 16 --resp '*1\r\n$4\r\nPING\r\n'
cload c_ping_16x16 "$WORK/twitterd.sock" --connections 16 --depth 16 "$PING"
cload c_limit_ping_16x8 "$WORK/limit.sock" --connections 16 --depth 8 "$PING"
cload c_fetch_16x8 "$WORK/twitterd.sock" --connections 16 --depth 8 --login "$SEED_LOGIN" \
    '{"jsonrpc":"2.0","method":"tweets.fetch","params":{"limit":20},"id":1}'
cload c_fetch_limit_16x8 "$WORK/fetch-limit.sock" --connections 16 --depth 8 \
    '{"jsonrpc":"2.0","method":"tweets.fetch","params":{"limit":20},"id":1}'
cload c_home_16x8 "$WORK/twitterd.sock" --connections 16 --depth 8 --login "$SEED_LOGIN" \
    '{"jsonrpc":"2.0","method":"timeline.home","params":{"limit":20},"id":1}'
# One client posting and waiting for each answer: what one fsync a post costs against Redis's one (#51).
cload c_redis_lpush_aof_1x1 "$WORK/redis-aof.sock" --connections 1 --depth 1 \
    --resp '*3\r\n$5\r\nLPUSH\r\n$5\r\nbench\r\n$5\r\nhello\r\n'
cload c_post_1x1 "$WORK/twitterd.sock" --connections 1 --depth 1 --login "$SEED_LOGIN" \
    '{"jsonrpc":"2.0","method":"tweets.post","params":{"text":"load from the C client"},"id":1}'
cload c_redis_lpush_aof_64x4 "$WORK/redis-aof.sock" --connections 64 --depth 4 \
    --resp '*3\r\n$5\r\nLPUSH\r\n$5\r\nbench\r\n$5\r\nhello\r\n'
cload c_post_64x4 "$WORK/twitterd.sock" --connections 64 --depth 4 --login "$SEED_LOGIN" \
    '{"jsonrpc":"2.0","method":"tweets.post","params":{"text":"load from the C client"},"id":1}'

# The same home and post loads on PostgreSQL, one daemon and two, next to these (bench/postgres.sh).
sh bench/postgres.sh

echo "redis-benchmark"
redis_csv() { redis-benchmark -s "$WORK/redis.sock" --csv -q "$@" | tr -d '"' ; }
redis_median() { # redis-benchmark args: the median PING_MBULK rate of ROUNDS runs
    round=0
    while [ "$round" -lt "$ROUNDS" ]; do
        redis_csv "$@" | awk -F, '/PING_MBULK/ {print $2}'
        round=$((round + 1))
    done | sort -n | awk '{ rates[NR] = $1 } END { print rates[int((NR + 1) / 2)] }'
}
redis_ping=$(redis_median -c 1 -P 64 -n 2000000 -t ping)
redis_ping_d1=$(redis_median -c 1 -n 200000 -t ping)
redis_lists=$(redis_csv -c 50 -n 500000 -t lpush,lrange_100)
redis_lpush=$(echo "$redis_lists" | awk -F, '/^LPUSH/ {print $2; exit}')
redis_lrange=$(echo "$redis_lists" | awk -F, '/LRANGE_100/ {print $2; exit}')
record redis "{\"pingDepth64\":$redis_ping,\"pingDepth1\":$redis_ping_d1,\"lpush\":$redis_lpush,\"lrange100\":$redis_lrange}"

record rss_after "{\"kib\":$(rss)}"

# The Mastodon client API over HTTP beside the same methods over JSON-RPC, on this database, through a daemon of
# its own (bench/http.sh): the one above lets go of the database first.
kill "$DAEMON"; wait "$DAEMON" 2>/dev/null || true
sh bench/http.sh

# Instructions per request under callgrind (ping, fetch20, home20, post), after the loads so valgrind's slow
# daemon takes no core from them; the same binary, on its own small seeded database. A failure leaves the
# counts out, and the report says "not measured".
echo "instructions per request (callgrind)"
INSTRUCTIONS_OUT="$RESULTS" sh bench/instructions.sh || echo "instructions per request: not measured" >&2

jq -s 'map({(.name): .result}) | add' "$RESULTS" > bench/results.json
sh bench/report.sh bench/results.json > docs/BENCHMARKS.md
echo "wrote docs/BENCHMARKS.md and bench/results.json"
