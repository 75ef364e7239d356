# t/special_cases.py — torch.special and the plain aten names of its functions
# (pointwise/special.c, special_math.c, bessel.c): values PyTorch 1.13 gives (to 1e-9 in
# float64), identities between the functions, int inputs computed as float32, and the
# aliases of existing ops; each err_* function fails with PyTorch's message.
# t/special_cases.sh runs them under tscript; under PyTorch:
#     /usr/bin/python3 t/special_cases.py
import math
from typing import List

import torch


def close(a: torch.Tensor, b: torch.Tensor, rtol: float = 1e-6) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and torch.allclose(a, b, rtol, 1e-12, equal_nan=True)


def d(v: List[float]) -> torch.Tensor:
    return torch.tensor(v, dtype=torch.float64)


def near(a: torch.Tensor, v: List[float], rtol: float) -> bool:
    got: List[float] = a.tolist()
    if a.dtype != torch.float64 or len(got) != len(v):
        return False
    for i in range(len(v)):
        x = got[i]
        y = v[i]
        if math.isnan(y) or math.isnan(x):
            if not (math.isnan(y) and math.isnan(x)):
                return False
        elif x != y and abs(x - y) > rtol * abs(y):
            return False
    return True


def test_gamma_family():
    x = d([0.3, 1.0, 2.5, 7.5, 12.0, 35.0])
    assert close(torch.special.digamma(x), d([-3.502524222200133, -0.5772156649015328, 0.7031566406452431, 1.9467574842460869, 2.4426616799758123, 3.5409943255439]))
    assert close(torch.digamma(x), torch.special.psi(x))
    assert close(torch.special.polygamma(1, x), d([12.245364544940365, 1.6449340676383375, 0.4903577562398206, 0.14261589669891445, 0.08690187287193527, 0.02898347847164163]))
    assert close(torch.polygamma(3, x)[1:3], d([6.493939402266829, 0.2239058488172521]))
    n = d([-3.5, -0.7, 0.0, 0.4, 1.3])
    assert close(torch.digamma(n), d([1.388870926359529, -2.073952793628704, float("-inf"), -2.561384544585115, -0.16919088886680006]))
    assert close(torch.special.multigammaln(x + 1, 3), torch.mvlgamma(x + 1, 3))
    assert close(torch.mvlgamma(d([2.5]), 2), d([0.8570478133976193]))
    assert close(torch.special.gammaln(x), torch.lgamma(x))
    assert close(torch.special.zeta(d([2.0, 3.0, 4.5]), d([1.0, 2.0, 0.5])), d([1.6449340668482266, 0.2020569031595943, 22.8105991461284]))
    assert close(torch.special.zeta(d([2.0]), 1.0), d([1.6449340668482266]))
    assert close(torch.special.gammainc(d([0.5, 2.0, 10.0]), d([0.3, 2.0, 3.0])), d([0.5614219739190003, 0.5939941502901616, 0.0011024881301154798]), 1e-5)
    assert close(torch.special.gammainc(x, x) + torch.special.gammaincc(x, x), torch.ones(6, dtype=torch.float64))
    assert close(torch.igammac(d([2.0]), d([2.0])), d([0.40600584970983794]))
    assert torch.digamma(torch.tensor([1, 2])).dtype == torch.float32


# The values PyTorch 1.13 gives, compared as Python floats: torch.tensor(List[float],
# dtype=torch.float64) goes through float32 in TorchScript, so inputs are exact in float32
# and the expected values are not made tensors.
def test_normal():
    assert near(torch.special.ndtr(d([-40.0, -10.0, -3.5, -0.75, 0.0, 0.375, 1.25, 6.0])), [0.0, 0.0, 0.0002326290790355401, 0.22662735237686815, 0.5, 0.6461697666727237, 0.8943502263331448, 0.9999999990134123], 1e-09)
    assert near(torch.special.ndtri(d([0.0009765625, 0.25, 0.5, 0.875, 0.999999046325683, 0.0, 1.0])), [-3.0972690781987846, -0.6744897501960817, 0.0, 1.1503493803760079, 4.7630010341504025, float("-inf"), float("inf")], 1e-09)
    assert near(torch.special.erfcx(d([-30.0, -2.0, -0.5, 0.0, 3.0, 30.0, 1e10, float("inf"), float("nan")])), [float("inf"), 108.94090438997797, 1.952360489182557, 1.0, 0.17900115118138998, 0.018795888861416754, 5.641895835477563e-11, 0.0, float("nan")], 1e-09)
    assert near(torch.special.log_ndtr(d([-40.0, -3.0, -0.5, 2.0, 10.0, float("-inf"), float("inf")])), [-804.6084420137539, -6.60772622151035, -1.1759117615936185, -0.02301290932896348, -7.619853024160498e-24, float("-inf"), -0.0], 1e-09)
    # ndtr is (1 + erf(x / sqrt 2)) / 2 as PyTorch's: float32's tail is float's rounding of it
    assert torch.special.ndtr(torch.tensor([-5.0])).item() == 2.980232238769531e-07


def test_bessel():
    assert near(torch.special.i0(d([0.25, 1.0, 2.5, 7.5, 12.0, 35.0, -3.0, float("inf")])), [1.015686141223608, 1.2660658777520082, 3.289839144050123, 268.1613115151893, 18948.92534929631, 107338818494514.08, 4.880792585865024, float("nan")], 1e-09)
    assert near(torch.special.i1(d([0.25, 1.0, 2.5, -7.5, 35.0, float("-inf")])), [0.12597910894546793, 0.5651591039924851, 2.5167162452886984, -249.58436542268808, 105794126051896.27, float("nan")], 1e-09)
    assert near(torch.special.i0e(d([0.25, -2.5, 12.0, 35.0, float("inf")])), [0.7910171621397194, 0.27004644161220276, 0.11642622121344044, 0.06767837835041363, 0.0], 1e-09)
    assert near(torch.special.i1e(d([0.25, -2.5, 12.0, 35.0])), [0.09811262869736825, -0.20658464953126654, 0.111464299290181, 0.06670443172949143], 1e-09)
    assert near(torch.special.bessel_j0(d([0.25, 1.0, 2.5, 5.0, 6.0, 7.5, 12.0, -35.0, 9.5367431640625e-07, float("inf")])), [0.9844359292958528, 0.7651976865579665, -0.048383776468256645, -0.17759678121123898, 0.15064520026735478, 0.26633966007879234, 0.04768931078331563, -0.12684568275631272, 0.9999999999997726, float("nan")], 1e-12)
    assert near(torch.special.bessel_j1(d([0.0, 7.888609052210118e-31, 0.25, 2.5, -5.0, 7.5, 35.0])), [0.0, 3.944304526105059e-31, 0.12402597732272692, 0.4970941024644698, 0.3275791437359959, 0.1352484382588624, 0.043990942179625514], 1e-12)
    assert near(torch.special.bessel_y0(d([0.25, 1.0, 2.5, 7.5, 12.0, 35.0, 0.0, -1.0, float("inf"), float("nan")])), [-0.9315730249300588, 0.08825696421567697, 0.49807035961592067, 0.11731328137254243, -0.22523731263737054, 0.045797987195155314, float("-inf"), float("nan"), float("nan"), float("nan")], 1e-12)
    assert near(torch.special.bessel_y1(d([0.25, 1.0, 2.5, 7.5, 12.0, 35.0, 0.0, -1.0])), [-2.704105229315283, -0.7812128213002888, 0.14591813796695813, -0.2591285055701094, -0.05709921829059519, 0.12751273354559017, float("-inf"), float("nan")], 1e-12)
    assert near(torch.special.modified_bessel_k0(d([0.125, 1.0, 2.0, 2.5, 50.0, 1000.0, 0.0, -1.0])), [2.20786908674497, 0.4210244382407082, 0.1138938727495334, 0.062347553200366196, 3.410167749789495e-23, 0.0, float("inf"), float("nan")], 1e-09)
    assert near(torch.special.modified_bessel_k1(d([0.125, 1.0, 2.0, 2.5, 50.0, 1000.0, 0.0])), [7.83111829911575, 0.6019072301972346, 0.13986588181652246, 0.07389081634774705, 3.4441022267175555e-23, 0.0, float("inf")], 1e-09)
    assert near(torch.special.scaled_modified_bessel_k0(d([0.125, 1.0, 2.0, 2.5, 50.0, 1e5, float("inf")])), [2.501843440219129, 1.1444630798068944, 0.8415682150707712, 0.7595486903280996, 0.17680715585742932, 0.003963322343474756, 0.0], 1e-09)
    assert near(torch.special.scaled_modified_bessel_k1(d([0.125, 1.0, 2.0, 2.5, 50.0, 1e5])), [8.873819586426329, 1.636153486263258, 1.0334768470686888, 0.9001744239078779, 0.17856655855881556, 0.003963342160036932], 1e-09)
    x = d([0.25, 1.0, 2.5, 7.5, 12.0, 35.0])
    assert close(torch.i0(x), torch.special.modified_bessel_i0(x))
    assert close(torch.special.i1(x), torch.special.modified_bessel_i1(x))
    assert close(torch.special.i0e(x), torch.special.i0(x) * torch.exp(-x))
    assert close(torch.special.i1e(-x), -torch.special.i1(x) * torch.exp(-x))
    assert close(torch.special.scaled_modified_bessel_k1(x), torch.special.modified_bessel_k1(x) * torch.exp(x))
    assert close(torch.special.spherical_bessel_j0(x), torch.sin(x) / x)
    assert torch.special.i0(torch.tensor([1, 2])).dtype == torch.float32
    assert torch.special.bessel_y0(torch.tensor([1, 2])).dtype == torch.float32


def test_airy():
    assert near(torch.special.airy_ai(d([-30.0, -5.0, -2.5, -2.0, -1.0, 0.0, 1.5, 2.125, 5.0, 50.0, 104.0, float("inf"), float("-inf"), float("nan")])), [-0.0879681884568426, 0.35076100902415286, -0.11232483666261353, 0.22740742820168564, 0.5355608832923521, 0.3550280538878172, 0.07174949700810533, 0.028810683246957212, 0.00010834442813607433, 4.5849417240747895e-104, 0.0, float("nan"), float("nan"), float("nan")], 1e-12)
    assert torch.special.airy_ai(torch.tensor([1.5])).dtype == torch.float32


def test_polynomials():
    x = d([-0.5, 0.1, 0.7])
    assert close(torch.special.chebyshev_polynomial_t(x, 3), 4 * x ** 3 - 3 * x)
    assert close(torch.special.chebyshev_polynomial_u(x, 2), 4 * x ** 2 - 1)
    assert close(torch.special.chebyshev_polynomial_v(x, 1), 2 * x - 1)
    assert close(torch.special.chebyshev_polynomial_w(x, 1), 2 * x + 1)
    assert close(torch.special.shifted_chebyshev_polynomial_t(x, 2), 2 * (2 * x - 1) ** 2 - 1)
    assert close(torch.special.hermite_polynomial_h(x, 3), 8 * x ** 3 - 12 * x)
    assert close(torch.special.hermite_polynomial_he(x, 3), x ** 3 - 3 * x)
    assert close(torch.special.laguerre_polynomial_l(x, 2), (x ** 2 - 4 * x + 2) / 2)
    assert close(torch.special.legendre_polynomial_p(x, 2), (3 * x ** 2 - 1) / 2)
    assert close(torch.special.legendre_polynomial_p(x, torch.tensor([0, 1, 2])), d([1.0, 0.1, 0.23499999999999982]))
    assert close(torch.special.chebyshev_polynomial_t(x, -1), torch.zeros(3, dtype=torch.float64))
    assert torch.special.chebyshev_polynomial_t(torch.tensor([1]), torch.tensor([2])).dtype == torch.float32


def test_elementwise():
    x = d([-1.0, 0.0, 0.5, 2.0])
    assert close(torch.special.entr(x), d([float("-inf"), 0.0, 0.34657359027997264, -1.3862943611198906]))
    assert close(torch.special.xlog1py(d([0.0, 2.0, 3.0]), d([-1.0, 0.5, 1.0])), d([0.0, 0.8109302162163288, 2.0794415416798357]))
    assert close(torch.special.xlog1py(2.0, d([0.5])), d([0.8109302162163288]))
    assert close(torch.special.sinc(x), torch.sinc(x))


def test_aliases():
    x = d([-1.0, 0.0, 0.5, 2.0])
    assert close(torch.special.expit(x), torch.sigmoid(x))
    assert close(torch.special.erf(x), torch.erf(x))
    assert close(torch.special.erfc(x), torch.erfc(x))
    assert close(torch.special.erfinv(x / 4), torch.erfinv(x / 4))
    assert close(torch.special.exp2(x), torch.exp2(x))
    assert close(torch.special.expm1(x), torch.expm1(x))
    assert close(torch.special.log1p(x[1:]), torch.log1p(x[1:]))
    assert close(torch.special.round(x * 1.26, decimals=1), torch.round(x * 1.26, decimals=1))
    assert close(torch.special.logit(x / 4 + 0.5), torch.logit(x / 4 + 0.5))
    assert close(torch.special.softmax(x, 0), torch.softmax(x, 0))
    assert close(torch.special.log_softmax(x, 0), torch.log_softmax(x, 0))
    assert close(torch.special.logsumexp(x, [0]), torch.logsumexp(x, [0]))
    assert close(torch.special.xlogy(x, x + 2), torch.xlogy(x, x + 2))
    assert close(torch.special.xlogy(2.0, x + 2), torch.xlogy(2.0, x + 2))


def err_polygamma_negative():
    # raises: polygamma(n, x) does not support negative n.
    return torch.polygamma(-1, torch.tensor([2.5]))


def err_mvlgamma_p():
    # raises: p has to be greater than or equal to 1
    return torch.mvlgamma(torch.tensor([2.5]), 0)


def err_igamma_int():
    # raises: "igamma_cpu" not implemented for 'Long'
    return torch.igamma(torch.tensor([1]), torch.tensor([2]))


if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())

