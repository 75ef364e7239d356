# t/plugins/countdev/countdev.mk — the counting test backend (countdev.c) and t/countdev.sh,
# which runs an LSTM cell on it, and t/plugin_symbols.sh (plugins call only what the public
# headers declare); included by the top Makefile.am. Built against the public
# headers only, as a vendor's plugin is.
check_LTLIBRARIES += t/plugins/countdev/countdev.la
t_plugins_countdev_countdev_la_SOURCES = t/plugins/countdev/countdev.c
t_plugins_countdev_countdev_la_CPPFLAGS = $(PLUGIN_CPPFLAGS)
t_plugins_countdev_countdev_la_LDFLAGS = $(TEST_PLUGIN_LDFLAGS)
t_plugins_countdev_countdev_la_LIBADD = libtscript.la -lm

TESTS += t/countdev.sh t/plugin_symbols.sh
EXTRA_DIST += t/plugins/countdev/countdev.mk t/countdev.sh t/data/countdev/lstm.py \
	t/data/countdev/cell.pt t/data/countdev/make_cell.py \
	t/plugin_symbols.sh
