# expect: ok
# A bare `return` has no value child: the emitter read kids[0] of an empty node (found by
# t/fuzz/emit_fuzz, a UBSan null-pointer report).
def f():
    return
def main():
    f()
