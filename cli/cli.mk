# cli.mk — the `tscript` program (cli/): one file per command, included from Makefile.am.
bin_PROGRAMS += tscript
tscript_SOURCES = cli/main.c cli/cli.h cli/common.c cli/heap.c cli/run.c cli/inputs.c cli/test.c \
	cli/graph.c cli/ops.c cli/info.c cli/save.c
# Built on the public API alone, as lua.c is on lua.h: compiled with the installed headers
# (-I include, not -I core), and calling nothing the headers do not declare
# (t/cli_public.sh checks the objects). It links the core statically, all of it, and exports
# the public API itself (TS_CORE_STATIC, configure.ac), so that a run starts without loading
# and relocating libtscript.so and the plugins it dlopens bind to that one copy.
tscript_CPPFLAGS = $(PLUGIN_CPPFLAGS)
tscript_LDADD = libtscript_core.la $(TS_CORE_STATIC)

# The commands as a user runs them: t/cli.sh what they do, t/cli_options.sh their command
# lines and error paths, t/cli_test.sh `tscript test` with prove and PyTorch's declarations,
# t/cli_public.sh that the CLI calls only the public API and compiles against include/ only.
TESTS += t/cli.sh t/cli_options.sh t/cli_test.sh t/cli_public.sh
EXTRA_DIST += t/cli.sh t/cli_options.sh t/cli_test.sh t/cli_public.sh t/cli_lib.sh \
	t/unittest_verdicts.py \
	t/data/cli/prog.py t/data/cli/broken.py t/data/cli/tests.py t/data/cli/declared.py \
	t/data/cli/raising.pt t/data/cli/make_raising.py examples/tests/arith.py examples/tests/tensors.py
