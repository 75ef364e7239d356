# t/data/threads/threads.py — the TorchScript that t/threads.c runs on many threads at once:
# forks forking forks, and containers several tasks write at the same time (a list, a dict,
# an object's attributes, lists inside a list while another task reads and prints them, a
# future's list that two tasks wait for and grow). PyTorch gives the same results.
import torch
from typing import List, Dict


class Box:
    def __init__(self):
        self.items: List[int] = []
        self.count = 0


def append_n(l: List[int], n: int) -> int:
    for i in range(n):
        l.append(i)
    return len(l)


def insert_n(d: Dict[int, int], base: int, n: int) -> int:
    for i in range(n):
        d[base + i] = i
    return len(d)


def box_n(b: Box, n: int) -> int:
    for i in range(n):
        b.items.append(i)
        b.count = b.count + 1
    return len(b.items)


def grow_nested(ll: List[List[int]], n: int) -> int:
    for i in range(n):
        ll[i % len(ll)].append(i)
        ll.append([i, i])
    return len(ll)


def read_nested(ll: List[List[int]], n: int) -> int:
    s = 0
    for i in range(n):
        outer = [ll[0], ll[1]]
        s += len(str(outer))
        if ll[0] == ll[1]:
            s += 1
        t = torch.tensor([ll[1]])
        s += t.size(1)
    return s


def make_list(n: int) -> List[int]:
    l: List[int] = []
    for i in range(n):
        l.append(i)
    return l


def wait_and_append(f: torch.jit.Future[List[int]], n: int) -> int:
    l = torch.jit.wait(f)
    return append_n(l, n)


def leaf(k: int) -> int:
    return k + 1


def fork_level2(k: int) -> int:
    a = torch.jit.fork(leaf, k)
    b = torch.jit.fork(leaf, k + 1)
    return torch.jit.wait(b) + torch.jit.wait(a)


def fork_stress(n: int) -> int:
    fs: List[torch.jit.Future[int]] = []
    for k in range(n):
        fs.append(torch.jit.fork(fork_level2, k))
    s = 0
    for i in range(n):
        s += torch.jit.wait(fs[n - 1 - i])
    return s


def shared_containers(n: int) -> int:
    l: List[int] = []
    fs: List[torch.jit.Future[int]] = []
    for k in range(4):
        fs.append(torch.jit.fork(append_n, l, n))
    for f in fs:
        torch.jit.wait(f)
    assert len(l) == 4 * n
    d: Dict[int, int] = {}
    g1 = torch.jit.fork(insert_n, d, 0, n)
    g2 = torch.jit.fork(insert_n, d, 1000000, n)
    torch.jit.wait(g1)
    torch.jit.wait(g2)
    assert len(d) == 2 * n
    b = Box()
    h1 = torch.jit.fork(box_n, b, n)
    h2 = torch.jit.fork(box_n, b, n)
    torch.jit.wait(h1)
    torch.jit.wait(h2)
    assert len(b.items) == 2 * n
    ll: List[List[int]] = [[0], [1]]
    outer = [ll[0], ll[1]]
    r = torch.jit.fork(read_nested, ll, n // 10)
    w = torch.jit.fork(grow_nested, ll, n)
    s = str(outer)
    torch.jit.wait(r)
    torch.jit.wait(w)
    assert len(ll) == 2 + n
    f = torch.jit.fork(make_list, 10)
    a1 = torch.jit.fork(wait_and_append, f, n)
    a2 = torch.jit.fork(wait_and_append, f, n)
    torch.jit.wait(a1)
    torch.jit.wait(a2)
    assert len(torch.jit.wait(f)) == 10 + 2 * n
    return len(l) + len(d) + len(b.items) + len(ll) + int(len(s) > 0)


def per_thread(k: int, n: int) -> int:
    l: List[int] = []
    d: Dict[str, int] = {}
    for i in range(n):
        l.append(i * k)
        d[str(i)] = i
    f = torch.jit.fork(append_n, l, n)
    return torch.jit.wait(f) + len(d) + fork_level2(k)


def main():
    print(fork_stress(200))
    print(shared_containers(2000))
    print(per_thread(3, 100))
