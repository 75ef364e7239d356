# man.mk -- the manual pages, installed by make install and shipped in the tarball:
# tscript(1) the command, tscript-config(5) the config and schema-file formats,
# tscript-plugin(7) writing a plugin. t/man.sh checks that they render without warnings and
# document every command, option, environment variable and key the sources know.
# Included from Makefile.am.
dist_man_MANS = man/tscript.1 man/tscript-config.5 man/tscript-plugin.7
TESTS += t/man.sh
EXTRA_DIST += man/man.mk t/man.sh
