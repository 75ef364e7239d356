# t/factory_bits_cases.py — values PyTorch 1.13's CPU kernels compute to the bit, which a
# printed tensor shows when they land near zero: linspace's halves and vectors (its middle
# value -2.98e-08, not 0, switches the print to scientific notation), float16, bfloat16 and
# integer linspace, arange's double accumulation, logspace, float32 sums in PyTorch's
# cascade order, x ** 2, 3, -2 and -0.5 as its kernel multiplies, and where -0.0 literals end
# up 0.0. Every expected value is
# what PyTorch gives (the file runs under it too: /usr/bin/python3 t/factory_bits_cases.py).
from typing import List

import math

import torch


def values(x: torch.Tensor) -> List[float]:
    return torch.jit.annotate(List[float], x.double().tolist())


def test_linspace_float32_fused_steps():
    v = values(torch.linspace(-1, 1, 7))
    assert v[3] == -2.9802322387695312e-08
    assert v[1] == -0.66666662693023682 and v[5] == 0.66666662693023682
    assert values(torch.linspace(-1, 1, 5)) == [-1.0, -0.5, 0.0, 0.5, 1.0]


def test_linspace_float32_vectors():
    v = values(torch.linspace(-3.7, 2.9, 20))
    assert v[11] == 0.12105286121368408
    w = values(torch.linspace(0.1, 7.3, 50))
    assert w[5] == 0.83469396829605103
    assert w[22] == 3.3326530456542969 and w[23] == 3.4795918464660645
    u = values(torch.linspace(1, 2, 100))
    assert u[14] == 1.1414141654968262 and u[22] == 1.2222223281860352


def test_linspace_float64():
    v = values(torch.linspace(-1, 1, 7, dtype=torch.float64))
    assert v[3] == 5.5511151231257827e-17
    w = values(torch.linspace(0.1, 7.3, 50, dtype=torch.float64))
    assert w[11] == 1.7163265306122453


def test_linspace_half_and_bfloat16():
    h = values(torch.linspace(-1, 1, 7, dtype=torch.float16))
    assert h == [-1.0, -0.6669921875, -0.33349609375, 0.0, 0.33349609375, 0.6669921875, 1.0]
    b = values(torch.linspace(-1, 1, 7, dtype=torch.bfloat16))
    assert b == [-1.0, -0.6640625, -0.33203125, 0.0, 0.33203125, 0.6640625, 1.0]


def test_linspace_integers():
    assert torch.equal(torch.linspace(-3, 3, 10, dtype=torch.int32),
                       torch.tensor([-3, -2, -1, -1, 0, 0, 1, 1, 2, 3], dtype=torch.int32))
    assert torch.equal(torch.linspace(0, 10, 7, dtype=torch.int64),
                       torch.tensor([0, 1, 3, 5, 6, 8, 10]))


def err_linspace_bool_has_no_kernel():
    # raises: "linspace_cpu" not implemented for 'Bool'
    print(torch.linspace(0, 1, 5, dtype=torch.bool))


def test_arange_float32_accumulates_in_double():
    # torch.arange(-1, 1, 0.1) holds -2.98e-09 where 0 is expected: PyTorch prints it so
    a = values(torch.arange(-1, 1, 0.1))
    assert a[10] == -2.9802322831784522e-09 and a[11] == 0.09999999403953552
    c = values(torch.arange(-1, 1, 0.05))
    assert c[11] == -0.45000001788139343 and c[12] == -0.40000003576278687
    assert c[15] == -0.2500000298023224


def test_arange_float64_and_half():
    assert values(torch.arange(-2.5, 2.5, 0.3, dtype=torch.float64))[7] == -0.4000000000000001
    e = values(torch.arange(-3.3, 4.1, 0.17, dtype=torch.float64))
    assert e[9] == -1.7699999999999998 and e[30] == 1.8000000000000005
    d = values(torch.arange(0, 3, 0.1, dtype=torch.float16))
    assert d[7] == 0.7001953125 and d[25] == 2.5


def test_float32_sums_in_pytorch_order():
    # float32 sums run in float32 by PyTorch's cascade, not in double
    x = torch.tensor([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7])
    assert x.sum().item() == 2.8000001907348633 and x.mean().item() == 0.40000003576278687
    y = torch.linspace(-1.7, 2.3, 1000)
    assert (y - y.mean()).sum().item() == -2.09808349609375e-05
    assert y.reshape(10, 100).sum(1)[3].item() == -30.060070037841797
    z = torch.arange(24.0).reshape(4, 6).t() / 7.0
    assert z.sum(0)[1].item() == 7.285714149475098


def test_float32_sums_over_outer_dims_in_pytorch_order():
    x = torch.linspace(-2.3, 3.1, 40 * 50).reshape(40, 50) ** 3
    assert x.sum(0)[7].item() == 104.64897155761719
    assert x[:, ::2].sum(0)[3].item() == 103.82096862792969
    assert x.t().sum(1)[20].item() == 115.47132873535156
    assert x[:, 3:17].sum(0)[5].item() == 105.47763061523438
    y = torch.linspace(-2.3, 3.1, 3 * 37).reshape(37, 3) ** 3
    assert y.sum(0)[1].item() == 112.15033721923828
    assert y.permute(1, 0).sum().item() == 336.66497802734375


def test_pow_by_a_scalar_as_pytorch_multiplies():
    w = torch.linspace(-1.7, 2.3, 300)
    assert (w ** 2)[211].item() == 1.2605507373809814
    assert (w ** 3)[7].item() == -4.144997596740723
    v = torch.linspace(0.1, 2.3, 300)
    assert (v ** -2)[5].item() == 53.44361114501953
    assert (v ** -0.5)[9].item() == 2.452773094177246
    assert (torch.linspace(0.1, 2.3, 300, dtype=torch.float64) ** 3)[17].item() == \
        0.011403328298086789


def test_logspace():
    v = values(torch.logspace(-2, 2, 13, dtype=torch.float64))
    assert v[6] == 1.0 and v[5] == 0.46415888336127775
    w = values(torch.logspace(-2.5, 1.5, 40, base=3.0, dtype=torch.float64))
    assert w[7] == 0.14117098869994218 and w[9] == 0.17685464993195585


def test_negative_zero_literal_beside_a_zero():
    # PyTorch folds -0.0 (neg of 0.0) into the 0.0 the graph also uses
    a = torch.tensor([-0.0, 0.0, 1.0])
    assert torch.equal(torch.sign(1 / a), torch.tensor([1.0, 1.0, 1.0]))


def test_negative_zero_folded_keeps_its_sign():
    # math on constants folds while -0.0 is still -0.0, even beside a 0.0
    assert math.atan2(0.0, -0.0) == math.pi
    assert math.copysign(1.0, -0.0) == -1.0
    x = -0.0
    assert math.atan2(-0.0, -1.0) == -math.pi and math.atan2(0.0, x) == math.pi


def test_negative_zero_beside_a_zero_that_folds_away():
    # the only other 0.0 folds into a string: no 0.0 is left to pool with, -0.0 stays
    t = torch.zeros(2) * -0.0
    s = str(0.0)
    assert torch.equal(torch.sign(1 / t), torch.tensor([-1.0, -1.0])) and s == "0."


def test_negative_zero_beside_a_zero_in_use():
    t = torch.zeros(2) * -0.0
    u = torch.zeros(2) + 0.0
    assert torch.equal(torch.sign(1 / t), torch.tensor([1.0, 1.0])) and u.sum().item() == 0.0


def test_negative_zero_literal_alone():
    # with no other 0.0 in the function, -0.0 stays negative
    b = torch.tensor([-0.0, 1.0])
    assert (1 / b)[0].item() == float("-inf")


if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
