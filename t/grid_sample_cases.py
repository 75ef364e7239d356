# t/grid_sample_cases.py — sampling at grid points (grid_sample.c): aten::grid_sampler,
# grid_sampler_2d/3d in bilinear, nearest and bicubic modes with zeros, border and reflection
# padding, align_corners both ways, and aten::affine_grid_generator. Checked against what the
# samplers must give: the identity grid reproduces the image, a shift of whole pixels moves it
# (zeros or the edge's value coming in), midpoints average their neighbours, points past an
# edge mirror back under reflection, and affine grids are the base grid times theta. Each
# err_* function fails with PyTorch 1.13's message.
# t/grid_sample_cases.sh runs them under tscript; under PyTorch:
#     /usr/bin/python3 t/grid_sample_cases.py
import torch


def close(a: torch.Tensor, b: torch.Tensor) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and torch.allclose(a, b, 1e-5, 1e-5)


def image() -> torch.Tensor:
    return torch.sin(torch.arange(2.0 * 3 * 5 * 6)).view(2, 3, 5, 6)


def identity(n: int, h: int, w: int, align: bool) -> torch.Tensor:
    theta = torch.tensor([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]).expand(n, 2, 3)
    return torch.affine_grid_generator(theta, [n, 1, h, w], align)


def test_identity():
    x = image()
    for align in [False, True]:
        g = identity(2, 5, 6, align)
        for mode in [0, 1, 2]:
            for pad in [0, 1, 2]:
                assert close(torch.grid_sampler(x, g, mode, pad, align), x)
    d = x.double()
    assert close(torch.grid_sampler_2d(d, identity(2, 5, 6, False).double(), 0, 0, False), d)
    v = torch.sin(torch.arange(2.0 * 2 * 3 * 4 * 5)).view(2, 2, 3, 4, 5)
    theta = torch.tensor([[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0],
                          [0.0, 0.0, 1.0, 0.0]]).expand(2, 3, 4)
    g3 = torch.affine_grid_generator(theta, [2, 1, 3, 4, 5], False)
    assert g3.shape == (2, 3, 4, 5, 3)
    for mode in [0, 1]:
        assert close(torch.grid_sampler(v, g3, mode, 0, False), v)
        assert close(torch.grid_sampler_3d(v, g3, mode, 2, False), v)


def test_shifts_and_midpoints():
    x = image()
    g = identity(2, 5, 6, True)
    step = 2.0 / 5.0                      # one pixel along x with align_corners (w = 6)
    shifted = g + torch.tensor([step, 0.0])
    zeros = torch.grid_sampler(x, shifted, 0, 0, True)
    assert close(zeros[..., :5], x[..., 1:])
    assert bool((zeros[..., 5].abs() < 1e-6).all())
    border = torch.grid_sampler(x, shifted, 0, 1, True)
    assert close(border[..., 5], x[..., 5])
    # half a pixel: the average of neighbours
    half = torch.grid_sampler(x, g + torch.tensor([step / 2, 0.0]), 0, 1, True)
    assert close(half[..., :5], (x[..., :5] + x[..., 1:]) / 2)
    # reflection mirrors a point one pixel past the last column onto the one before it
    past = torch.grid_sampler(x, g + torch.tensor([step, 0.0]), 1, 2, True)
    assert close(past[..., 5], x[..., 4])
    # nearest at points just off the centres picks the centres
    near = torch.grid_sampler(x, g + torch.tensor([step * 0.3, -0.01]), 1, 0, True)
    assert close(near, x)


def test_affine_grid():
    theta = torch.tensor([[[2.0, 0.5, 0.25], [-1.0, 1.5, 0.0]]])
    for align in [False, True]:
        g = torch.affine_grid_generator(theta, [1, 3, 4, 5], align)
        xs = torch.linspace(-1.0, 1.0, 5)
        ys = torch.linspace(-1.0, 1.0, 4)
        if not align:
            xs = xs * 4.0 / 5.0
            ys = ys * 3.0 / 4.0
        base = torch.stack([xs.expand(4, 5), ys.unsqueeze(1).expand(4, 5), torch.ones(4, 5)], 2)
        assert close(g[0], base @ theta[0].t())
    one = torch.affine_grid_generator(theta, [1, 3, 1, 1], False)
    assert close(one[0, 0, 0], theta[0, :, 2])


def err_batch():
    # raises: grid_sampler(): expected grid and input to have same batch size, but got input with sizes [1, 3, 5, 6] and grid with sizes [2, 4, 7, 2]
    return torch.grid_sampler(torch.ones(1, 3, 5, 6), torch.zeros(2, 4, 7, 2), 0, 0, False)


def err_last_dim():
    # raises: grid_sampler(): expected grid to have size 2 in last dimension, but got grid with sizes [2, 4, 7, 1]
    return torch.grid_sampler(torch.ones(2, 3, 5, 6), torch.zeros(2, 4, 7, 1), 0, 0, False)


def err_empty_spatial():
    # raises: grid_sampler(): expected input to have non-empty spatial dimensions, but input has sizes [2, 3, 0, 6] with dimension 2 being empty
    return torch.grid_sampler(torch.ones(2, 3, 0, 6), torch.zeros(2, 4, 7, 2), 0, 0, False)


def err_bicubic_3d():
    # raises: grid_sampler(): bicubic interpolation only supports 4D input
    return torch.grid_sampler_3d(torch.ones(1, 2, 3, 4, 5), torch.zeros(1, 2, 2, 2, 3), 2, 0,
                                 False)


def err_dtype():
    # raises: expected scalar type Float but found Double
    return torch.grid_sampler(torch.ones(2, 3, 5, 6), torch.zeros(2, 4, 7, 2).double(), 0, 0,
                              False)


def err_half():
    # raises: grid_sampler_2d_cpu not implemented for Half
    return torch.grid_sampler(torch.ones(2, 3, 5, 6).half(), torch.zeros(2, 4, 7, 2).half(), 0,
                              0, False)


def err_affine_rank():
    # raises: AffineGridGenerator needs 4d (spatial) or 5d (volumetric) inputs.
    return torch.affine_grid_generator(torch.zeros(2, 2, 3), [2, 3, 4], False)


def err_affine_theta():
    # raises: shape '[2, 4, 5, 2]' is invalid for input of size 120
    return torch.affine_grid_generator(torch.zeros(2, 3, 3), [2, 3, 4, 5], False)


if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
