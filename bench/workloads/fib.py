# A fixed-trip loop: Fibonacci numbers by a counted loop of constant length (50 steps, so
# PyTorch's and tscript's optimizers may unroll it), called 100 thousand times.
def fib() -> int:
    a = 0
    b = 1
    for i in range(50):
        t = a + b
        a = b
        b = t
    return a


def main() -> int:
    acc = 0
    for k in range(100000):
        acc = (acc + fib() + k) % 1000000007
    return acc
