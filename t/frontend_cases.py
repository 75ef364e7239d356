# t/frontend_cases.py — corners of the language where tscript's frontend once differed from
# PyTorch 1.13 (each found by a probe program run through both). t/frontend_cases.sh runs
# the test_* functions with `tscript test`; they pass under PyTorch too:
#     /usr/bin/python3 t/frontend_cases.py     (scripts and runs each one)
# The compile errors PyTorch gives for the neighbouring wrong programs are in t/emit.c.
import math
from typing import Any, Dict, List, Optional, Tuple, Union

import torch
import torch.nn.functional as F

EPS = 1e-5
BIG = 2 ** 40


def add3(a: int, b: int, c: int = 5) -> int:
    return a + b * c


def test_starred_call_arguments():
    t = (1, 2)
    assert add3(*t) == 11
    assert add3(0, *(3,)) == 15
    assert add3(*t, c=1) == 3
    assert max(*t) == 2
    x = (torch.ones(2), torch.ones(2))
    assert torch.add(*x).sum().item() == 4.0


def test_starred_display_items():
    t = (1, 2)
    u = (*t, 3)
    assert u == (1, 2, 3)
    assert [*t, 3] == [1, 2, 3]
    assert [*(), 0] == [0]


def defaults(a: float = math.pi, b: int = 2 * 3, c: float = -math.inf, d: float = 1,
             e: bool = 1, f: int = True, g: float = EPS,
             h: int = -9223372036854775808, i: Tuple[float, int] = (1, 2),
             j: Optional[float] = 1, k: int = BIG // 2 ** 30 - 7 % 3,
             s: str = "s" + "t") -> Tuple[float, int, float, float, bool, int, float, int,
                                          Tuple[float, int], Optional[float], int, str]:
    return a, b, c, d, e, f, g, h, i, j, k, s


def test_parameter_defaults_are_evaluated_and_converted():
    a, b, c, d, e, f, g, h, i, j, k, s = defaults()
    assert a == math.pi and b == 6 and c == -math.inf
    assert str(d) == "1." and e and f == 1 and g == 1e-5
    assert h == -9223372036854775807 - 1
    assert str(i) == "(1., 2)" and str(j) == "1."
    assert k == 1023 and s == "st"


class Ctx:
    def __init__(self):
        self.log: List[str] = []

    def __enter__(self):
        self.log.append("enter")
        return self

    def __exit__(self, a: Any, b: Any, c: Any):
        self.log.append("exit")


def returns_inside_with(c: Ctx) -> int:
    with c:
        return 3
    return 4


def test_with_statement_enters_and_exits():
    c = Ctx()
    with c as d:
        d.log.append("body")
    assert c.log == ["enter", "body", "exit"]
    assert returns_inside_with(c) == 3
    assert c.log[-2:] == ["enter", "exit"]
    for i in range(3):
        with c:
            if i == 1:
                break
    assert len(c.log) == 9


def mse(x: torch.Tensor, y: torch.Tensor, r: str) -> torch.Tensor:
    return F.mse_loss(x, y, reduction=r)


def kl(x: torch.Tensor, y: torch.Tensor, r: str) -> torch.Tensor:
    return F.kl_div(x, y, reduction=r)


def legacy(x: torch.Tensor, y: torch.Tensor, sa: Optional[bool],
           rd: Optional[bool]) -> torch.Tensor:
    return F.mse_loss(x, y, size_average=sa, reduce=rd)


def test_reduction_decided_at_run_time():
    x = torch.tensor([[1.0, 2.0], [3.0, 5.0]])
    y = torch.tensor([[1.5, 2.0], [2.0, 4.0]])
    assert mse(x, y, "sum").item() == 2.25
    assert mse(x, y, "mean").item() == 0.5625
    assert mse(x, y, "none").size() == [2, 2]
    assert legacy(x, y, None, None).item() == 0.5625
    assert legacy(x, y, False, None).item() == 2.25
    assert legacy(x, y, True, False).size() == [2, 2]
    lp = x.log_softmax(1)
    q = y.softmax(1)
    total = kl(lp, q, "sum").item()
    assert abs(kl(lp, q, "batchmean").item() - total / 2) < 1e-6
    assert abs(kl(lp, q, "mean").item() - total / 4) < 1e-6


def relu(x: torch.Tensor, inplace: bool) -> torch.Tensor:
    return F.relu(x, inplace=inplace)


def test_inplace_decided_at_run_time():
    z = torch.tensor([-1.0, 2.0])
    assert torch.equal(relu(z, False), torch.tensor([0.0, 2.0]))
    assert torch.equal(z, torch.tensor([-1.0, 2.0]))
    relu(z, True)
    assert torch.equal(z, torch.tensor([0.0, 2.0]))


def interp(x: torch.Tensor, mode: str) -> torch.Tensor:
    return F.interpolate(x, scale_factor=2.0, mode=mode)


def test_interpolate_mode_decided_at_run_time():
    img = torch.arange(4.0).reshape(1, 1, 2, 2)
    assert torch.equal(interp(img, "nearest"), F.interpolate(img, scale_factor=2.0))
    assert torch.equal(interp(img, "bilinear"),
                       F.interpolate(img, scale_factor=2.0, mode="bilinear"))
    line = torch.arange(3.0).reshape(1, 1, 3)
    assert interp(line, "linear").size() == [1, 1, 6]


def embed(i: torch.Tensor, w: torch.Tensor, p: Optional[int]) -> torch.Tensor:
    return F.embedding(i, w, p)


def softmax(x: torch.Tensor, d: Optional[int]) -> torch.Tensor:
    return F.softmax(x, d)


def pool(x: torch.Tensor, s: Optional[List[int]]) -> torch.Tensor:
    return F.max_pool2d(x, 2, s)


def test_optional_arguments_decided_at_run_time():
    w = torch.arange(8.0).reshape(4, 2)
    i = torch.tensor([0, 3])
    assert torch.equal(embed(i, w, None), embed(i, w, -1))
    x = torch.tensor([[1.0, 2.0], [3.0, 5.0]])
    assert torch.equal(softmax(x, None), F.softmax(x, 1))
    assert torch.equal(softmax(x, 0), F.softmax(x, 0))
    m = torch.arange(16.0).reshape(1, 1, 4, 4)
    assert pool(m, None).size() == [1, 1, 2, 2]
    assert pool(m, [1, 1]).size() == [1, 1, 3, 3]


def test_aug_assign_targets():
    xs = [1, 2, 3]
    xs[0] += 5
    xs[-1] *= 2
    assert xs == [6, 2, 6]
    t = torch.zeros(4)
    t[1:3] += 1
    t[0] -= 2.5
    assert torch.equal(t, torch.tensor([-2.5, 1.0, 1.0, 0.0]))


def scaled(a: int, *, b: int) -> int:
    return a * 10 + b


def test_keyword_only_parameters():
    assert scaled(1, b=3) == 13 and scaled(b=2, a=5) == 52


class Holder:
    def __init__(self, t: torch.Tensor):
        self.t = t


def test_aug_assign_in_place_as_pytorch():
    t = torch.tensor([1.0, 2.0])
    ts = [t]
    ts[0] += 1                  # a list's tensor item: add_, so t changes
    assert torch.equal(t, torch.tensor([2.0, 3.0]))
    d: Dict[str, torch.Tensor] = {"a": t}
    d["a"] *= 3                 # a dict's item: mul, so t does not
    assert torch.equal(t, torch.tensor([2.0, 3.0]))
    assert torch.equal(d["a"], torch.tensor([6.0, 9.0]))
    h = Holder(t)
    h.t -= 1                    # an attribute: sub_
    assert torch.equal(t, torch.tensor([1.0, 2.0]))
    u = torch.tensor([-7.0, 7.0])
    v = u
    u %= 3                      # fmod_, in place
    assert torch.equal(v, torch.tensor([-1.0, 1.0]))
    w = torch.tensor([1.0, 2.0, 3.0])
    w[0:2] **= 2                # pow has no in-place form: the view's result is dropped
    assert torch.equal(w, torch.tensor([1.0, 2.0, 3.0]))


def length(x: Union[List[int], int]) -> int:
    if isinstance(x, list):
        return len(x)
    return x


def test_isinstance_of_builtin_list_refines_a_union():
    assert length([1, 2]) == 2 and length(5) == 5


def test_method_receiver_binds_to_the_argument_named_self():
    # aten::where.self(Tensor condition, Tensor self, Tensor other): x goes to self
    x = torch.tensor([1.0, -1.0])
    assert torch.equal(x.where(x > 0, torch.tensor(0.0)), torch.tensor([1.0, 0.0]))
    assert torch.equal(x.add(1, alpha=2), torch.tensor([3.0, 1.0]))


def test_tolist_of_a_0_dim_tensor_is_a_number():
    f: float = torch.tensor(2.5).tolist()
    i: int = torch.tensor(3).tolist()
    assert f == 2.5 and i == 3


if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
