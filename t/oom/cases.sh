# cases.sh — what the allocation-failure sweeps run, sourced by t/oom.sh and t/oom/sweep.sh,
# which define oom_case NAME IN_CHECK CMD...: IN_CHECK is 1 for the cases make check
# samples (t/oom.sh), 0 for those only the full sweep runs. Each command must succeed when
# no allocation fails. Needs tscript, srcdir, builddir and tmp.
oom_cases() {
    # the vendor config finds acme.so beside itself in an in-tree build; out of tree
    # (make distcheck), in ours
    TSCRIPT_PLUGIN_PATH=$builddir/examples/plugins/vendor/.libs${TSCRIPT_PLUGIN_PATH:+:$TSCRIPT_PLUGIN_PATH}
    export TSCRIPT_PLUGIN_PATH
    # a small program: compiling, the interpreter, containers, strings, a few kernels
    oom_case prog 1 "$tscript" run "$srcdir/t/oom/data/prog.py"
    # a small archive saved by torch.jit.save: zip, unpickler, code/ compiled on first call
    oom_case archive 1 "$tscript" run "$srcdir/examples/embed/linear.pt" 'torch.ones(1, 4)'
    # a config naming a third plugin with its own schema file, and calls to its operators
    oom_case vendor 1 "$tscript" --config "$srcdir/examples/plugins/vendor/config.yaml" \
        run "$srcdir/t/oom/data/acme.py"
    # the image classifier of the README on an .npy input
    oom_case model 0 "$tscript" run "$srcdir/examples/model/model.pt" \
        "@$srcdir/examples/model/input.npy"
    oom_case info 0 "$tscript" info "$srcdir/examples/model/model.pt"
    oom_case graph 0 "$tscript" graph -f main "$srcdir/t/oom/data/prog.py"
    oom_case save 0 "$tscript" save -o "$tmp/prog.pt" "$srcdir/t/oom/data/prog.py"
    oom_case mlp 0 "$tscript" run "$srcdir/examples/mlp.py"
    oom_case lstm 0 "$tscript" run "$srcdir/examples/lstm.py"
}
