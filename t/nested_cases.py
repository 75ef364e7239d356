# t/nested_cases.py — the nested tensors nn.TransformerEncoder's fast path makes of a padded
# batch (nested.c, attention.c): _nested_tensor_from_mask_left_aligned,
# _nested_tensor_from_mask, the encoder layer on a nested batch, to_padded_tensor, is_nested.
# Each sequence of a nested batch must come out as that sequence run alone through the dense
# layer; padding comes back as the value asked for. Each err_* function fails with PyTorch
# 1.13's message. t/nested_cases.sh runs them under tscript; under PyTorch:
#     /usr/bin/python3 t/nested_cases.py
from typing import List

import torch


def w(shape: List[int], seed: int) -> torch.Tensor:
    n = 1
    for s in shape:
        n *= s
    return torch.sin(torch.arange(float(n)) * 0.37 + seed).view(shape) * 0.5


def weights(E: int) -> List[torch.Tensor]:
    return [w([3 * E, E], 1), w([3 * E], 2), w([E, E], 3), w([E], 4), w([E], 5) + 1, w([E], 6),
            w([E], 7) + 1, w([E], 8), w([16, E], 9), w([16], 10), w([E, 16], 11), w([E], 12)]


def layer(x: torch.Tensor, p: List[torch.Tensor], norm_first: bool) -> torch.Tensor:
    return torch._transformer_encoder_layer_fwd(x, 8, 2, p[0], p[1], p[2], p[3], True,
                                                norm_first, 1e-5, p[4], p[5], p[6], p[7], p[8],
                                                p[9], p[10], p[11])


def test_encoder_layer_on_nested():
    x = torch.sin(torch.arange(3.0 * 5 * 8)).view(3, 5, 8)
    m = torch.tensor([[True, True, True, False, False], [True, True, True, True, False],
                      [True, False, False, False, False]])
    lengths = [3, 4, 1]
    assert torch._nested_tensor_from_mask_left_aligned(x, m)
    n = torch._nested_tensor_from_mask(x, m)
    assert n.is_nested and not x.is_nested
    p = weights(8)
    for norm_first in [False, True]:
        y = layer(layer(n, p, norm_first), p, norm_first)
        assert y.is_nested
        out = y.to_padded_tensor(0.0)
        assert out.shape == (3, 4, 8)
        for b in range(3):
            alone = layer(layer(x[b:b + 1, :lengths[b]], p, norm_first), p, norm_first)
            assert torch.allclose(out[b, :lengths[b]], alone[0], 1e-4, 1e-5)
            assert bool((out[b, lengths[b]:] == 0).all())
        big = y.to_padded_tensor(-2.5, [3, 6, 9])
        assert big.shape == (3, 6, 9) and bool((big[:, :, 8] == -2.5).all())
        assert torch.equal(big[:, :4, :8], torch.where(out == 0, torch.full_like(out, -2.5), out))


def test_masks():
    x = torch.ones(2, 4, 3)
    gap = torch.tensor([[True, True, True, True], [True, False, True, False]])
    assert not torch._nested_tensor_from_mask_left_aligned(x, gap)
    # without the check each sequence takes as many leading rows as it has True entries
    n = torch._nested_tensor_from_mask(x, gap, False)
    assert torch.equal(n.to_padded_tensor(7.0)[1, :, 0], torch.tensor([1.0, 1.0, 7.0, 7.0]))
    e = torch._nested_tensor_from_mask(x, torch.zeros(2, 4, dtype=torch.bool))
    assert e.to_padded_tensor(0.0).shape == (2, 0, 3)


def err_not_left_aligned():
    # raises: Mask must be left-aligned without gaps
    return torch._nested_tensor_from_mask(torch.ones(2, 4, 3),
                                          torch.tensor([[True, False, True, False],
                                                        [True, True, True, True]]))


def err_float_mask():
    # raises: Expected mask to be of ScalarType Bool, but got Float instead.
    return torch._nested_tensor_from_mask(torch.ones(2, 4, 3), torch.ones(2, 4))


def err_not_3d():
    # raises: Input should be a 3D tensor, N * L * D
    return torch._nested_tensor_from_mask(torch.ones(4, 3), torch.ones(2, 4).to(torch.bool))


def err_mask_size():
    # raises: Mask size should match input size
    return torch._nested_tensor_from_mask(torch.ones(2, 4, 3), torch.ones(2, 3).to(torch.bool))


def err_truncation():
    # raises: Value in output_size is less than NestedTensor padded size. Truncation is not supported.
    n = torch._nested_tensor_from_mask(torch.ones(2, 4, 3), torch.ones(2, 4).to(torch.bool))
    return n.to_padded_tensor(0.0, [2, 3, 3])


if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
