#!/bin/sh
# sweep-hashing.sh DATABASE [BIN_DIR]: how many password-hashing threads serve best on this machine. Runs the
# daemon with `auth.hashing_threads` 1, 2 and 4 in turn on DATABASE (seeded by `twitterd seed`), each under
# twbench's login load (8 connections × 2, seeded accounts, libsodium's INTERACTIVE Argon2id) with a probe
# connection pinging at depth 1, ROUNDS rounds (default 2) alternating the counts. Prints logins/s and the
# probe's p99: what a login burst costs everyone else.
# Example: sh bench/sweep-hashing.sh .build/bench/twitterd.sqlite
set -eu
database=$1; bin=${2:-.build/release}
rounds=${ROUNDS:-2}; duration=${DURATION:-5}
. bench/lib.sh
sweep_workspace
round=1
while [ "$round" -le "$rounds" ]; do
    for threads in 1 2 4; do
        printf '[auth]\nhashing_threads = %d\n' "$threads" > "$work/twitterd.toml"
        start_daemon "$bin" "$work/sock" "$database" "$work/twitterd.toml"
        "$bin/twbench" load --socket "$work/sock" --duration "$duration" --json --method login --connections 8 \
            --depth 2 --accounts 1000 --probe \
            | jq -r --arg threads "$threads" \
                '"hashing threads \($threads): \(.[0].requestsPerSecond * 10 | floor / 10) logins/s, login p99 \(.[0].p99Micros) µs, probe ping p99 \(.[1].p99Micros) µs"'
        kill "$pid"; wait "$pid" 2>/dev/null || true; pid=""
    done
    round=$((round + 1))
done
