# t/attention_cases.py — the fused fast paths of nn.MultiheadAttention and
# nn.TransformerEncoderLayer (attention.c): aten::_native_multi_head_attention (self and
# same-shape cross attention, key padding masks bool or float, weights averaged or per head,
# none when not asked for) and aten::_transformer_encoder_layer_fwd (relu or gelu, norm first
# or last, with a key padding mask). Each result is checked against the same attention
# written out with matmul, masked_fill and softmax, and the layer with F.layer_norm and
# F.linear. Each err_* function fails with PyTorch 1.13's message.
# t/attention_cases.sh runs them under tscript; under PyTorch:
#     /usr/bin/python3 t/attention_cases.py
import math
from typing import List, Optional, Tuple

import torch
import torch.nn.functional as F


def rnd(shape: List[int], seed: int) -> torch.Tensor:
    """Deterministic values in [-1, 1) of the given shape (no generator needed)."""
    n = 1
    for s in shape:
        n *= s
    v = torch.sin(torch.arange(n, dtype=torch.float64) * 12.9898 + seed * 78.233)
    return (v * 43758.5453).frac().mul(2).sub(1).view(shape).float()


def close(a: torch.Tensor, b: torch.Tensor) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and torch.allclose(a, b, 1e-4, 1e-5)


def weights(E: int) -> List[torch.Tensor]:
    return [rnd([3 * E, E], 2) * 0.5, rnd([3 * E], 3) * 0.5, rnd([E, E], 4) * 0.5,
            rnd([E], 5) * 0.5]


def reference(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, H: int, p: List[torch.Tensor],
              mask: Optional[torch.Tensor]) -> Tuple[torch.Tensor, torch.Tensor]:
    """Attention written out: projections, scaled scores, masked softmax, values, output."""
    B, L, E = q.shape
    d = E // H
    w, b = p[0], p[1]
    qq = (q @ w[:E].t() + b[:E]) / math.sqrt(d)
    kk = k @ w[E:2 * E].t() + b[E:2 * E]
    vv = v @ w[2 * E:].t() + b[2 * E:]
    qh = qq.view(B, L, H, d).transpose(1, 2)
    kh = kk.view(B, L, H, d).transpose(1, 2)
    vh = vv.view(B, L, H, d).transpose(1, 2)
    s = qh @ kh.transpose(2, 3)
    if mask is not None:
        s = s.masked_fill(mask.view(B, 1, 1, L), float("-inf"))
    a = torch.softmax(s, -1)
    o = (a @ vh).transpose(1, 2).reshape(B, L, E)
    return o @ p[2].t() + p[3], a


def test_self_attention():
    E, H = 8, 2
    x = rnd([2, 5, E], 1)
    p = weights(E)
    kpm = torch.tensor([[False, False, False, False, False], [False, False, True, True, True]])
    o, a = torch._native_multi_head_attention(x, x, x, E, H, p[0], p[1], p[2], p[3], None,
                                              True, True)
    ro, ra = reference(x, x, x, H, p, None)
    assert close(o, ro) and close(a, ra.mean(1))
    o, a = torch._native_multi_head_attention(x, x, x, E, H, p[0], p[1], p[2], p[3], kpm,
                                              True, False, 1)
    ro, ra = reference(x, x, x, H, p, kpm)
    assert close(o, ro) and close(a, ra)
    # a float mask counts nonzero entries as masked
    o2, a2 = torch._native_multi_head_attention(x, x, x, E, H, p[0], p[1], p[2], p[3],
                                                kpm.float(), True, False, 1)
    assert close(o2, ro)
    # without weights the output is the same
    o3, a3 = torch._native_multi_head_attention(x, x, x, E, H, p[0], p[1], p[2], p[3], kpm,
                                                False, True, 1)
    assert close(o3, ro)


def test_cross_attention_double_and_strided():
    E, H = 12, 4
    q = rnd([3, 4, E], 6)
    kv = rnd([3, 4, E], 7)
    p = weights(E)
    o, a = torch._native_multi_head_attention(q, kv, kv, E, H, p[0], p[1], p[2], p[3], None,
                                              True, True)
    ro, ra = reference(q, kv, kv, H, p, None)
    assert close(o, ro) and close(a, ra.mean(1))
    pd = [t.double() for t in p]
    od, ad = torch._native_multi_head_attention(q.double(), kv.double(), kv.double(), E, H,
                                                pd[0], pd[1], pd[2], pd[3], None, True, True)
    assert close(od, ro.double())
    qt = q.transpose(0, 1).contiguous().transpose(0, 1)
    ot, at = torch._native_multi_head_attention(qt, qt, qt, E, H, p[0], p[1], p[2], p[3], None,
                                                True, True)
    assert close(ot, reference(q, q, q, H, p, None)[0])


def test_masked_row_is_nan():
    E, H = 4, 2
    x = rnd([1, 3, E], 8)
    p = weights(E)
    full = torch.ones(1, 3, dtype=torch.bool)
    o, a = torch._native_multi_head_attention(x, x, x, E, H, p[0], p[1], p[2], p[3], full,
                                              True, True, 1)
    assert bool(torch.isnan(o).all()) and bool(torch.isnan(a).all())


def ffn(y: torch.Tensor, p: List[torch.Tensor], gelu: bool) -> torch.Tensor:
    h = F.linear(y, p[8], p[9])
    h = F.gelu(h) if gelu else F.relu(h)
    return F.linear(h, p[10], p[11])


def encoder_reference(x: torch.Tensor, H: int, p: List[torch.Tensor], gelu: bool,
                      norm_first: bool, mask: Optional[torch.Tensor]) -> torch.Tensor:
    E = x.size(2)
    if norm_first:
        y = F.layer_norm(x, [E], p[4], p[5])
        x = x + reference(y, y, y, H, p, mask)[0]
        x = x + ffn(F.layer_norm(x, [E], p[6], p[7]), p, gelu)
    else:
        x = F.layer_norm(x + reference(x, x, x, H, p, mask)[0], [E], p[4], p[5])
        x = F.layer_norm(x + ffn(x, p, gelu), [E], p[6], p[7])
    return x


def test_encoder_layer():
    E, H, FF = 8, 2, 16
    x = rnd([2, 5, E], 1)
    p = weights(E) + [rnd([E], 10) + 1, rnd([E], 11), rnd([E], 12) + 1, rnd([E], 13),
                      rnd([FF, E], 6) * 0.5, rnd([FF], 7) * 0.5, rnd([E, FF], 8) * 0.5,
                      rnd([E], 9) * 0.5]
    kpm = torch.tensor([[False, False, False, False, False], [False, False, True, True, True]])
    for gelu in [False, True]:
        for norm_first in [False, True]:
            y = torch._transformer_encoder_layer_fwd(x, E, H, p[0], p[1], p[2], p[3], gelu,
                                                     norm_first, 1e-5, p[4], p[5], p[6], p[7],
                                                     p[8], p[9], p[10], p[11], kpm, 1)
            assert close(y, encoder_reference(x, H, p, gelu, norm_first, kpm))
            z = torch._transformer_encoder_layer_fwd(x, E, H, p[0], p[1], p[2], p[3], gelu,
                                                     norm_first, 1e-5, p[4], p[5], p[6], p[7],
                                                     p[8], p[9], p[10], p[11])
            assert close(z, encoder_reference(x, H, p, gelu, norm_first, None))


def mha_args() -> Tuple[torch.Tensor, List[torch.Tensor]]:
    return rnd([2, 5, 8], 1), weights(8)


def err_two_dim_query():
    # raises: expected 3-D `query`, got 2-D tensor
    x, p = mha_args()
    return torch._native_multi_head_attention(x[0], x[0], x[0], 8, 2, p[0], p[1], p[2], p[3])


def err_heads_do_not_divide():
    # raises: `embed_dim` must divide evenly by `num_heads`
    x, p = mha_args()
    return torch._native_multi_head_attention(x, x, x, 8, 3, p[0], p[1], p[2], p[3])


def err_embed_dim():
    # raises: passed-in embed_dim 6 didn't match last dim of query 8
    x, p = mha_args()
    return torch._native_multi_head_attention(x, x, x, 6, 2, p[0], p[1], p[2], p[3])


def err_shapes_differ():
    # raises: expected `query`/`key`/`value` shapes to match
    x, p = mha_args()
    return torch._native_multi_head_attention(x, x[:, :4], x, 8, 2, p[0], p[1], p[2], p[3])


def err_dtype():
    # raises: expected scalar type Double but found Float
    x, p = mha_args()
    d = x.double()
    return torch._native_multi_head_attention(d, d, d, 8, 2, p[0], p[1], p[2], p[3])


def err_mask_length():
    # raises: Expected attn_mask->sizes()[1] == seq_len to be true, but got false.
    x, p = mha_args()
    return torch._native_multi_head_attention(x, x, x, 8, 2, p[0], p[1], p[2], p[3],
                                              torch.zeros(2, 3, dtype=torch.bool), True, True, 1)


def err_mask_type_missing():
    # raises: Mask Type should be defined
    x, p = mha_args()
    return torch._native_multi_head_attention(x, x, x, 8, 2, p[0], p[1], p[2], p[3],
                                              torch.zeros(2, 5, dtype=torch.bool), True, True)


if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
