#!/bin/sh
# t/cli_public.sh — the tscript program is built on the public embedding API alone, as lua.c
# is on lua.h: every ts_* function its objects call is one the installed headers declare
# with TS_API (or the CLI's own ts_cli_*), and every source file of cli/ compiles with the
# installed headers and config.h only (-I include, not -I core).
# Excepted until the public IR (tscript/ir.h) lands: cli/graph.c, which prints a function's
# graph through the core's IR; the lead's switch of cli/cli.mk to -I include ends that.
. "${TS_SRCDIR:-.}/t/surface_lib.sh"
except="graph"
result $([ -s "$tmp/declared" ] && echo 0 || echo 1) "the headers declare TS_API functions"

if command -v nm >/dev/null 2>&1; then
    found=0
    for src in "$TS_SRCDIR"/cli/*.c; do
        base=$(basename "$src" .c)
        [ "$base" = "$except" ] && continue
        # the object as automake names it: cli/main.o, or cli/tscript-main.o with per-target flags
        obj=
        for o in "$TS_BUILDDIR/cli/$base.o" "$TS_BUILDDIR/cli/tscript-$base.o"; do
            [ -f "$o" ] && obj=$o
        done
        if [ -z "$obj" ]; then
            result 1 "cli/$base.c is built"
            continue
        fi
        found=$((found + 1))
        nm -u "$obj" | awk '{print $2}' | grep '^ts_' | grep -v '^ts_cli_' | sort -u \
            | comm -23 - "$tmp/declared" >"$tmp/private"
        result $([ -s "$tmp/private" ] && echo 1 || echo 0) \
            "cli/$base.c calls only functions the public headers declare"
        sed 's/^/# not public: /' "$tmp/private"
    done
    result $([ "$found" -gt 0 ] && echo 0 || echo 1) "the CLI's objects were found ($found)"
else
    echo "# SKIP nm not installed: the objects' symbols are not checked"
fi

# The sources against the installed headers only: core/ is not on the include path.
CC=${CC:-cc}
if command -v "$CC" >/dev/null 2>&1 && [ -f "$TS_BUILDDIR/config.h" ]; then
    for src in "$TS_SRCDIR"/cli/*.c; do
        base=$(basename "$src" .c)
        [ "$base" = "$except" ] && continue
        if $CC -std=c11 -D_GNU_SOURCE -DHAVE_CONFIG_H -Wall -Wextra -Werror \
            -I"$TS_SRCDIR/include" -I"$TS_BUILDDIR" -fsyntax-only "$src" >"$tmp/out" 2>&1; then
            result 0 "cli/$base.c compiles with -I include only"
        else
            result 1 "cli/$base.c compiles with -I include only"
            sed 's/^/# /' "$tmp/out" | head -20
        fi
    done
else
    echo "# SKIP no C compiler or config.h: the sources are not compiled here"
fi
echo "1..$n"
