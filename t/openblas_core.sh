#!/bin/sh
# openblas_core.sh — the OpenBLAS core type aten-cpu loads (plugins/aten-cpu/linalg/
# openblas.c), as `tscript info --backend` reports it and as products compute on it: the
# library's own choice kept where it is the best this CPU runs; a weaker one (the issue's
# Xeon got Prescott; TSCRIPT_TEST_BLAS_CORE makes any machine report that) replaced by the
# best core type after a self-check, and kept when the self-check fails; OPENBLAS_CORETYPE
# in the environment, the config's blas_core and $TSCRIPT_OPENBLAS winning, in that order;
# bad blas_core values failing with the file:line and the value. Every case runs in its own
# process, as the choice is made once per process. The expectations follow this CPU's
# /proc/cpuinfo flags, so the test passes on any x86-64 (it is skipped elsewhere).
. "$(dirname "$0")/cli_lib.sh"

case $(uname -m) in
x86_64 | i?86) ;;
*) echo "1..0 # SKIP OpenBLAS's core types are x86's"; exit 0 ;;
esac
flags=" $(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null | cut -d: -f2) "
has() { case $flags in *" $1 "*) return 0 ;; esac; return 1; }
fake=$builddir/t/plugins/.libs/fakeblas.so
unset OPENBLAS_CORETYPE TSCRIPT_OPENBLAS TSCRIPT_CONFIG TSCRIPT_TEST_BLAS_CORE \
    TSCRIPT_TEST_BLAS_SELFCHECK

# info_shows WHAT PHRASE [VAR=VALUE...]: `tscript info --backend` under those variables
# succeeds and prints PHRASE.
info_shows() {
    what=$1 phrase=$2
    shift 2
    env "$@" "$tscript" info --backend >"$out" 2>"$err"
    if [ $? -eq 0 ] && grep -qF -- "$phrase" "$out"; then ok "$what"; else notok "$what"; fi
}

# fails WHAT PHRASE -- ARGS...: tscript ARGS exits 1 with PHRASE on stderr (what it printed
# before failing aside).
fails() {
    what=$1 phrase=$2
    shift 3
    "$tscript" "$@" >"$out" 2>"$err"
    if [ $? -eq 1 ] && grep -qF -- "$phrase" "$err"; then ok "$what"; else notok "$what"; fi
}

# field NAME: a line of the last report ("core", "choice"), without its name.
field() { sed -n "s/^  $1 *//p" "$out"; }

# Products on whatever core was chosen, against integer ones (no BLAS): float and double,
# transposed operands, a matrix-vector product.
cat >"$scratch/mm.py" <<'EOF'
import torch
def main():
    a = torch.arange(0, 37 * 41, dtype=torch.float32).reshape(37, 41) % 7 - 3
    b = torch.arange(0, 41 * 29, dtype=torch.float32).reshape(41, 29) % 5 - 2
    want = (a.to(torch.int64) @ b.to(torch.int64)).to(torch.float32)
    big = torch.arange(0, 300 * 300, dtype=torch.float32).reshape(300, 300) % 3 - 1
    bigwant = (big.to(torch.int64) @ big.to(torch.int64).t()).to(torch.float32)
    print(torch.equal(a @ b, want), torch.equal(b.t() @ a.t(), want.t()),
          torch.equal(a @ b[:, 0], want[:, 0]), torch.equal(a.double() @ b.double(),
          want.double()), torch.equal(big @ big.t(), bigwant))
EOF
computes() {
    what=$1
    shift
    env "$@" "$tscript" run "$scratch/mm.py" >"$out" 2>"$err"
    if [ $? -eq 0 ] && [ "$(cat "$out")" = "True True True True True" ]; then
        ok "$what"
    else
        notok "$what"
    fi
}

# ---- the library's own choice -----------------------------------------------------------
info_shows "info --backend lists the plugins" "  aten-cpu     " TSCRIPT_TEST_BLAS_CORE=
grep -q '^backend cpu (aten-cpu):$' "$out" && grep -q '^  library  .*openblas' "$out" &&
    grep -q '^  BLAS     OpenBLAS ' "$out" && [ -n "$(field core)" ] &&
    ok "... and describes the cpu backend: OpenBLAS, its library, its core" ||
    notok "... and describes the cpu backend: OpenBLAS, its library, its core"
case $(field choice) in
"kept $(field core), the library's own choice: "* | "upgraded from "*" to $(field core) after a self-check")
    ok "the choice names the core the library runs: $(field choice)" ;;
*) notok "the choice names the core the library runs" ;;
esac
computes "products compute on the core the library chose"
"$tscript" info --backend 2>/dev/null | grep -q '^  BLAS .*DYNAMIC_ARCH' && dynamic=1 || dynamic=

# ---- a weaker core reported: the issue's Xeon -----------------------------------------------
if [ -z "$dynamic" ]; then
    ok "# SKIP not a DYNAMIC_ARCH OpenBLAS: its core type cannot be chosen"
elif has sse4_2; then
    info_shows "Prescott reported: upgraded after a self-check" \
        "upgraded from Prescott (TSCRIPT_TEST_BLAS_CORE), the library's own choice, to " \
        TSCRIPT_TEST_BLAS_CORE=Prescott
    best=$(field choice | sed -n 's/.* to \([A-Za-z0-9_]*\) after a self-check$/\1/p')
    [ -n "$best" ] && [ "$(field core)" = "$best" ] &&
        ok "... and the library then runs the core chosen ($best)" ||
        notok "... and the library then runs the core chosen"
    want=Nehalem
    has avx && want=Sandybridge
    has avx2 && has fma && { has avx512f && want=SkylakeX || { grep -q AMD /proc/cpuinfo &&
        want=Zen || want=Haswell; }; }
    has avx512f && has avx512_bf16 && want=Cooperlake
    has amx_tile && has amx_bf16 && want="SapphireRapids or Cooperlake"
    case "$want" in *"$best"*) ok "... the best core type this CPU runs ($want)" ;;
    *) notok "... the best core type this CPU runs ($want, got $best)" ;; esac
    computes "products compute on the upgraded core" TSCRIPT_TEST_BLAS_CORE=Prescott
    info_shows "a failed self-check keeps the library's own choice" \
        "kept Prescott (TSCRIPT_TEST_BLAS_CORE), the library's own choice: the forced $best failed the self-check (sgemm 37x29x41: C[1][1] is" \
        TSCRIPT_TEST_BLAS_CORE=Prescott TSCRIPT_TEST_BLAS_SELFCHECK=fail
    computes "... and products still compute" TSCRIPT_TEST_BLAS_CORE=Prescott \
        TSCRIPT_TEST_BLAS_SELFCHECK=fail
else
    info_shows "Prescott reported on a CPU without SSE4.2: kept" \
        "kept Prescott (TSCRIPT_TEST_BLAS_CORE), the library's own choice: the best core" \
        TSCRIPT_TEST_BLAS_CORE=Prescott
fi
info_shows "a core type tscript does not know is trusted" \
    "kept Zen9 (TSCRIPT_TEST_BLAS_CORE), the library's own choice: a core type tscript does not know, so trusted" \
    TSCRIPT_TEST_BLAS_CORE=Zen9

# ---- what wins ------------------------------------------------------------------------------
info_shows "OPENBLAS_CORETYPE in the environment wins over tscript's choice" \
    "choice   OPENBLAS_CORETYPE=Prescott in the environment" OPENBLAS_CORETYPE=Prescott \
    TSCRIPT_TEST_BLAS_CORE=Prescott
[ "$(field core)" = Prescott ] && ok "... and OpenBLAS runs it" || notok "... and OpenBLAS runs it"
computes "... products compute on it" OPENBLAS_CORETYPE=Prescott
printf 'blas_core: Prescott\n' >"$scratch/prescott.yaml"
info_shows "the config's blas_core wins over tscript's choice" \
    "choice   forced by blas_core: Prescott ($scratch/prescott.yaml:1:12)" \
    TSCRIPT_TEST_BLAS_CORE=Prescott TSCRIPT_CONFIG="$scratch/prescott.yaml"
[ "$(field core)" = Prescott ] && ok "... and OpenBLAS runs it" || notok "... and OpenBLAS runs it"
computes "... products compute on it" TSCRIPT_CONFIG="$scratch/prescott.yaml"
info_shows "OPENBLAS_CORETYPE wins over the config's blas_core" \
    "choice   OPENBLAS_CORETYPE=Core2 in the environment" OPENBLAS_CORETYPE=Core2 \
    TSCRIPT_CONFIG="$scratch/prescott.yaml"
[ "$(field core)" = Core2 ] && ok "... and OpenBLAS runs it" || notok "... and OpenBLAS runs it"
info_shows "\$TSCRIPT_OPENBLAS: the library's own choice, not tscript's" \
    "choice   the library's own: \$TSCRIPT_OPENBLAS names the library, so tscript does not choose" \
    TSCRIPT_OPENBLAS=libopenblas.so.0 TSCRIPT_TEST_BLAS_CORE=Prescott
info_shows "... but the config's blas_core still applies to it" \
    "choice   forced by blas_core: Prescott" TSCRIPT_OPENBLAS=libopenblas.so.0 \
    TSCRIPT_CONFIG="$scratch/prescott.yaml"

# ---- bad settings: the file, line and value; exit 1 -----------------------------------------
printf 'plugins: [prim, aten-cpu]\nblas_core: Skylakx\n' >"$scratch/typo.yaml"
fails "blas_core not a core type OpenBLAS has: exit 1" \
    "$scratch/typo.yaml:2:12: blas_core: 'Skylakx' is not an OpenBLAS core type (Katmai, " -- \
    --config "$scratch/typo.yaml" info --backend
fails "... also for a program that multiplies nothing" \
    "$scratch/typo.yaml:2:12: blas_core: 'Skylakx' is not an OpenBLAS core type" -- \
    --config "$scratch/typo.yaml" run "$data/prog.py"
printf 'blas_core: "Sky lake"\n' >"$scratch/space.yaml"
fails "blas_core not a name: exit 1" \
    "$scratch/space.yaml:1:12: 'blas_core' must be an OpenBLAS core type such as SkylakeX, got 'Sky lake'" \
    -- --config "$scratch/space.yaml" info --backend
printf 'blas_core: [SkylakeX]\n' >"$scratch/list.yaml"
fails "blas_core a list: exit 1" \
    "$scratch/list.yaml:1:12: 'blas_core' must be an OpenBLAS core type such as SkylakeX" -- \
    --config "$scratch/list.yaml" info --backend
lacking=
has avx2 || lacking="Haswell avx2"
[ -z "$lacking" ] && ! has avx512f && lacking="SkylakeX avx512"
[ -z "$lacking" ] && ! has avx512_bf16 && lacking="Cooperlake avx512-bf16"
[ -z "$lacking" ] && ! has amx_tile && lacking="SapphireRapids amx"
if [ -n "$lacking" ]; then
    set -- $lacking
    printf 'blas_core: %s\n' "$1" >"$scratch/lacks.yaml"
    fails "blas_core this CPU cannot run: exit 1" \
        "$scratch/lacks.yaml:1:12: blas_core: '$1' needs $2, which this CPU lacks" -- \
        --config "$scratch/lacks.yaml" info --backend
else
    ok "# SKIP this CPU runs every core type OpenBLAS has"
fi
if [ -f "$fake" ]; then
    printf 'blas_core: Nehalem\n' >"$scratch/nehalem.yaml"
    export TSCRIPT_OPENBLAS="$fake"
    if has sse4_2; then
        fails "blas_core the library's build lacks: exit 1" \
            "$scratch/nehalem.yaml:1:12: blas_core: this OpenBLAS (FakeBLAS DYNAMIC_ARCH (t/plugins/fakeblas.c)) has no core type 'Nehalem' (it runs Prescott)" \
            -- --config "$scratch/nehalem.yaml" info --backend
        fails "... and products fail with it" "has no core type 'Nehalem'" -- \
            --config "$scratch/nehalem.yaml" run "$scratch/mm.py"
    fi
    unset TSCRIPT_OPENBLAS
else
    notok "the fake OpenBLAS is built ($fake)"
fi
export TSCRIPT_OPENBLAS=libtscript-no-such-blas.so.0
fails "no OpenBLAS: info --backend fails, saying why" \
    "backend cpu: RuntimeError: matrix products need OpenBLAS, which could not be loaded: libtscript-no-such-blas.so.0" \
    -- info --backend
unset TSCRIPT_OPENBLAS
done_testing
