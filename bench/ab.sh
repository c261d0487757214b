#!/bin/sh
# ab.sh OLD_BIN_DIR NEW_BIN_DIR DATABASE METHOD CONNECTIONS DEPTH: runs two builds of twitterd alternately on one
# database with the same twbench client, three rounds of 5 s each, and prints every round's req/s. Alternating
# cancels this machine's drift between minutes, which two separate `make bench` runs do not.
# Example: sh bench/ab.sh /tmp/old/.build/release .build/release .build/bench/twitterd.sqlite fetch 16 4
set -eu
old=$1; new=$2; database=$3; method=$4; connections=$5; depth=$6
socket=$(mktemp -u /tmp/twitterd-ab.XXXXXX)
for round in 1 2 3; do
    for which in old new; do
        if [ "$which" = old ]; then bin=$old; else bin=$new; fi
        "$bin/twitterd" --socket "$socket" --database "$database" --log-level warning 2>/dev/null &
        pid=$!
        until "$new/twctl" --socket "$socket" status >/dev/null 2>&1; do sleep 0.1; done
        rps=$("$new/twbench" load --socket "$socket" --duration 5 --json --method "$method" \
            --connections "$connections" --depth "$depth" | jq '.[0].requestsPerSecond | floor')
        kill "$pid"
        wait "$pid" 2>/dev/null || true
        echo "$method $connections x $depth round $round $which $rps"
    done
done
