# t/compose_stats_cases.py — the integrals and statistics PyTorch composes from other ops
# (plugins/aten-cpu/shape/compose_stats.c: trapezoid, trapz, cumulative_trapezoid, cov,
# corrcoef) and the quantiles (reduce/quantile.c: quantile and nanquantile with a tensor or
# a float q, every interpolation mode, NaN rows) and histogram (reduce/histogram.c). Values as
# PyTorch 1.13 computes them, and its messages. Under PyTorch:
#     /usr/bin/python3 t/compose_stats_cases.py
# t/compose_stats_cases.sh runs them through t/cases.sh.
import torch


def close(a: torch.Tensor, b: torch.Tensor) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and bool(torch.allclose(a, b, 1e-5, 1e-6, equal_nan=True))


def test_trapezoid_and_trapz():
    y = torch.tensor([[1.0, 2.0, 4.0], [0.5, 1.5, 3.0]])
    x = torch.tensor([0.0, 1.0, 3.0])
    assert close(torch.trapezoid(y), torch.tensor([4.5, 3.25]))
    assert close(torch.trapezoid(y, x), torch.tensor([7.5, 5.5]))
    assert close(torch.trapezoid(y, dx=0.5), torch.tensor([2.25, 1.625]))
    assert close(torch.trapezoid(y, dim=0), torch.tensor([0.75, 1.75, 3.5]))
    assert close(torch.trapz(y, x), torch.tensor([7.5, 5.5]))
    assert close(torch.trapz(y, dx=2.0), torch.tensor([9.0, 6.5]))
    assert close(torch.trapezoid(y, torch.tensor([[0.0, 1.0, 3.0], [0.0, 2.0, 3.0]])), torch.tensor([7.5, 4.25]))
    assert close(torch.trapezoid(torch.tensor([1, 2, 3])), torch.tensor(4.0))
    assert close(torch.trapezoid(torch.tensor([1, 2, 3]), dx=2), torch.tensor(8.0))
    assert close(torch.trapezoid(torch.ones(0, 3), dim=0), torch.zeros(3))


def test_cumulative_trapezoid():
    y = torch.tensor([[1.0, 2.0, 4.0], [0.5, 1.5, 3.0]])
    assert close(torch.cumulative_trapezoid(y), torch.tensor([[1.5, 4.5], [1.0, 3.25]]))
    assert close(torch.cumulative_trapezoid(y, torch.tensor([0.0, 1.0, 3.0])), torch.tensor([[1.5, 7.5], [1.0, 5.5]]))
    assert close(torch.cumulative_trapezoid(y, dx=2), torch.tensor([[3.0, 9.0], [2.0, 6.5]]))
    assert close(torch.cumulative_trapezoid(y, dim=0), torch.tensor([[0.75, 1.75, 3.5]]))
    assert torch.cumulative_trapezoid(torch.ones(2, 0)).shape == [2, 0]


def test_cov_and_corrcoef():
    x = torch.tensor([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]])
    assert close(torch.cov(x), torch.tensor([[1.0, -1.0], [-1.0, 1.0]]))
    assert close(x.cov(correction=0), torch.tensor([[0.666667, -0.666667], [-0.666667, 0.666667]]))
    assert close(torch.cov(torch.tensor([1.0, 2.0, 4.0])), torch.tensor(2.333333))
    assert close(torch.cov(x, fweights=torch.tensor([1, 2, 1])), torch.tensor([[0.666667, -0.666667], [-0.666667, 0.666667]]))
    assert close(torch.cov(x, aweights=torch.tensor([0.5, 1.0, 2.0])), torch.tensor([[0.928571, -0.928571], [-0.928571, 0.928571]]))
    assert torch.cov(torch.tensor([[1, 2, 4], [3, 3, 1]])).dtype == torch.float32
    assert torch.cov(x.double()).dtype == torch.float64
    assert close(torch.corrcoef(x), torch.tensor([[1.0, -1.0], [-1.0, 1.0]]))
    assert close(torch.corrcoef(torch.tensor([[1.0, 2.0, 3.0], [1.0, 5.0, 2.0], [0.0, 0.0, 1.0]])),
                 torch.tensor([[1.0, 0.240192, 0.866025], [0.240192, 1.0, -0.277350], [0.866025, -0.277350, 1.0]]))
    assert close(torch.corrcoef(torch.tensor([1.0, 2.0])), torch.tensor(1.0))


def test_quantile():
    x = torch.tensor([[1.0, 7.0, 3.0, 4.0], [2.0, 0.5, 9.0, -1.0]])
    q = torch.tensor([0.25, 0.5, 0.9])
    assert close(torch.quantile(x, 0.3), torch.tensor(1.1))
    assert close(x.quantile(q), torch.tensor([0.875, 2.5, 7.6]))
    assert close(torch.quantile(x, q, dim=1), torch.tensor([[2.5, 0.125], [3.5, 1.25], [6.1, 6.9]]))
    assert close(torch.quantile(x, 0.5, dim=0, keepdim=True), torch.tensor([[1.5, 3.75, 6.0, 1.5]]))
    assert close(torch.quantile(x, q, dim=1, interpolation="lower"), torch.tensor([[1.0, -1.0], [3.0, 0.5], [4.0, 2.0]]))
    assert close(torch.quantile(x, q, dim=1, interpolation="higher"), torch.tensor([[3.0, 0.5], [4.0, 2.0], [7.0, 9.0]]))
    assert close(torch.quantile(x, q, dim=1, interpolation="midpoint"), torch.tensor([[2.0, -0.25], [3.5, 1.25], [5.5, 5.5]]))
    assert close(torch.quantile(x, q, dim=1, interpolation="nearest"), torch.tensor([[3.0, 0.5], [4.0, 2.0], [7.0, 9.0]]))
    assert close(torch.quantile(x.double(), q.double(), dim=0)[1], torch.tensor([1.5, 3.75, 6.0, 1.5], dtype=torch.float64))
    assert close(torch.quantile(torch.tensor(5.0), 0.5), torch.tensor(5.0))


def test_nanquantile():
    nan = float("nan")
    x = torch.tensor([[1.0, nan, 3.0], [4.0, 5.0, 6.0], [nan, nan, nan]])
    assert close(torch.quantile(x, 0.5, dim=1), torch.tensor([nan, 5.0, nan]))
    assert close(torch.nanquantile(x, 0.5, dim=1), torch.tensor([2.0, 5.0, nan]))
    assert close(torch.nanquantile(x, torch.tensor([0.1, 0.8]), dim=1), torch.tensor([[1.2, 4.2, nan], [2.6, 5.6, nan]]))
    assert close(torch.nanquantile(x, 0.5), torch.tensor(4.0))


def test_quantile_out():
    o = torch.zeros(5)
    r = torch.quantile(torch.tensor([1.0, 2.0, 3.0]), torch.tensor([0.5]), out=o)
    assert r is o and o.shape == [1] and o[0].item() == 2.0
    s = torch.zeros(0)
    torch.nanquantile(torch.tensor([1.0, float("nan"), 3.0]), 0.25, dim=0, keepdim=True, out=s)
    assert s.shape == [1] and s[0].item() == 1.5


def err_quantile_out_dtype():
    # raises: quantile() out tensor must be same dtype as the input tensor
    o = torch.zeros(1, dtype=torch.float64)
    print(torch.quantile(torch.tensor([1.0, 2.0, 3.0]), 0.5, out=o))


def test_histogram():
    x = torch.tensor([1.0, 2.0, 1.0, 4.0, 2.5, 0.0])
    h, e = torch.histogram(x, 4)
    assert torch.equal(h, torch.tensor([1.0, 2.0, 2.0, 1.0])) and torch.equal(e, torch.tensor([0.0, 1.0, 2.0, 3.0, 4.0]))
    h, e = torch.histogram(x, 3, range=[0.0, 3.0])                  # 4.0 is outside
    assert torch.equal(h, torch.tensor([1.0, 2.0, 2.0]))
    h, e = torch.histogram(x, torch.tensor([0.0, 1.0, 2.0, 5.0]))
    assert torch.equal(h, torch.tensor([1.0, 2.0, 3.0]))
    h, e = torch.histogram(x, 2, weight=torch.ones(6) * 0.5, density=True)
    assert torch.equal(h, torch.tensor([0.25, 0.25])) and torch.equal(e, torch.tensor([0.0, 2.0, 4.0]))
    h, e = torch.histogram(torch.tensor([3.0, 3.0]), 2)            # an empty range widened
    assert torch.equal(h, torch.tensor([0.0, 2.0])) and torch.equal(e, torch.tensor([2.5, 3.0, 3.5]))
    h, e = torch.histogram(x.double(), 2)
    assert h.dtype == torch.float64 and torch.equal(h, torch.tensor([3.0, 3.0], dtype=torch.float64))


def err_histogram_of_integers():
    # raises: "histogramdd" not implemented for 'Long'
    print(torch.histogram(torch.tensor([1, 2]), 2))


def err_histogram_no_bins():
    # raises: torch.histogram(): bins must be > 0, but got 0 for dimension 0
    print(torch.histogram(torch.tensor([1.0, 2.0]), 0))


def err_histogram_range():
    # raises: torch.histogramdd: min should not exceed max, but got min 3 max 1 for dimension 0
    print(torch.histogram(torch.tensor([1.0, 2.0]), 2, range=[3.0, 1.0]))


def err_histogram_edges_dtype():
    # raises: torch.histogramdd: input tensor and bins tensors should have the same dtype, but got input with dtype float and bins for dimension 0 with dtype double
    print(torch.histogram(torch.tensor([1.0, 2.0]), torch.tensor([0.0, 1.0], dtype=torch.float64)))


def err_histogram_nan_range():
    # raises: torch.histogramdd: dimension 0's range [nan, nan] is not finite
    print(torch.histogram(torch.tensor([float("nan"), 1.0]), 2))


def err_histogram_edges_matrix():
    # raises: torch.histogramdd: bins tensor should have one dimension, but got 2 dimensions in the bins tensor for dimension 0
    print(torch.histogram(torch.tensor([1.0, 2.0]), torch.tensor([[0.0, 1.0]])))


def err_trapezoid_sample_points():
    # raises: trapezoid: There must be one `x` value for each sample point
    print(torch.trapz(torch.ones(2, 3), torch.tensor([1.0, 2.0])))


def err_trapezoid_bool():
    # raises: trapezoid: received a bool input for `y`, but bool is not supported
    print(torch.trapezoid(torch.tensor([True, False])))


def err_cumulative_trapezoid_bool():
    # raises: cumulative_trapezoid: received a bool input for `x` or `y`, but bool is not supported
    print(torch.cumulative_trapezoid(torch.tensor([True, False]), torch.tensor([1.0, 2.0])))


def err_cov_three_dims():
    # raises: cov(): expected input to have two or fewer dimensions but got an input with 3 dimensions
    print(torch.cov(torch.ones(2, 2, 2)))


def err_cov_float_fweights():
    # raises: cov(): expected fweights to have integral dtype but got fweights with Float dtype
    print(torch.cov(torch.ones(2, 3), fweights=torch.tensor([1.0, 2.0, 3.0])))


def err_cov_fweights_count():
    # raises: cov(): expected fweights to have the same numel as there are observations in the input but got 2 != 3
    print(torch.cov(torch.ones(2, 3), fweights=torch.tensor([1, 2])))


def err_cov_negative_aweights():
    # raises: cov(): aweights cannot be negative
    print(torch.cov(torch.ones(2, 3), aweights=torch.tensor([1.0, -2.0, 1.0])))


def err_cov_bool():
    # raises: cov(): bool dtype is not supported for input
    print(torch.cov(torch.tensor([True, False])))


def err_corrcoef_three_dims():
    # raises: corrcoef(): expected input to have two or fewer dimensions but got an input with 3 dimensions
    print(torch.corrcoef(torch.ones(2, 2, 2)))


def err_quantile_level():
    # raises: quantile() q must be in the range [0, 1] but got 1.5
    print(torch.quantile(torch.ones(3), 1.5))


def err_quantile_levels():
    # raises: quantile() q values must be in the range [0, 1]
    print(torch.quantile(torch.ones(3), torch.tensor([0.5, 1.5])))


def err_quantile_q_dtype():
    # raises: quantile() q tensor must be same dtype as the input tensor
    print(torch.quantile(torch.ones(3), torch.tensor([0.5], dtype=torch.float64)))


def err_quantile_integers():
    # raises: quantile() input tensor must be either float or double dtype
    print(torch.quantile(torch.tensor([1, 2]), 0.5))


def err_quantile_empty():
    # raises: quantile() input tensor must be non-empty
    print(torch.quantile(torch.ones(0), 0.5))


def err_quantile_interpolation():
    # raises: quantile() interpolation must be one of linear, lower, higher, midpoint or nearest. Got cubic
    print(torch.quantile(torch.ones(3), 0.5, interpolation="cubic"))


def err_quantile_q_matrix():
    # raises: quantile() q must be a scalar or 1D tensor
    print(torch.quantile(torch.ones(3), torch.ones(2, 2) * 0.5))


if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
