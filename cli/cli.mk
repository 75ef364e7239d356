# cli.mk — the `tscript` program (cli/): one file per command, included from Makefile.am.
bin_PROGRAMS += tscript
tscript_SOURCES = cli/main.c cli/cli.h cli/run.c cli/test.c cli/info.c cli/save.c
tscript_LDADD = libtscript.la

# The commands as a user runs them.
TESTS += t/cli.sh
t/cli.log: tscript$(EXEEXT) $(pkglib_LTLIBRARIES)
EXTRA_DIST += t/cli.sh t/data/cli/prog.py t/data/cli/broken.py t/data/cli/tests.py \
	t/data/cli/raising.pt t/data/cli/make_raising.py
