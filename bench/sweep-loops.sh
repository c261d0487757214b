#!/bin/sh
# sweep-loops.sh DATABASE [BIN_DIR]: how many event loops serve best on this machine. Runs the daemon with
# `event_loops` 1, 2 and 4 in turn on DATABASE (seeded by `twitterd seed`: it logs connections in as seed1…),
# each driven by the C client (bench/load_client.c) through the same loads as `make bench`'s C table, ROUNDS
# rounds (default 3) alternating the counts to cancel this machine's drift. Prints one line per load:
# req/s, p99 and the daemon's CPU time per request (from /proc/PID/stat around the load).
# Example: sh bench/sweep-loops.sh .build/bench/twitterd.sqlite
set -eu
database=$1; bin=${2:-.build/release}
rounds=${ROUNDS:-3}; duration=${DURATION:-5}
. bench/lib.sh
sweep_workspace
cc -O2 -o "$work/load_client" bench/load_client.c
PING='{"jsonrpc":"2.0","method":"system.ping","id":1}'
hz=$(getconf CLK_TCK)
cpu() { sed 's/.*) //' "/proc/$1/stat" | awk '{print $12 + $13}'; }
measure() { # loops, name, load_client args…
    loops=$1; name=$2; shift 2
    before=$(cpu "$pid")
    result=$("$work/load_client" --socket "$work/sock" --duration "$duration" "$@")
    after=$(cpu "$pid")
    echo "$result" | jq -r --arg name "$name" --arg loops "$loops" --argjson ticks "$((after - before))" \
        --argjson hz "$hz" --argjson seconds "$duration" \
        '"\($name) loops \($loops): \(.requestsPerSecond) req/s, p99 \(.p99Micros) µs, \(.errors) errors, \($ticks / $hz * 1e6 / (.requestsPerSecond * $seconds) * 100 | floor / 100) µs CPU/req"'
}
round=1
while [ "$round" -le "$rounds" ]; do
    for loops in 1 2 4; do
        printf 'event_loops = %d\n[rates]\nposts = "off"\n' "$loops" > "$work/twitterd.toml"
        start_daemon "$bin" "$work/sock" "$database" "$work/twitterd.toml"
        measure "$loops" ping_16x16 --connections 16 --depth 16 "$PING"
        measure "$loops" fetch_16x8 --connections 16 --depth 8 --login "$SEED_LOGIN" \
            '{"jsonrpc":"2.0","method":"tweets.fetch","params":{"limit":20},"id":1}'
        measure "$loops" home_16x8 --connections 16 --depth 8 --login "$SEED_LOGIN" \
            '{"jsonrpc":"2.0","method":"timeline.home","params":{"limit":20},"id":1}'
        measure "$loops" post_64x4 --connections 64 --depth 4 --login "$SEED_LOGIN" \
            '{"jsonrpc":"2.0","method":"tweets.post","params":{"text":"load from the C client"},"id":1}'
        kill "$pid"; wait "$pid" 2>/dev/null || true; pid=""
    done
    round=$((round + 1))
done
