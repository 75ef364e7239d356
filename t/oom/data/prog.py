# prog.py — the allocation-failure sweep's sample program (t/oom/cases.sh): a little of
# everything a program allocates for: a class, lists, a dict, strings, str.format, a tuple,
# an Optional, loops, and a few tensor operations.
import torch
from typing import Dict, List, Optional, Tuple


class Counter:
    def __init__(self, name: str):
        self.name = name
        self.counts: Dict[str, int] = {}

    def add(self, word: str) -> int:
        n = self.counts.get(word, 0) + 1
        self.counts[word] = n
        return n


def split_words(text: str) -> List[str]:
    words: List[str] = []
    for w in text.split(" "):
        if len(w) > 0:
            words.append(w.lower())
    return words


def first_long(words: List[str], n: int) -> Optional[str]:
    for w in words:
        if len(w) >= n:
            return w
    return None


def stats(x: torch.Tensor) -> Tuple[float, float]:
    return float(x.mean()), float(x.std())


def main():
    c = Counter("words")
    for w in split_words("the quick brown fox jumps over the lazy dog The End"):
        c.add(w)
    keys = sorted(c.counts.keys())
    print(c.name, len(keys), keys[0], c.counts["the"])
    print(first_long(keys, 5), first_long(keys, 9))
    t = (len(keys), "{}-{}".format("a", 2))
    print(t, "-".join(keys[:3]))
    x = torch.arange(12, dtype=torch.float32).reshape(3, 4)
    y = torch.relu(x - 4.0) @ x.t()
    m, s = stats(y)
    print(y.sum(dim=0), int(m), int(s))
