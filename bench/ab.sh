#!/bin/sh
# ab.sh DATABASE METHOD CONNECTIONS DEPTH BIN_DIR…: runs several builds of twitterd alternately, each on its own
# copy of one seeded database (a newer build migrates its copy; an older one could not read a migrated file),
# driven by the same twbench (the last build's), ROUNDS rounds (default 3) of 5 s, with write rate limits off.
# With CLIENT=c the C client (bench/load_client.c) drives them instead, each connection logged in as its own
# seeded account, for METHOD post, fetch, home or ping: twbench takes most of a core of the two, so its rounds
# measure the daemon's CPU a request; the C client's leave the daemon the machine, as `make bench` does.
# Prints every round's req/s and the daemon's CPU time per request (from /proc/PID/stat around the load).
# Alternating cancels this machine's drift between minutes, which two separate `make bench` runs do not.
# With CLIENT=c and ANCHOR=redis each round begins with Redis LPUSH (appendfsync always) under the same load,
# for posts' ratio to it in the same minutes.
# Seed DATABASE with the oldest build. Example, posts over 64 connections before and after a change:
#   sh bench/ab.sh /tmp/seed.sqlite post 64 4 /tmp/old/.build/release .build/release
set -eu
. bench/lib.sh
database=$1; method=$2; connections=$3; depth=$4; shift 4
rounds=${ROUNDS:-3}
work=$(mktemp -d /tmp/twitterd-ab.XXXXXX)
trap 'rm -rf "$work"' EXIT
if [ "${CLIENT:-twbench}" = c ]; then
    cc -O2 -o "$work/load_client" bench/load_client.c
    case $method in
    post) request='{"jsonrpc":"2.0","method":"tweets.post","params":{"text":"load from the C client"},"id":1}' ;;
    fetch) request='{"jsonrpc":"2.0","method":"tweets.fetch","params":{"limit":20},"id":1}' ;;
    ping) request='{"jsonrpc":"2.0","method":"system.ping","id":1}' ;;
    home) request='{"jsonrpc":"2.0","method":"timeline.home","params":{"limit":20},"id":1}' ;;
    *) echo "ab.sh: the C client knows post, fetch, home and ping, not $method" >&2; exit 64 ;;
    esac
fi
if [ "${ANCHOR:-}" = redis ]; then
    [ "${CLIENT:-twbench}" = c ] || { echo "ab.sh: ANCHOR=redis needs CLIENT=c" >&2; exit 64; }
    # --dir moves Redis into the folder, so its socket path must be absolute (mktemp's is).
    redis-server --port 0 --unixsocket "$work/redis.sock" --save '' --dir "$work" --appendonly yes \
        --appendfsync always --daemonize no > "$work/redis.log" &
    redis=$!
    trap 'kill "$redis" 2>/dev/null || true; rm -rf "$work"' EXIT
    until redis-cli -s "$work/redis.sock" ping >/dev/null 2>&1; do sleep 0.1; done
fi
printf '[rates]\nposts = "off"\nfollows = "off"\nlikes = "off"\nreposts = "off"\nreports = "off"\n' > "$work/twitterd.toml"
n=0
for bin in "$@"; do
    n=$((n + 1))
    cp "$database" "$work/db$n.sqlite"
    last=$bin
done
hz=$(getconf CLK_TCK)
round=1
while [ "$round" -le "$rounds" ]; do
    if [ "${ANCHOR:-}" = redis ]; then
        "$work/load_client" --socket "$work/redis.sock" --duration 5 --connections "$connections" --depth "$depth" \
            --resp '*3\r\n$5\r\nLPUSH\r\n$5\r\nbench\r\n$5\r\nhello\r\n' | jq -r --arg round "$round" \
            '"\($round) Redis LPUSH \(.requestsPerSecond | floor) req/s, p50 \(.p50Micros) µs, p99 \(.p99Micros) µs, \(.errors) errors"'
    fi
    n=0
    for bin in "$@"; do
        n=$((n + 1))
        "$bin/twitterd" --socket "$work/sock" --database "$work/db$n.sqlite" --config "$work/twitterd.toml" \
            --log-level warning 2>/dev/null &
        pid=$!
        # A ping, which every build answers (an older daemon may lack what a newer twctl's status asks).
        until printf '{"jsonrpc":"2.0","method":"system.ping","id":1}\n' | socat -t 2 - "UNIX-CONNECT:$work/sock" 2>/dev/null \
            | grep -q result; do
            # A build from before write rate limits refuses the [rates] table (and has no limits to lift).
            if ! kill -0 "$pid" 2>/dev/null; then
                "$bin/twitterd" --socket "$work/sock" --database "$work/db$n.sqlite" --log-level warning 2>/dev/null &
                pid=$!
            fi
            sleep 0.1
        done
        before=$(sed 's/.*) //' "/proc/$pid/stat" | awk '{print $12 + $13}')
        if [ "${CLIENT:-twbench}" = c ]; then
            # One object, as twbench's one-element array.
            result=$("$work/load_client" --socket "$work/sock" --duration 5 --connections "$connections" \
                --depth "$depth" --login "$SEED_LOGIN" "$request" | jq -c '[.]')
        else
            result=$("$last/twbench" load --socket "$work/sock" --duration 5 --json --method "$method" \
                --connections "$connections" --depth "$depth")
        fi
        after=$(sed 's/.*) //' "/proc/$pid/stat" | awk '{print $12 + $13}')
        kill "$pid"
        wait "$pid" 2>/dev/null || true
        if [ "${CLIENT:-twbench}" = c ]; then
            # The daemon's CPU time here would hold the connections' Argon2id logins: the client's share instead.
            echo "$result" | jq -r --arg bin "$bin" --arg round "$round" \
                '.[0] | "\($round) \($bin) \(.requestsPerSecond | floor) req/s, p50 \(.p50Micros) µs, p99 \(.p99Micros) µs, \(.errors) errors, client \(.clientCpuPercent) % of a core"'
        else
            echo "$result" | jq -r --arg bin "$bin" --arg round "$round" --argjson ticks "$((after - before))" \
                --argjson hz "$hz" \
                '.[0] | "\($round) \($bin) \(.requestsPerSecond | floor) req/s, p50 \(.p50Micros) µs, p99 \(.p99Micros) µs, \(.errors) errors, \($ticks / $hz * 1e6 / (.requestsPerSecond * 5) | floor) µs of daemon CPU a request"'
        fi
    done
    round=$((round + 1))
done
