# t/surface_lib.sh — sourced by the tests of the public surface (t/visibility.sh,
# t/cli_public.sh): the source and build trees, a scratch directory $tmp, result() for one
# TAP line, and $tmp/declared, the functions the installed headers declare: the name
# before the first '(' of each TS_API line (a declaration's name is always on its first
# line), sorted for comm.
: "${TS_BUILDDIR:=.}" "${TS_SRCDIR:=.}"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0
result() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi; }
grep -h '^TS_API' "$TS_SRCDIR"/include/tscript/*.h \
    | sed -n 's/^[^(]*[ *]\([A-Za-z_][A-Za-z0-9_]*\)(.*$/\1/p' | sort -u >"$tmp/declared"
