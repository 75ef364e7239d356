#!/bin/sh
# t/visibility.sh — one visible surface: libtscript.so exports exactly the functions the
# installed headers declare with TS_API (no core internal leaks out, none declared is
# missing), and every ts_* symbol a built plugin leaves undefined is one of them, so a
# plugin runs against the installed library alone. The tscript program, which links the
# core statically, exports all of them too.
lib=${TS_BUILDDIR:-.}/.libs/libtscript.so
if ! command -v nm >/dev/null 2>&1; then echo "1..0 # SKIP nm not installed"; exit 0; fi
if [ ! -f "$lib" ]; then echo "1..0 # SKIP no shared libtscript built"; exit 0; fi
. "${TS_SRCDIR:-.}/t/surface_lib.sh"

nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBRVWiu]$/ {print $3}' \
    | grep -v -E '^(_init|_fini|_edata|_end|__bss_start)$' | sed 's/@.*//' | sort -u >"$tmp/exported"

result $([ -s "$tmp/declared" ] && echo 0 || echo 1) "the headers declare TS_API functions ($(wc -l <"$tmp/declared"))"
comm -23 "$tmp/exported" "$tmp/declared" >"$tmp/leaked"
result $([ -s "$tmp/leaked" ] && echo 1 || echo 0) "libtscript.so exports only what the installed headers declare"
sed 's/^/# exported, not declared: /' "$tmp/leaked"
comm -13 "$tmp/exported" "$tmp/declared" >"$tmp/missing"
result $([ -s "$tmp/missing" ] && echo 1 || echo 0) "everything the headers declare TS_API is exported"
sed 's/^/# declared, not exported: /' "$tmp/missing"

for so in "$TS_BUILDDIR"/plugins/*/.libs/*.so "$TS_BUILDDIR"/t/plugins/.libs/*.so \
          "$TS_BUILDDIR"/examples/plugins/*/.libs/*.so; do
    [ -f "$so" ] || continue
    nm -D --undefined-only "$so" | awk '{print $2}' | sed 's/@.*//' | grep '^ts_' | sort -u \
        | comm -23 - "$tmp/exported" >"$tmp/unresolved"
    result $([ -s "$tmp/unresolved" ] && echo 1 || echo 0) \
        "$(basename "$so") needs only symbols libtscript exports"
    sed 's/^/# not exported: /' "$tmp/unresolved"
done
# The CLI links the core statically and exports it: the plugins it loads bind to its copy.
cli=$TS_BUILDDIR/tscript
if [ -f "$cli" ]; then
    nm -D --defined-only "$cli" | awk '{print $3}' | sed 's/@.*//' | sort -u >"$tmp/cli"
    comm -23 "$tmp/exported" "$tmp/cli" >"$tmp/cli_missing"
    result $([ -s "$tmp/cli_missing" ] && echo 1 || echo 0) \
        "the tscript program exports the whole public API for the plugins it loads"
    sed 's/^/# not exported by tscript: /' "$tmp/cli_missing"
fi
echo "1..$n"
