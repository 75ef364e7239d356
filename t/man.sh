#!/bin/sh
# man.sh -- the manual pages render without a warning, and document what the sources know:
# every command and option of the CLI (its command table and option parsing) and every
# TSCRIPT_* environment variable is an entry of tscript(1); every key the config parser and
# the schema-file loader accept is an entry of tscript-config(5); the registration functions,
# ABI macros and TsPluginInfo fields of plugin.h are in tscript-plugin(7). The names are
# extracted from the sources, so a new command, option or key without its documentation
# fails here. Rendering needs groff: without it those tests are skipped.
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
tmp=${TMPDIR:-/tmp}/man.$$
trap 'rm -f "$tmp".*' EXIT
n=0 failed=0

ok() {  # ok CONDITION-STATUS DESCRIPTION [DIAGNOSTIC-FILE]
    n=$((n + 1))
    if [ "$1" -eq 0 ]; then
        echo "ok $n - $2"
    else
        failed=$((failed + 1))
        echo "not ok $n - $2"
        [ -n "$3" ] && [ -s "$3" ] && sed 's/^/# /' "$3"
    fi
}

pages="man/tscript.1 man/tscript-config.5 man/tscript-plugin.7"

# ---- rendering ----------------------------------------------------------------------
for page in $pages; do
    if ! command -v groff >/dev/null 2>&1; then
        n=$((n + 1))
        echo "ok $n - $page renders without warnings # SKIP groff is not installed"
        continue
    fi
    groff -man -ww -z "$srcdir/$page" >"$tmp.warn" 2>&1
    st=$?
    [ $st -eq 0 ] && [ ! -s "$tmp.warn" ]
    ok $? "$page renders without warnings (groff -man -ww)" "$tmp.warn"
done

# ---- what a page documents ------------------------------------------------------------
# The roff text as plain text: \- is -, font changes, \& and quotes of macro arguments go.
plain() {
    sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\&//g' -e "s/\\\\(aq/'/g" \
        -e 's/\\(dq/"/g' -e 's/\\e/\\/g' "$1"
}

# The entries of a page, one a line: the tag line after each .TP and each .SS heading,
# without its macro and quotes ("--config FILE, --config=FILE", "tscript run FILE ...").
entries() {
    plain "$1" | awk '
        tag { tag = 0; print; next }
        /^\.TP/ { tag = 1; next }
        /^\.SS / { sub(/^\.SS /, ""); print }' |
    sed -e 's/^\.[BI][RIB]* //' -e 's/"//g'
}

# check PAGE WHAT NAMES-FILE MODE: every name in NAMES-FILE is documented in PAGE, where MODE
# says how: "cmd" an entry beginning "tscript NAME", "opt" an entry holding the option as a
# word, "key" an entry beginning with the name, "text" anywhere in the text.
check() {
    page=$1 what=$2 names=$3 mode=$4
    if [ ! -s "$names" ]; then
        ok 1 "the sources name some $what (none found: has the code moved? update t/man.sh)"
        return
    fi
    entries "$srcdir/$page" >"$tmp.entries"
    plain "$srcdir/$page" >"$tmp.text"
    : >"$tmp.missing"
    sort -u "$names" | while read -r name; do
        case $mode in
        cmd) grep -Eq "^tscript $name( |$)" "$tmp.entries" ;;
        opt) grep -Eq "(^|[ ,[|])$name([ ,=|]|\]|$)" "$tmp.entries" ;;
        key) grep -Eq "^$name( |$)" "$tmp.entries" ;;
        text) grep -Fq "$name" "$tmp.text" ;;
        esac || echo "$name is not documented" >>"$tmp.missing"
    done
    [ ! -s "$tmp.missing" ]
    ok $? "$page documents every $what ($(sort -u "$names" | tr '\n' ' '| sed 's/ $//'))" \
        "$tmp.missing"
}

# The CLI's sources: core/main.c and core/cli_*.c, or cli/*.c once it has moved there.
cli_sources=
for f in "$srcdir"/core/main.c "$srcdir"/core/cli_*.c "$srcdir"/cli/*.c; do
    [ -f "$f" ] && cli_sources="$cli_sources $f"
done

# The CLI's code without its comments (which quote options as examples).
# shellcheck disable=SC2086
cat $cli_sources /dev/null | sed -e 's:/\*.*\*/::g' -e 's:/\*.*::' -e '/^[[:space:]]*\*/d' \
    >"$tmp.cli"

# Commands: a line that begins a command's entry with its name and its usage or summary,
# { "name", "args", "summary", fn } in a table or "name", "args", in a command's struct.
sed -nE 's/^[[:space:]]*\{?[[:space:]]*"([a-z][a-z-]*)", *".*/\1/p' "$tmp.cli" >"$tmp.commands"
check man/tscript.1 "command of the CLI" "$tmp.commands" cmd

# Options: string literals "--name" and "-x" the parsers compare with; getopt_long's
# struct option entries { "name", required_argument, NULL, 'x' } (the long name only: 'x'
# need not be a short option); the short option strings (":f:o:h") of getopt calls.
{
    grep -oE '"--[a-z][a-z-]*=?"' "$tmp.cli" | tr -d '"='
    grep -oE '"-[a-zA-Z]"' "$tmp.cli" | tr -d '"'
    sed -nE 's/.*\{ *"([a-z][a-z-]*)", *(no|required|optional)_argument.*/--\1/p' "$tmp.cli"
    grep 'getopt' "$tmp.cli" |
        sed -nE 's/.*[(,] *"([-+:]*([a-zA-Z]:*)+)" *[,)].*/\1/p' |
        tr -d ':+-' | fold -w1 | sed 's/^/-/'
} | grep -v '^-$' >"$tmp.options"
check man/tscript.1 "option of the CLI" "$tmp.options" opt

# Environment variables: every "TSCRIPT_*" name the core, the CLI and the plugins read.
find "$srcdir/core" "$srcdir/plugins" "$srcdir/cli" -name '*.[ch]' 2>/dev/null |
    xargs grep -ohE '"TSCRIPT_[A-Z_]+"' | tr -d '"' >"$tmp.env"
check man/tscript.1 "TSCRIPT_* environment variable" "$tmp.env" key

# Config keys: those core/registry/config.c compares a key with.
sed -nE 's/.*strcmp\(key, "([a-z_]+)"\).*/\1/p' "$srcdir/core/registry/config.c" \
    >"$tmp.config" 2>/dev/null
check man/tscript-config.5 "key of the config file" "$tmp.config" key

# Schema-file keys: those core/registry/yaml_schemas.c compares a key with.
sed -nE 's/.*strcmp\(key, "([a-z_]+)"\).*/\1/p' "$srcdir/core/registry/yaml_schemas.c" \
    >"$tmp.schema" 2>/dev/null
check man/tscript-config.5 "key of a schema file" "$tmp.schema" key

# The plugin ABI: registration functions, the macros and the entry point's fields.
h=$srcdir/include/tscript/plugin.h
{
    grep -oE '\bts_register(y)?_[a-z_]+ *\(' "$h" | tr -d ' ('
    sed -nE 's/^#define (TS_[A-Z_]+)[ (].*/\1/p' "$h" | grep -v '_H$'
} >"$tmp.abi" 2>/dev/null
check man/tscript-plugin.7 "registration function and ABI macro of plugin.h" "$tmp.abi" text
sed -n '/^typedef struct TsPluginInfo {/,/^} TsPluginInfo;/p' "$h" 2>/dev/null |
    sed -e 's:/\*.*::' | sed -nE -e 's/.*\(\*([a-z_]+)\) *\(.*/\1/p' \
        -e 's/^[^(]*[ *]([a-z_]+); *$/\1/p' >"$tmp.fields"
check man/tscript-plugin.7 "field of TsPluginInfo" "$tmp.fields" key

echo "1..$n"
[ $failed -eq 0 ]
