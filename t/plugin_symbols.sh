#!/bin/sh
# plugin_symbols.sh — plugins live on the public headers: every tscript function a built
# plugin (prim, aten-cpu, torchvision, the vendor example, the countdev test backend, the
# passdemo graph-pass plugin) calls
# is declared in an installed header (include/tscript/*.h), so a plugin built against an
# installed tscript links, and the library may hide everything else. The plugins compile
# with -I include and without -I core (PLUGIN_CPPFLAGS in Makefile.am).
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${TS_BUILDDIR:-$(pwd)}
if ! command -v nm >/dev/null 2>&1; then
    echo "1..0 # SKIP nm is not installed"
    exit 0
fi
n=0
failed=0
for so in plugins/prim/.libs/prim.so plugins/aten-cpu/.libs/aten-cpu.so \
    plugins/torchvision/.libs/torchvision.so examples/plugins/vendor/.libs/acme.so \
    t/plugins/countdev/.libs/countdev.so t/plugins/passdemo/.libs/passdemo.so; do
    n=$((n + 1))
    if [ ! -f "$builddir/$so" ]; then
        echo "not ok $n - $so is built"
        failed=$((failed + 1))
        continue
    fi
    missing=
    for sym in $(nm -D --undefined-only "$builddir/$so" | awk '$2 ~ /^ts_/ { print $2 }'); do
        grep -qE "[ *]$sym\(" "$srcdir"/include/tscript/*.h || missing="$missing $sym"
    done
    if [ -z "$missing" ]; then
        echo "ok $n - $so calls only functions of the public headers"
    else
        echo "not ok $n - $so calls functions no public header declares:$missing"
        failed=$((failed + 1))
    fi
done
echo "1..$n"
[ "$failed" -eq 0 ]
