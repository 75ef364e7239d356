# t/embedding_bag_cases.py — torch.nn.EmbeddingBag's op (embedding_bag.c): aten::embedding_bag
# and its padding_idx overload, _embedding_bag and _embedding_bag_forward_only, in sum, mean
# and max mode, with per_sample_weights, include_last_offset, padding_idx, empty bags and
# half/double weights. Each output is checked against the bag reduced with plain indexing,
# and the auxiliary outputs (offset2bag, bag_size, max_indices) against the values PyTorch
# 1.13's CPU forward gives. Each err_* function fails with PyTorch's message.
# t/embedding_bag_cases.sh runs them under tscript; under PyTorch:
#     /usr/bin/python3 t/embedding_bag_cases.py
from typing import List, Tuple

import torch
import torch.nn.functional as F


def weight() -> torch.Tensor:
    return torch.sin(torch.arange(40.)).view(10, 4)


def close(a: torch.Tensor, b: torch.Tensor) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and torch.allclose(a, b, 1e-5, 1e-6)


def reference(w: torch.Tensor, idx: torch.Tensor, offsets: List[int], mode: int, pad: int,
              psw: List[float]) -> torch.Tensor:
    """Each bag reduced by indexing the weight rows it names."""
    rows: List[torch.Tensor] = []
    for b in range(len(offsets)):
        lo = offsets[b]
        hi = offsets[b + 1] if b + 1 < len(offsets) else idx.size(0)
        picked: List[torch.Tensor] = []
        for k in range(lo, hi):
            if int(idx[k]) != pad:
                scale = psw[k] if len(psw) > 0 else 1.0
                picked.append(w[int(idx[k])] * scale)
        if len(picked) == 0:
            rows.append(torch.zeros(w.size(1), dtype=w.dtype))
        elif mode == 0:
            rows.append(torch.stack(picked).sum(0))
        elif mode == 1:
            rows.append(torch.stack(picked).mean(0))
        else:
            rows.append(torch.stack(picked).max(0)[0])
    return torch.stack(rows)


def test_modes():
    w = weight()
    i = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9])
    o = torch.tensor([0, 4, 4])
    for mode in [0, 1, 2]:
        r = torch.embedding_bag(w, i, o, False, mode, False, None, False)
        assert close(r[0], reference(w, i, [0, 4, 4], mode, -1, []))
        r2 = torch.ops.aten.embedding_bag(w, i, o, False, mode, False, None, False, 2)
        assert close(r2[0], reference(w, i, [0, 4, 4], mode, 2, []))
        # a negative padding_idx counts from the end
        r3 = torch.ops.aten.embedding_bag(w, i, o, False, mode, False, None, False, -1)
        assert close(r3[0], reference(w, i, [0, 4, 4], mode, 9, []))
        # _embedding_bag takes its int as it is: -1 is no padding
        r4 = torch._embedding_bag(w, i, o, False, mode, False, None, False, -1)
        assert close(r4[0], r[0])
        r5 = torch._embedding_bag_forward_only(w.double(), i.int(), o.int(), False, mode, False,
                                               None, False, 4)
        assert close(r5[0], reference(w.double(), i, [0, 4, 4], mode, 4, []))
        # weights read in place through their strides
        wt = w.t().contiguous().t()
        assert close(torch.embedding_bag(wt, i, o, False, mode, False, None, False)[0], r[0])
        # include_last_offset: the last offset only closes the last bag
        r6 = torch.embedding_bag(w, i, torch.tensor([0, 4, 4, 8]), False, mode, False, None,
                                 True)
        assert close(r6[0], reference(w, i, [0, 4, 4], mode, -1, []))
        hv = torch.embedding_bag(w.half(), i, o, False, mode, False, None, False)[0]
        assert hv.dtype == torch.float16 and torch.allclose(hv.float(), r[0], 1e-2, 1e-2)


def test_per_sample_weights():
    w = weight()
    i = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9])
    o = torch.tensor([0, 3, 3, 6])
    psw = torch.arange(8.) / 10
    scales: List[float] = psw.tolist()
    r = torch.embedding_bag(w, i, o, False, 0, False, psw, False)
    want = reference(w, i, [0, 3, 3, 6], 0, -1, scales)
    assert close(r[0], want)
    r2 = torch.ops.aten.embedding_bag(w, i, o, False, 0, False, psw, False, 4)
    assert close(r2[0], reference(w, i, [0, 3, 3, 6], 0, 4, scales))


def test_auxiliary_outputs():
    w = weight()
    i = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9])
    o = torch.tensor([0, 4, 4])
    bags = torch.tensor([0, 0, 0, 0, 2, 2, 2, 2])
    s = torch.embedding_bag(w, i, o, False, 0, False, None, False)
    assert s[1].numel() == 0 and torch.equal(s[2], torch.zeros(3, dtype=torch.long))
    m = torch.embedding_bag(w, i, o, False, 1, False, None, False)
    assert torch.equal(m[1], bags) and torch.equal(m[2], torch.tensor([4, 0, 4]))
    assert torch.equal(m[3], torch.tensor([4, 0, 4]))
    x = torch.ops.aten.embedding_bag(w, i, o, False, 2, False, None, False, 4)
    assert torch.equal(x[2], torch.tensor([3, 0, 3]))
    want = torch.stack([w[[1, 2, 5]].argmax(0), torch.zeros(4, dtype=torch.long),
                        w[[3, 2, 9]].argmax(0)])
    rows = torch.tensor([[1, 2, 5], [0, 0, 0], [3, 2, 9]])
    assert torch.equal(x[3], rows.gather(1, want))
    # int32 indices and offsets give int32 auxiliaries; a padding or double weights fill
    # offset2bag in sum mode too
    n = torch.embedding_bag(w.double(), i.int(), o.int(), False, 0, False, None, False)
    assert n[1].dtype == torch.int32 and torch.equal(n[1].long(), bags)
    e = torch.embedding_bag(w, i[:0], torch.tensor([0, 0]), False, 2, False, None, False)
    assert torch.equal(e[0], torch.zeros(2, 4)) and e[3].shape == (2, 4)
    z = torch.embedding_bag(w, i, o[:0], False, 0, False, None, False)
    assert z[0].shape == (0, 4)


def args() -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    return weight(), torch.tensor([1, 2, 4, 5, 4, 3, 2, 9]), torch.tensor([0, 4, 4])


def err_weights_with_mean():
    # raises: embedding_bag: per_sample_weights only supported with mode='sum'
    w, i, o = args()
    return torch.embedding_bag(w, i, o, False, 1, False, torch.ones(8), False)


def err_weights_count():
    # raises: Expected per_sample_weights.value().numel() == indices.numel() to be true, but got false.
    w, i, o = args()
    return torch.embedding_bag(w, i, o, False, 0, False, torch.ones(3), False)


def err_weights_dtype():
    # raises: Expected tensor for argument #1 'weight' to have the same type as tensor for argument #1 'per_sample_weights'; but type torch.FloatTensor does not equal torch.DoubleTensor (while checking arguments for embedding_bag)
    w, i, o = args()
    return torch.embedding_bag(w, i, o, False, 0, False, torch.ones(8).double(), False)


def err_long_weight():
    # raises: Expected tensor for argument #1 'weight' to have one of the following scalar types: Half, Float, Double; but got torch.LongTensor instead (while checking arguments for embedding_bag)
    w, i, o = args()
    return torch.embedding_bag(w.long(), i, o, False, 0, False, None, False)


def err_float_indices():
    # raises: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.FloatTensor instead (while checking arguments for embedding_bag)
    w, i, o = args()
    return torch.embedding_bag(w, i.float(), o, False, 0, False, None, False)


def err_first_offset():
    # raises: offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from position 0. However, got 4
    w, i, o = args()
    return torch.embedding_bag(w, i, o[1:], False, 0, False, None, False)


def err_last_offset():
    # raises: offsets[-1] can not be greater than input's length 8 but got offsets[-1] of 9
    w, i, o = args()
    return torch.embedding_bag(w, i, torch.tensor([0, 9]), False, 0, False, None, False)


def err_index_out_of_range():
    # raises: embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx to be 10
    w, i, o = args()
    return torch.embedding_bag(w.double(), torch.tensor([1, 10]), torch.tensor([0]), False, 1,
                               False, None, False)


def err_padding_idx_range():
    # raises: padding_idx must be within the number of embeddings, -10 through 9, but got 20
    w, i, o = args()
    return torch.ops.aten.embedding_bag(w, i, o, False, 0, False, None, False, 20)


def err_one_dim_weight():
    # raises: Dimension out of range (expected to be in range of [-1, 0], but got 1)
    w, i, o = args()
    return torch.embedding_bag(w[0], i, o, False, 1, False, None, False)



def test_functional_embedding_bag():
    # F.embedding_bag as PyTorch writes it: a 2-d input is a batch of equal bags, modes by name
    w = torch.arange(12.).reshape(4, 3)
    assert torch.equal(F.embedding_bag(torch.tensor([0, 2, 1, 3]), w, torch.tensor([0, 2])),
                       torch.tensor([[3., 4., 5.], [6., 7., 8.]]))
    assert torch.equal(F.embedding_bag(torch.tensor([[0, 2], [1, 3]]), w, mode="max"),
                       torch.tensor([[6., 7., 8.], [9., 10., 11.]]))
    s = F.embedding_bag(torch.tensor([0, 2, 1, 3]), w, torch.tensor([0, 1]), mode="sum",
                        per_sample_weights=torch.tensor([1., 2., 3., 4.]))
    assert torch.equal(s, torch.tensor([[0., 1., 2.], [57., 66., 75.]]))


def err_functional_embedding_bag_without_offsets():
    # raises: offsets has to be a 1D Tensor but got None
    return F.embedding_bag(torch.tensor([0, 2]), torch.ones(4, 3))


def err_functional_embedding_bag_mode():
    # raises: mode has to be one of sum, mean or max
    return F.embedding_bag(torch.tensor([0, 2]), torch.ones(4, 3), torch.tensor([0]), mode="min")


def err_functional_embedding_bag_weights_need_sum():
    # raises: per_sample_weights is only supported for mode='sum' (got mode='mean')
    return F.embedding_bag(torch.tensor([0, 2]), torch.ones(4, 3), torch.tensor([0]),
                           per_sample_weights=torch.ones(2))

if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
