#!/bin/sh
# t/fuzz/ci.sh [DIR] — the fuzz smoke run of CI (.ci/run calls it): builds every target of
# t/fuzz/build.sh in DIR (default _build/fuzz) and runs each for a fixed short time, seeded
# from its corpus, failing on any crash, leak, timeout, memory blow-up or sanitizer report.
#
# Each target runs $TS_FUZZ_SECONDS seconds (default 45) after its seed corpus has run
# (every seed runs once, however long that takes), with a 30 s limit per input and leak
# detection on; UBSan aborts on the first report (the targets are built with
# -fno-sanitize-recover). New inputs go to DIR/ci_corpus/TARGET, a reproducer of a failure
# to DIR/artifacts/TARGET-*, the libFuzzer output to DIR/TARGET.log, whose last lines are
# shown on a failure. Ends with one line per target and exits 1 if any failed (2 if the
# build did). Run from the top of a source tree that is not configured in place (build.sh
# configures DIR out of tree); .ci/run runs it in a copy of the tree.
set -u
[ $# -le 1 ] || { echo "usage: t/fuzz/ci.sh [DIR]" >&2; exit 2; }
dir=${1:-_build/fuzz}
secs=${TS_FUZZ_SECONDS:-45}
top=$(pwd)
[ -f "$top/t/fuzz/build.sh" ] || { echo "run from the top of the source tree" >&2; exit 2; }

echo "fuzz: building the targets in $dir"
if ! sh "$top/t/fuzz/build.sh" "$dir" >"$dir.build.log" 2>&1; then
    tail -n 40 "$dir.build.log"
    echo "fuzz: the build failed (log: $dir.build.log)"
    exit 2
fi
grep -e '^corpus' -e '^built' "$dir.build.log"
cd "$dir" || exit 2

# target, its seed corpus, extra options
targets="parse_fuzz:corpus:-max_len=4096
emit_fuzz:corpus:-max_len=4096
zip_fuzz:corpus_zip:
unpickle_fuzz:corpus_unpickle:-dict=$top/t/fuzz/pickle.dict
npy_fuzz:corpus_npy:
pt_fuzz:corpus_pt:
schema_fuzz:corpus_schema:
yaml_fuzz:corpus_yaml:-max_len=8192
config_fuzz:corpus_config:
ir_fuzz:corpus_ir:"

# intercept_tls_get_addr=0: as make check's (Makefile.am), for oneDNN's libgomp threads
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:symbolize=1:intercept_tls_get_addr=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
mkdir -p artifacts ci_corpus
summary=
failed=0
for t in $targets; do
    name=${t%%:*}
    rest=${t#*:}
    seeds=${rest%%:*}
    extra=${rest#*:}
    mkdir -p "ci_corpus/$name"
    echo "fuzz: $name for ${secs}s from $seeds ($(ls "$seeds" | wc -l) seeds)"
    # shellcheck disable=SC2086  # extra is one option or none
    ./"$name" -max_total_time="$secs" -timeout=30 -rss_limit_mb=2048 -detect_leaks=1 \
        -error_exitcode=77 -timeout_exitcode=78 -print_final_stats=1 \
        -artifact_prefix="artifacts/$name-" $extra "ci_corpus/$name" "$seeds" \
        >"$name.log" 2>&1
    rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$name.log" | tail -n 1)
    if [ $rc -eq 0 ]; then
        summary="$summary
  ok      $name: ${runs:-?} runs"
    else
        failed=$((failed + 1))
        tail -n 60 "$name.log"
        summary="$summary
  FAILED  $name (exit $rc; log: $dir/$name.log, reproducer: $dir/artifacts/$name-*)"
    fi
done
echo "fuzz summary (${secs}s each):$summary"
[ $failed -eq 0 ] || { echo "fuzz: $failed target(s) failed"; exit 1; }
echo "fuzz: all targets clean"
