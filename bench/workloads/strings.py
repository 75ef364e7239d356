# Constant strings: 300k rounds of concatenating, comparing and measuring string constants.
def main() -> int:
    n = 0
    for i in range(300000):
        s = "alpha" + "-" + "beta"
        if s == "alpha-beta":
            n += len(s)
        if s.startswith("alpha"):
            n += 1
    return n
