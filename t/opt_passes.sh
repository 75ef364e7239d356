#!/bin/sh
# opt_passes.sh — the inliner and the loop unroller as a user meets them: a run-time error
# in an inlined callee prints the traceback of the calls (every function named, outermost
# first, as without the optimizer); TSCRIPT_OPT_LIMIT stops each pass (inline=0 keeps the
# calls, loop_unroll=0 the loops, loop_unroll=1 unrolls one loop of two) and
# TSCRIPT_LOG_LEVEL logs them under their file names.
. "$(dirname "$0")/cli_lib.sh"
prog=$srcdir/t/passes/inline_raise.py

# The traceback of the error raised in check(), called by middle(), called by outer().
"$tscript" run "$prog" >"$out" 2>"$err"
rc=$?
frames=$(grep '^  File ' "$err" | sed 's/.*, in //' | tr '\n' ' ')
if [ $rc -eq 1 ] && [ "$frames" = "main outer middle check " ] &&
    grep -q '^builtins.ValueError: x is too big: 4$' "$err" &&
    grep -qF 'return check(x) + 1' "$err"; then
    ok "an error in an inlined callee: the traceback names main, outer, middle, check"
else
    notok "an error in an inlined callee: the traceback names main, outer, middle, check ($frames)"
fi
cp "$err" "$scratch/on.err"
"$tscript" --no-opt run "$prog" >"$out" 2>"$err"
if cmp -s "$err" "$scratch/on.err"; then
    ok "the same traceback without the optimizer"
else
    notok "the same traceback without the optimizer"
fi

# graph --optimized under TSCRIPT_OPT_LIMIT: WHAT ENV PATTERN COUNT
count() {
    what=$1 limit=$2 pattern=$3 want=$4
    TSCRIPT_OPT_LIMIT=$limit "$tscript" graph --optimized -f outer "$prog" >"$out" 2>"$err"
    got=$(grep -c -- "$pattern" "$out")
    if [ "$got" -eq "$want" ]; then ok "$what"; else notok "$what ($got, want $want)"; fi
}
count "without a limit every call is inlined" "" "prim::CallFunction" 0
count "inline=0 inlines nothing" "inline=0:loop_unroll=0" "prim::CallFunction" 1
count "inline=1 inlines middle, not the call of check inside it" "inline=1:loop_unroll=0" \
    "prim::CallFunction\[name=\"__torch__.check\"\]" 1
count "the loop is unrolled by 8 with its epilogue" "" "prim::Loop" 2
count "loop_unroll=0 unrolls nothing" "loop_unroll=0" "prim::Loop" 1
count "loop_unroll=0 leaves one raise" "loop_unroll=0" "prim::RaiseException" 1
count "unrolled by 8: nine raises (eight copies and the epilogue's)" "" \
    "prim::RaiseException" 9

TSCRIPT_LOG_LEVEL='>inline:>loop_unroll' "$tscript" graph --optimized -f outer "$prog" \
    >"$out" 2>"$err"
if grep -q '^\[UPDATE inline.c:[0-9]*\] inlined __torch__.middle into __torch__.outer' "$err" &&
    grep -q '^\[DUMP loop_unroll.c:[0-9]*\] after loop unrolling' "$err" &&
    grep -q '^\[UPDATE loop_unroll.c:[0-9]*\] unrolled a loop by 8' "$err"; then
    ok "TSCRIPT_LOG_LEVEL logs both passes by their file names"
else
    notok "TSCRIPT_LOG_LEVEL logs both passes by their file names"
fi

echo "1..$n"
[ $failed -eq 0 ]
