#!/usr/bin/env bash
# Runs one fuzz target as fuzz/README.md reports them: at the lowest priority, one job, for
# SECONDS (default 300) over fuzz/corpus/TARGET (fill it first with fuzz/seed.sh). The libFuzzer
# log, with the final `Done N runs` and `stat::` lines, goes to fuzz/artifacts/logs/TARGET.log;
# a crash input to fuzz/artifacts/TARGET/.
#
#   fuzz/run.sh TARGET [SECONDS]
set -euo pipefail
cd "$(dirname "$0")"
target=$1
seconds=${2:-300}
mkdir -p artifacts/logs
rm -f fuzz-0.log
status=0
nice -n 19 cargo +nightly fuzz run "$target" -- -max_total_time="$seconds" -jobs=1 -print_final_stats=1 \
    > "artifacts/logs/$target.cargo.log" 2>&1 || status=$?
mv fuzz-0.log "artifacts/logs/$target.log"
grep -E '^Done|^stat::(number_of_executed_units|average_exec_per_sec|new_units_added)|ERROR|panicked|SUMMARY' \
    "artifacts/logs/$target.log" || true
exit "$status"
