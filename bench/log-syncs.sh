#!/bin/sh
# log-syncs.sh DATABASE BIN_DIR…: what each sync of the write-ahead log writes, for a lone poster (the C client,
# 1 connection, 1 post in flight, 4 s) against each build in turn on its own copy of DATABASE. The kernel's
# tracepoints (perf, as root) of half a second in the middle of the load give, per build: the journal blocks
# written (a block request flagged M, metadata) against the syncs (ext4_sync_file_enter), and each sync's time
# from its enter to its exit. A sync that must commit the log's inode writes a journal block besides the log's
# pages (bench/analysis.md, "The log's sync, twice as long as it had to be").
#   sh bench/log-syncs.sh /tmp/ab-seed.sqlite /work/old .build/release
set -eu
. bench/lib.sh
database=$1; shift
command -v perf >/dev/null 2>&1 || { echo "log-syncs: perf is missing (apt-get install linux-perf)" >&2; exit 1; }
work=$(mktemp -d /tmp/twitterd-log-syncs.XXXXXX)
pid=""
trap 'kill $pid 2>/dev/null || true; rm -rf "$work"' EXIT
cc -O2 -o "$work/load_client" bench/load_client.c
printf '[rates]\nposts = "off"\n' > "$work/twitterd.toml"
request='{"jsonrpc":"2.0","method":"tweets.post","params":{"text":"load from the C client"},"id":1}'
for bin in "$@"; do
    rm -f "$work"/db.sqlite*
    cp "$database" "$work/db.sqlite"
    start_daemon "$bin" "$work/sock" "$work/db.sqlite" "$work/twitterd.toml"
    "$work/load_client" --socket "$work/sock" --duration 4 --connections 1 --depth 1 --login "$SEED_LOGIN" \
        "$request" > "$work/load.json" &
    client=$!
    sleep 2
    perf record -q -o "$work/perf.data" -a \
        -e ext4:ext4_sync_file_enter,ext4:ext4_sync_file_exit,block:block_rq_issue -- sleep 0.5 2>/dev/null
    wait "$client"
    kill "$pid"
    wait "$pid" 2>/dev/null || true
    # Fields: the time, the event, then the event's own: for a block request the device and its flags (WSM: a
    # synchronous write of metadata).
    perf script -i "$work/perf.data" -F time,event,trace 2>/dev/null > "$work/events"
    syncs=$(grep -c 'ext4_sync_file_enter' "$work/events" || true)
    journal=$(grep -cE 'block_rq_issue: +[0-9]+,[0-9]+ [A-Z]*M' "$work/events" || true)
    times=$(awk '/ext4_sync_file_enter/ { start = $1 + 0 } /ext4_sync_file_exit/ && start { print ($1 - start) * 1e6 }' \
        "$work/events" | sort -n | awk '{ t[NR] = $1 } END { printf "p10 %d p50 %d p90 %d µs", t[int(NR * .1)], t[int(NR * .5)], t[int(NR * .9)] }')
    jq -r --arg bin "$bin" --arg journal "$journal" --arg syncs "$syncs" --arg times "$times" \
        '"\($bin): \(.requestsPerSecond | floor) posts/s, p50 \(.p50Micros) µs; journal blocks \($journal) of \($syncs) syncs; a sync \($times)"' \
        "$work/load.json"
done
