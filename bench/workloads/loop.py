# An integer while loop of 3 million iterations with a branch.
def main() -> int:
    i = 0
    acc = 0
    while i < 3000000:
        if i % 3 == 0:
            acc += i
        else:
            acc -= 1
        i += 1
    return acc
