#!/bin/sh
# ab.sh DATABASE METHOD CONNECTIONS DEPTH BIN_DIR…: runs several builds of twitterd alternately, each on its own
# copy of one seeded database (a newer build migrates its copy; an older one could not read a migrated file),
# driven by the same twbench (the last build's), ROUNDS rounds (default 3) of 5 s, with write rate limits off.
# Prints every round's req/s and the daemon's CPU time per request (from /proc/PID/stat around the load).
# Alternating cancels this machine's drift between minutes, which two separate `make bench` runs do not.
# Seed DATABASE with the oldest build. Example, posts over 64 connections before and after a change:
#   sh bench/ab.sh /tmp/seed.sqlite post 64 4 /tmp/old/.build/release .build/release
set -eu
database=$1; method=$2; connections=$3; depth=$4; shift 4
rounds=${ROUNDS:-3}
work=$(mktemp -d /tmp/twitterd-ab.XXXXXX)
trap 'rm -rf "$work"' EXIT
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
        result=$("$last/twbench" load --socket "$work/sock" --duration 5 --json --method "$method" \
            --connections "$connections" --depth "$depth")
        after=$(sed 's/.*) //' "/proc/$pid/stat" | awk '{print $12 + $13}')
        kill "$pid"
        wait "$pid" 2>/dev/null || true
        echo "$result" | jq -r --arg bin "$bin" --arg round "$round" --argjson ticks "$((after - before))" \
            --argjson hz "$hz" \
            '.[0] | "\($round) \($bin) \(.requestsPerSecond | floor) req/s, p99 \(.p99Micros) µs, \(.errors) errors, \($ticks / $hz * 1e6 / (.requestsPerSecond * 5) | floor) µs of daemon CPU a request"'
    done
    round=$((round + 1))
done
