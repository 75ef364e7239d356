# strings — string methods, format, slices, and/or/not as If nodes.
import torch
from typing import List

def main(s: str, n: int) -> str:
    t = s.upper() + str(n) + "{}-{}".format(s, n)
    if s.startswith("a") and not s.endswith("z") or n > 3:
        t = t + "!"
    parts = t.split("-")
    return parts[0] + f"{n}" + s[1:3] + s[-1]
