# expect: ok
# The second class A replaces the first, as in Python; compiling the whole file meets
# __torch__.A.__init__ twice, and the refused second graph and schema leaked (found by
# t/fuzz/emit_fuzz, a LeakSanitizer report).
class A:
    def __init__(self, x: int):
        self.x = x
class A:
    def __init__(self, x: int):
        self.x = x + 1
def main():
    print(A(1).x)
