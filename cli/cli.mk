# cli.mk — the `tscript` program (cli/): one file per command, included from Makefile.am.
bin_PROGRAMS += tscript
tscript_SOURCES = cli/main.c cli/cli.h cli/common.c cli/run.c cli/test.c cli/graph.c \
	cli/ops.c cli/info.c cli/save.c
# compiled against the core's headers and linked with the whole core (TS_CORE_STATIC, configure.ac) until the CLI runs on the
# public API alone; the plugins it dlopens bind to that one copy
tscript_CPPFLAGS = $(CORE_CPPFLAGS)
tscript_LDADD = libtscript_core.la $(TS_CORE_STATIC)

# The commands as a user runs them: t/cli.sh what they do, t/cli_options.sh their command
# lines and error paths, t/cli_test.sh `tscript test` with prove and PyTorch's declarations.
TESTS += t/cli.sh t/cli_options.sh t/cli_test.sh
EXTRA_DIST += t/cli.sh t/cli_options.sh t/cli_test.sh t/cli_lib.sh t/unittest_verdicts.py \
	t/data/cli/prog.py t/data/cli/broken.py t/data/cli/tests.py t/data/cli/declared.py \
	t/data/cli/raising.pt t/data/cli/make_raising.py examples/tests/arith.py examples/tests/tensors.py
