# t/antialias_cases.py — antialiased resizing (resample.c): _upsample_bilinear2d_aa and
# _upsample_bicubic2d_aa, plain and .vec, as F.interpolate(..., antialias=True) calls them.
# Values are checked by hand on small inputs (the triangle filter halving [1, 2, 3, 4]), and by properties the
# filters have: a constant image stays constant, an unchanged size is a copy, the two dims are
# independent. Each err_* function fails with PyTorch 1.13's message.
# t/antialias_cases.sh runs them under tscript; under PyTorch:
#     /usr/bin/python3 t/antialias_cases.py
import torch


def close(a: torch.Tensor, b: torch.Tensor) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and torch.allclose(a, b, 1e-5, 1e-6)


def test_halving_by_hand():
    x = torch.tensor([[[[1.0, 2.0, 3.0, 4.0]]]])
    # output 0 is centred at 1 with support 2: taps 0, 1, 2 weighted 0.75, 0.75, 0.25
    want = torch.tensor([[[[3.0 / 1.75, 5.75 / 1.75]]]])
    assert close(torch.ops.aten._upsample_bilinear2d_aa(x, [1, 2], False), want)
    assert close(torch.ops.aten._upsample_bilinear2d_aa(x, None, False, [1.0, 0.5]), want)
    assert close(torch.ops.aten._upsample_bilinear2d_aa(x.double(), [1, 2], False),
                 want.double())


def test_filter_properties():
    c = torch.full([2, 3, 9, 11], 2.5)
    for cubic in [False, True]:
        for size in [[4, 5], [20, 3], [9, 30]]:
            if cubic:
                r = torch.ops.aten._upsample_bicubic2d_aa(c, size, False)
            else:
                r = torch.ops.aten._upsample_bilinear2d_aa(c, size, True)
            assert close(r, torch.full([2, 3, size[0], size[1]], 2.5))
    x = torch.sin(torch.arange(2.0 * 3 * 9 * 11)).view(2, 3, 9, 11)
    assert close(torch.ops.aten._upsample_bicubic2d_aa(x, [9, 11], False), x)
    # only the width changes: resizing the transpose's height is the same
    w = torch.ops.aten._upsample_bicubic2d_aa(x, [9, 4], False)
    h = torch.ops.aten._upsample_bicubic2d_aa(x.transpose(2, 3), [4, 9], False)
    assert close(w, h.transpose(2, 3).contiguous())
    # the two dims are done one after the other
    both = torch.ops.aten._upsample_bilinear2d_aa(x, [4, 5], False)
    rows = torch.ops.aten._upsample_bilinear2d_aa(x, [9, 5], False)
    assert close(both, torch.ops.aten._upsample_bilinear2d_aa(rows, [4, 5], False))


def err_aa_integer():
    # raises: "compute_indices_weights_aa" not implemented for 'Long'
    return torch.ops.aten._upsample_bilinear2d_aa(torch.ones(1, 1, 4, 4).long(), [2, 2], False)


def err_aa_both_sizes():
    # raises: Must specify exactly one of output_size and scale_factors
    return torch.ops.aten._upsample_bicubic2d_aa(torch.ones(1, 1, 4, 4), [2, 2], False,
                                                 [0.5, 0.5])


def err_aa_zero_size():
    # raises: Input and output sizes should be greater than 0, but got input (H: 4, W: 4) output (H: 0, W: 2)
    return torch.ops.aten._upsample_bilinear2d_aa(torch.ones(1, 1, 4, 4), [0, 2], False)


if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
