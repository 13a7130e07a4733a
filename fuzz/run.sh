#!/bin/sh
# Runs the given fuzz targets one after another for SECONDS each, new inputs going to
# target/corpus/<target>/ (the committed seeds in corpus/<target>/ stay as they are), logs to
# target/logs/<target>.log. Prints a Markdown table row per target:
#   | target | executions | seconds | result |
# Usage (from fuzz/): ./run.sh SECONDS TARGET...
# Leak checks are off: a scoped thread (the vision code's) reports done before its thread-local
# destructors have run, so LeakSanitizer's check between two inputs can catch a thread's destructor
# list in flight (2026-11-27, vision_read: 32 bytes from __cxa_thread_atexit_impl, not reproduced
# by the input alone). A panic or a memory error still fails the run.
set -u
secs=$1
shift
mkdir -p target/logs
for t in "$@"; do
    mkdir -p "target/corpus/$t"
    RUSTC_BOOTSTRAP=1 cargo fuzz run "$t" "target/corpus/$t" "corpus/$t" -- \
        -max_total_time="$secs" -rss_limit_mb=2048 -detect_leaks=0 -print_final_stats=1 \
        >"target/logs/$t.log" 2>&1
    rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "target/logs/$t.log" | tail -1)
    time=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "target/logs/$t.log" | tail -1)
    if [ "$rc" -eq 0 ]; then result="no crash"; else result="FAILED (exit $rc, see target/logs/$t.log)"; fi
    echo "| \`$t\` | ${runs:-?} | ${time:-?} | $result |"
done
