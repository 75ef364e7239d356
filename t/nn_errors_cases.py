# t/nn_errors_cases.py — torch.nn.functional and tensor programs that must fail as PyTorch 1.13
# fails them, found by a sweep of error probes run through both (each message checked against
# scripted PyTorch's): the order broadcasting names its tensors in, pooling windows wider than
# their input, the loss functions' own checks, embedding's padding_idx range and max_norm. t/nn_errors_cases.sh runs them through
# t/cases.sh; they pass under PyTorch too:
#     /usr/bin/python3 t/nn_errors_cases.py
# Each err_* function fails with the message of its `# raises:` line; the test_* functions
# are the programs next to them that PyTorch accepts.
import torch
import torch.nn.functional as F


# ---- broadcasting's wording -----------------------------------------------------------------

def err_masked_fill_names_the_mask_first():
    # raises: The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 1
    print(torch.ones(2, 3).masked_fill(torch.ones(3, 2) > 0, 1.0))


def err_infer_size_names_its_second_shape_first():
    # raises: The size of tensor a (4) must match the size of tensor b (3) at non-singleton dimension 1
    print(torch._C._infer_size([2, 3], [4]))


def err_infer_size_at_the_leading_dimension():
    # raises: The size of tensor a (5) must match the size of tensor b (2) at non-singleton dimension 0
    print(torch._C._infer_size([2, 1], [5, 3]))


def test_infer_size_broadcasts():
    assert torch._C._infer_size([2, 1], [3]) == [2, 3]
    assert torch._C._infer_size([4], [3, 1, 4]) == [3, 1, 4]
    x = torch.ones(2, 1).masked_fill(torch.tensor([True, False, True]), 5.0)
    assert torch.equal(x, torch.tensor([[5.0, 1.0, 5.0], [5.0, 1.0, 5.0]]))


# ---- pooling -------------------------------------------------------------------------------

def err_max_pool2d_window_wider_than_the_input():
    # raises: Given input size: (1x2x2). Calculated output size: (1x0x0). Output size is too small
    print(torch.max_pool2d(torch.ones(1, 1, 2, 2), 3))


def err_max_pool2d_unbatched_window_too_wide():
    # raises: Given input size: (2x3x5). Calculated output size: (2x0x1). Output size is too small
    print(F.max_pool2d(torch.ones(2, 3, 5), [4, 4]))


def test_max_pool2d_window_as_wide_as_the_input():
    y = F.max_pool2d(torch.arange(4.0).reshape(1, 1, 2, 2), 2)
    assert y.shape == (1, 1, 1, 1) and y.item() == 3.0
    z = F.max_pool2d(torch.arange(4.0).reshape(1, 1, 2, 2), 3, padding=1)
    assert z.shape == (1, 1, 1, 1) and z.item() == 3.0


# ---- losses ----------------------------------------------------------------------------------

def err_binary_cross_entropy_target_size():
    # raises: Using a target size ([3]) that is different to the input size ([2]) is deprecated. Please ensure they have the same size.
    print(F.binary_cross_entropy(torch.ones(2) * 0.5, torch.ones(3)))


def err_binary_cross_entropy_weight_size():
    # raises: The size of tensor a (4) must match the size of tensor b (3) at non-singleton dimension 1
    print(F.binary_cross_entropy(torch.ones(2, 3) * 0.5, torch.ones(2, 3), weight=torch.ones(4)))


def err_binary_cross_entropy_with_logits_target_size():
    # raises: Target size ([3]) must be the same as input size ([2])
    print(F.binary_cross_entropy_with_logits(torch.ones(2), torch.ones(3)))


def test_binary_cross_entropy_weight_broadcasts():
    w = torch.tensor([1.0, 2.0, 3.0])
    x = torch.tensor([[0.25, 0.5, 0.75], [0.5, 0.5, 0.5]])
    t = torch.tensor([[1.0, 0.0, 1.0], [0.0, 1.0, 0.0]])
    got = F.binary_cross_entropy(x, t, weight=w, reduction='sum')
    want = -(w * (t * x.log() + (1 - t) * (1 - x).log())).sum()
    assert torch.allclose(got, want)


def err_nll_loss_two_dimensional_target():
    # raises: 0D or 1D target tensor expected, multi-target not supported
    print(F.nll_loss(torch.ones(2, 3), torch.zeros(2, 3, dtype=torch.long)))


def err_cross_entropy_probabilities_of_another_shape():
    # raises: 0D or 1D target tensor expected, multi-target not supported
    print(F.cross_entropy(torch.ones(2, 3), torch.ones(2, 4)))


def err_nll_loss2d_target_rank():
    # raises: only batches of spatial targets supported (3D tensors) but got targets of dimension: 2
    print(F.nll_loss(torch.ones(2, 3, 4, 5), torch.zeros(2, 4, dtype=torch.long)))


def err_nll_loss2d_target_size():
    # raises: size mismatch (got input: [2, 3, 4, 5] , target: [2, 4, 6]
    print(F.nll_loss(torch.ones(2, 3, 4, 5), torch.zeros(2, 4, 6, dtype=torch.long)))


def err_nll_loss_3d_target_size():
    # raises: Expected target size [2, 4], got [2, 5]
    print(F.nll_loss(torch.ones(2, 3, 4), torch.zeros(2, 5, dtype=torch.long)))


def test_nll_loss2d():
    x = torch.arange(24.0).reshape(1, 3, 2, 4).log_softmax(1)
    t = torch.tensor([[[0, 1, 2, 0], [2, 2, 1, 0]]])
    got = F.nll_loss(x, t, reduction='sum')
    want = -(x.gather(1, t.unsqueeze(1))).sum()
    assert torch.allclose(got, want)


# ---- dropout's probability ---------------------------------------------------------------------

def err_dropout_p_above_one():
    # raises: dropout probability has to be between 0 and 1, but got 1.5
    print(F.dropout(torch.ones(2), p=1.5))


def err_dropout2d_p_below_zero():
    # raises: dropout probability has to be between 0 and 1, but got -0.10000000000000001
    print(F.dropout2d(torch.ones(1, 2, 3), p=-0.1))


def err_alpha_dropout_p_checked_out_of_training():
    # raises: dropout probability has to be between 0 and 1, but got 2.
    print(F.alpha_dropout(torch.ones(2), p=2.0, training=False))


def err_dropout3d_p():
    # raises: dropout probability has to be between 0 and 1, but got -1.
    print(F.dropout3d(torch.ones(1, 1, 2, 2, 2), p=-1.0))


def test_dropout_p_at_the_ends():
    x = torch.ones(3, 4)
    assert torch.equal(F.dropout(x, p=0.0), x)
    assert torch.equal(F.dropout(x, p=1.0), torch.zeros(3, 4))
    assert torch.equal(F.feature_alpha_dropout(x, p=1.0, training=False), x)



def test_embedding_max_norm_reads_the_table_as_it_is():
    # PyTorch's scripting drops the renorm (its op declares no write), so the rows and the
    # table stay as they are
    w = torch.tensor([[1.0, 2.0], [3.0, 4.0], [0.1, 0.1]])
    e = F.embedding(torch.tensor([[0, 1], [1, 2]]).t(), w, max_norm=1.0)
    assert torch.equal(e[0, 1], torch.tensor([3.0, 4.0])) and w[1, 1].item() == 4.0
    b = F.embedding_bag(torch.tensor([0, 1, 2]), w, torch.tensor([0, 2]), max_norm=1.0)
    assert torch.equal(b[0], torch.tensor([2.0, 3.0]))
    assert torch.equal(F.embedding(torch.tensor([0, 2]), torch.ones(3, 2), padding_idx=-1), torch.ones(2, 2))


def err_embedding_padding_idx_too_big():
    # raises: Padding_idx must be within num_embeddings
    print(F.embedding(torch.tensor([0]), torch.ones(3, 2), padding_idx=3))


def err_embedding_padding_idx_too_negative():
    # raises: Padding_idx must be within num_embeddings
    print(F.embedding(torch.tensor([0]), torch.ones(3, 2), padding_idx=-4))


def test_normalize_into_out():
    x = torch.tensor([[3.0, 4.0], [1.0, 0.0]])
    o = torch.zeros(5)
    r = F.normalize(x, out=o)
    assert r is o and torch.allclose(o, torch.tensor([[0.6, 0.8], [1.0, 0.0]]))


def err_normalize_into_integers():
    # raises: result type Float can't be cast to the desired output type Long
    o = torch.zeros(2, 2, dtype=torch.int64)
    print(F.normalize(torch.tensor([[3.0, 4.0], [1.0, 0.0]]), out=o))


def err_triplet_margin_with_distance_loss_is_not_scriptable():
    # raises: Compiled functions can't take variable number of arguments or use keyword-only arguments with defaults
    a = torch.ones(2, 2)
    print(F.triplet_margin_with_distance_loss(a, a, a))


def err_fused_chain_broadcast_names_the_ops_operands():
    # raises: The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0
    # (an elementwise chain the CPU fuser runs as one group still fails with the message of
    # its first operator whose operands do not broadcast, in that operator's order)
    a = torch.ones(3, 4)
    b = torch.ones(2, 4)
    print((a[:, 1:] + a[:, :-1]) * (b[:, 1:] - b[:, :-1]))


def err_trapezoid_spacings_do_not_broadcast():
    # raises: The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0
    print(torch.trapezoid(torch.ones(3, 4), torch.ones(2, 4)))

if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
