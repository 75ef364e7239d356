/* noentry.c — a shared object without the tscript_plugin symbol (t/plugin.t). */
int not_a_tscript_plugin(void);
int not_a_tscript_plugin(void) { return 42; }
