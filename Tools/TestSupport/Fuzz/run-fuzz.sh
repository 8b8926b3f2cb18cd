#!/usr/bin/env bash
# Runs each libFuzzer target of webimage-fuzz in turn (one at a time: the machine is
# shared) and prints one summary line per target. Called by `make fuzz`; every setting
# comes from the environment, with the defaults below.
#
#   FUZZ_BIN       the fuzzer binary (built with -sanitize=fuzzer,address -DWEBIMAGE_FUZZ)
#   FUZZ_DIR       working directory: corpus/<target>, artifacts/<target>, logs/<target>.log
#   FUZZ_CORPUS    the shared conformance corpus used as seeds (read, never written)
#   FUZZ_TARGETS   space-separated targets; FUZZ_SECONDS per target; FUZZ_RSS_MB memory
#                  limit; FUZZ_MAX_LEN largest input (1 MiB)
#   FUZZ_TIMEOUT   seconds one input may take (1): libFuzzer's -timeout, whose alarm
#                  looks every FUZZ_TIMEOUT/2+1 s, and its -report_slow_units, which
#                  saves (slow-unit-*) an input that took as long but ended between alarms
# The limits are set so that slowness is a finding, as a hang would be: a decoder
# quadratic in a repeated structure needs seconds for a 1 MiB file of it, and the image
# targets start from such files as well (see Tools/TestSupport/Fuzz/Harnesses/RepeatedStructureSeeds.swift).
# Exits non-zero when any target found a crash, leak, timeout, slow or out-of-memory input.
set -u

FUZZ_BIN=${FUZZ_BIN:-.build-fuzz/release/webimage-fuzz}
FUZZ_DIR=${FUZZ_DIR:-.build-fuzz}
FUZZ_CORPUS=${FUZZ_CORPUS:-../shared/corpus}
FUZZ_TARGETS=${FUZZ_TARGETS:-png jpeg gif webp avif incremental sniff headers icc}
FUZZ_SECONDS=${FUZZ_SECONDS:-180}
FUZZ_TIMEOUT=${FUZZ_TIMEOUT:-1}
FUZZ_RSS_MB=${FUZZ_RSS_MB:-2048}
FUZZ_MAX_LEN=${FUZZ_MAX_LEN:-1048576}
HERE=$(cd "$(dirname "$0")" && pwd)

if [ ! -x "$FUZZ_BIN" ]; then
    echo "fuzz: $FUZZ_BIN is missing; build it with make fuzz" >&2
    exit 2
fi
if [ -f "$FUZZ_CORPUS/MANIFEST.tsv" ]; then
    have_corpus=1
else
    have_corpus=0
    echo "fuzz: no corpus at $FUZZ_CORPUS (MANIFEST.tsv): image targets start from an empty corpus"
fi

# The corpus files a target starts from, chosen by the manifest's format column
# (every expectation: must-fail files are the interesting edges). Headers have no
# images to start from; they use the hand-written seeds beside this script. The image
# targets also start from the scaling tests' files, which the fuzzer binary writes
# (WEBIMAGE_FUZZ_WRITE_SEEDS) before the run: about 1 MB each, one structure repeated.
seed_files() {
    local target=$1
    [ "$have_corpus" = 1 ] || return 0
    case $target in
        png | jpeg | gif) awk -F'\t' -v f="$target" 'NR > 1 && $2 == f { print $1 }' "$FUZZ_CORPUS/MANIFEST.tsv" ;;
        incremental | sniff) awk -F'\t' 'NR > 1 { print $1 }' "$FUZZ_CORPUS/MANIFEST.tsv" ;;
    esac
}

seed() {
    local target=$1 dir=$FUZZ_DIR/corpus/$1 file
    mkdir -p "$dir"
    while IFS= read -r file; do
        # One flat folder per target; the corpus path, slashes made underscores, names it.
        cp -n "$FUZZ_CORPUS/$file" "$dir/seed_${file//\//_}"
    done < <(seed_files "$target")
    [ -d "$HERE/Seeds/$target" ] && cp -n "$HERE/Seeds/$target"/* "$dir/" 2>/dev/null
    case $target in
        png | jpeg | gif | webp | avif | incremental | sniff)
            SWIFT_BACKTRACE=enable=no WEBIMAGE_FUZZ_TARGET=$target WEBIMAGE_FUZZ_WRITE_SEEDS=$dir "$FUZZ_BIN" >&2 ||
                return 1 ;;
    esac
    # Every input that ever crashed is a seed as well: its neighbourhood is worth a look.
    [ -d "Tests/FuzzingTests/Regressions/$target" ] && cp -n "Tests/FuzzingTests/Regressions/$target"/* "$dir/" 2>/dev/null
    find "$dir" -type f | wc -l
}

# Numbers from libFuzzer's last status line ("#N DONE cov: C ft: F corp: K/S exec/s: E").
field() { sed -n "s/.* $1: \([^ ]*\).*/\1/p" <<<"$2"; }

failed=()
printf '%-12s %6s %12s %8s %7s %7s %9s %s\n' target secs execs exec/s cov ft corpus result
for target in $FUZZ_TARGETS; do
    if ! seeds=$(seed "$target"); then
        printf '%-12s %s\n' "$target" "FAILED: the fuzzer could not write its repeated-structure seeds"
        failed+=("$target")
        continue
    fi
    artifacts=$FUZZ_DIR/artifacts/$target
    log=$FUZZ_DIR/logs/$target.log
    mkdir -p "$artifacts" "$FUZZ_DIR/logs"
    stamp=$(mktemp)
    start=$(date +%s)
    SWIFT_BACKTRACE=enable=no WEBIMAGE_FUZZ_TARGET=$target "$FUZZ_BIN" \
        -max_total_time="$FUZZ_SECONDS" -timeout="$FUZZ_TIMEOUT" -report_slow_units="$FUZZ_TIMEOUT" \
        -rss_limit_mb="$FUZZ_RSS_MB" -max_len="$FUZZ_MAX_LEN" -print_final_stats=1 -artifact_prefix="$artifacts/" \
        "$FUZZ_DIR/corpus/$target" >"$log" 2>&1
    status=$?
    seconds=$(($(date +%s) - start))
    found=$(find "$artifacts" -type f -newer "$stamp" | wc -l)
    # What was found, by libFuzzer's file prefix: crash, leak, timeout, slow-unit, oom.
    kinds=$(find "$artifacts" -type f -newer "$stamp" -printf '%f\n' | sed 's/-[0-9a-f]*$//' | sort | uniq -c |
        awk '{ printf "%s%s %s", (NR > 1 ? ", " : ""), $1, $2 }')
    rm -f "$stamp"
    last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    [ -n "$execs" ] || execs=$(sed -n 's/^#\([0-9]*\).*/\1/p' <<<"$last")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    [ -n "$rate" ] || rate=$(field exec/s "$last")
    corpus=$(field corp "$last")
    if [ "$status" -ne 0 ] || [ "$found" -gt 0 ]; then
        result="FAILED: ${kinds:-$found artifact(s)} in $artifacts, exit $status, log $log"
        failed+=("$target")
    else
        result="ok, nothing found (started from $seeds inputs)"
    fi
    printf '%-12s %6s %12s %8s %7s %7s %9s %s\n' "$target" "$seconds" "${execs:-?}" "${rate:-?}" \
        "$(field cov "$last")" "$(field ft "$last")" "${corpus:-?}" "$result"
done

if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz: findings in: ${failed[*]} (replay: swift run webimage-fuzz <target> FILE)"
    exit 1
fi
