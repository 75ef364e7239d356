# nn_modules_sweep.py — torch.nn modules as users save them: each configuration built with
# seeded weights, scripted with torch.jit.script, saved with torch.jit.save in the training
# state it names (eval unless the case says train), run by PyTorch after torch.jit.load and
# by `tscript run M.pt @INPUT... --output OUT.pt`, and the results compared with
# t/models/check_models.py's comparison (rel 1e-4) plus the dtypes. A case in train mode
# returns the buffers it updates, so that running statistics are compared too. Prints TAP.
#
#     /usr/bin/python3 t/nn_modules_sweep.py TSCRIPT [NAME...]
import os
import subprocess
import sys
import tempfile
import warnings
from typing import Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import Tensor

warnings.simplefilter("ignore")
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "models"))
sys.path.insert(0, HERE)
from check_models import compare, run_both  # noqa: E402
from outcmp import first_difference  # noqa: E402


def r(*shape):
    return torch.randn(*shape)


class Call(nn.Module):
    """One module called on its inputs."""

    def __init__(self, m: nn.Module):
        super().__init__()
        self.m = m

    def forward(self, x: Tensor):
        return self.m(x)


class Call2(nn.Module):
    def __init__(self, m: nn.Module):
        super().__init__()
        self.m = m

    def forward(self, x: Tensor, y: Tensor):
        return self.m(x, y)


class Call3(nn.Module):
    def __init__(self, m: nn.Module):
        super().__init__()
        self.m = m

    def forward(self, x: Tensor, y: Tensor, z: Tensor):
        return self.m(x, y, z)


class Stats(nn.Module):
    """A norm layer called twice (in train mode the running statistics move twice), its
    output and its buffers returned."""

    def __init__(self, m: nn.Module):
        super().__init__()
        self.m = m

    def forward(self, x: Tensor):
        y = self.m(x)
        y = self.m(x * 2.0 + 1.0) + y
        mean, var = self.m.running_mean, self.m.running_var
        assert mean is not None and var is not None
        return y, mean, var, self.m.num_batches_tracked


class RnnState(nn.Module):
    """A recurrent layer given its initial state."""

    def __init__(self, m: nn.Module):
        super().__init__()
        self.m = m

    def forward(self, x: Tensor, h: Tensor):
        return self.m(x, h)


class LstmState(nn.Module):
    def __init__(self, m: nn.Module):
        super().__init__()
        self.m = m

    def forward(self, x: Tensor, h: Tensor, c: Tensor):
        return self.m(x, (h, c))


class Packed(nn.Module):
    """A recurrent layer run on a PackedSequence of sequences of different lengths."""

    def __init__(self, m: nn.Module):
        super().__init__()
        self.m = m

    def forward(self, x: Tensor, lengths: Tensor):
        p = nn.utils.rnn.pack_padded_sequence(x, lengths, batch_first=True,
                                              enforce_sorted=False)
        out, h = self.m(p)
        y, n = nn.utils.rnn.pad_packed_sequence(out, batch_first=True)
        return y, n, h


class MhaMasks(nn.Module):
    def __init__(self, batch_first: bool, average: bool, **kw):
        super().__init__()
        self.batch_first = batch_first
        self.average = average
        self.m = nn.MultiheadAttention(batch_first=batch_first, **kw)

    def forward(self, q: Tensor, k: Tensor, v: Tensor):
        L, S = q.size(1 if self.batch_first else 0), k.size(1 if self.batch_first else 0)
        N = q.size(0 if self.batch_first else 1)
        mask = torch.triu(torch.ones(L, S, dtype=torch.bool), 1)
        pad = torch.zeros(N, S, dtype=torch.bool)
        pad[0, S - 1] = True
        return self.m(q, k, v, key_padding_mask=pad, attn_mask=mask, need_weights=True,
                      average_attn_weights=self.average)


class MhaFloatMask(nn.Module):
    def __init__(self):
        super().__init__()
        self.m = nn.MultiheadAttention(8, 2, add_bias_kv=True, add_zero_attn=True)

    def forward(self, q: Tensor, k: Tensor, v: Tensor):
        mask = torch.sin(torch.arange(q.size(0) * k.size(0)).float()).view(q.size(0), k.size(0))
        return self.m(q, k, v, attn_mask=mask, need_weights=False)


class Mha3dMask(nn.Module):
    """A per-head 3-d float attn_mask and a float key padding mask."""

    def __init__(self):
        super().__init__()
        self.m = nn.MultiheadAttention(8, 2, batch_first=True, dropout=0.5)

    def forward(self, q: Tensor, kv: Tensor):
        n, L, S = q.size(0), q.size(1), kv.size(1)
        mask = torch.cos(torch.arange(n * 2 * L * S).float()).view(n * 2, L, S)
        pad = torch.zeros(n, S)
        pad[0, 0] = float("-inf")
        return self.m(q, kv, kv, attn_mask=mask, key_padding_mask=pad)


class MaskedFill(nn.Module):
    """masked_fill given masks that are not bool, as attention code passes them: PyTorch
    1.13 reads each element's first byte as the bool (0 or 1, else an error)."""

    def forward(self, x: Tensor, mask: Tensor):
        return (x.masked_fill(mask, 5.0), x.masked_fill(mask.double(), 6.0),
                x.masked_fill((mask > 0.5).long() * 257, -1.0),
                x.clone().masked_fill_((mask == 1.0).int().t(), 2.0),
                x.masked_fill(torch.tensor([1.0000001, 0.0, 1.0]), torch.tensor(3.0)))


class EncoderMasks(nn.Module):
    def __init__(self, norm_first: bool, activation: str, batch_first: bool):
        super().__init__()
        layer = nn.TransformerEncoderLayer(16, 2, 32, dropout=0.1, activation=activation,
                                           norm_first=norm_first, batch_first=batch_first)
        self.enc = nn.TransformerEncoder(layer, 2, norm=nn.LayerNorm(16),
                                         enable_nested_tensor=False)
        self.batch_first = batch_first

    def forward(self, x: Tensor):
        s = x.size(1 if self.batch_first else 0)
        n = x.size(0 if self.batch_first else 1)
        mask = torch.triu(torch.full((s, s), float("-inf")), 1)
        pad = torch.zeros(n, s, dtype=torch.bool)
        pad[0, s - 1] = True
        return self.enc(x, mask=mask, src_key_padding_mask=pad)


class DecoderMasks(nn.Module):
    def __init__(self, norm_first: bool, activation: str):
        super().__init__()
        self.dec = nn.TransformerDecoderLayer(16, 4, 24, dropout=0.2, activation=activation,
                                              norm_first=norm_first)

    def forward(self, tgt: Tensor, memory: Tensor):
        mask = torch.triu(torch.full((tgt.size(0), tgt.size(0)), float("-inf")), 1)
        pad = torch.zeros(memory.size(1), memory.size(0), dtype=torch.bool)
        pad[1, 0] = True
        return self.dec(tgt, memory, tgt_mask=mask, memory_key_padding_mask=pad)


class Transformer(nn.Module):
    def __init__(self):
        super().__init__()
        self.t = nn.Transformer(16, 2, 2, 1, 32, dropout=0.1, batch_first=True)

    def forward(self, src: Tensor, tgt: Tensor):
        mask = torch.triu(torch.full((tgt.size(1), tgt.size(1)), float("-inf")), 1)
        return self.t(src, tgt, tgt_mask=mask)


class Interp(nn.Module):
    """F.interpolate with the arguments a model passes."""

    def __init__(self, mode: str, size: Optional[List[int]] = None,
                 scale: Optional[List[float]] = None, align_corners: Optional[bool] = None,
                 recompute: Optional[bool] = None, antialias: bool = False):
        super().__init__()
        self.mode, self.size, self.scale = mode, size, scale
        self.align_corners, self.recompute, self.antialias = align_corners, recompute, antialias

    def forward(self, x: Tensor):
        return F.interpolate(x, size=self.size, scale_factor=self.scale, mode=self.mode,
                             align_corners=self.align_corners,
                             recompute_scale_factor=self.recompute, antialias=self.antialias)


class PoolIndices(nn.Module):
    """Max pools returning their indices (functional: PyTorch 1.13 cannot script
    nn.MaxUnpool2d, nor nn.MaxPool2d with return_indices), and the unpools that put them
    back."""

    def forward(self, x1: Tensor, x2: Tensor, x3: Tensor):
        y1, i1 = F.max_pool1d(x1, 3, 2, return_indices=True)
        y2, i2 = F.max_pool2d(x2, 2, return_indices=True, ceil_mode=True)
        y3, i3 = F.max_pool3d(x3, [2, 2, 2], [2, 1, 1], padding=1, return_indices=True)
        return (y1, i1, F.max_unpool1d(y1, i1, 3, 2, output_size=x1.size()),
                y2, i2, F.max_unpool2d(y2, i2, 2, output_size=[x2.size(2) + 1, x2.size(3) + 1]),
                y3, i3, F.max_unpool3d(y3, i3, [2, 2, 2], [2, 1, 1], padding=1))


class Containers(nn.Module):
    def __init__(self):
        super().__init__()
        self.seq = nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 8), nn.Tanh(),
                                 nn.Linear(8, 4))
        self.head = self.seq[-1]
        self.body = self.seq[1:4]
        self.blocks = nn.ModuleList([nn.Linear(8, 8) for _ in range(3)])
        self.gates = nn.ModuleList([nn.Sigmoid(), nn.Tanh(), nn.Softsign()])
        self.heads = nn.ModuleDict({"a": nn.Linear(8, 2), "b": nn.Linear(8, 3)})
        self.scales = nn.ParameterList([nn.Parameter(torch.randn(8)) for _ in range(3)])
        self.bias = nn.ParameterDict({"x": nn.Parameter(torch.randn(8))})

    def forward(self, x: Tensor):
        h = self.seq[0](x)
        h = self.body(h)
        outs: List[Tensor] = []
        for i, b in enumerate(self.blocks):
            h = b(h) * float(i + 1)
        for b, g in zip(self.blocks, self.gates):
            h = g(b(h))
        for p in self.scales:
            h = h * p
        h = h + self.bias["x"]
        for k, m in self.heads.items():
            outs.append(m(h))
        return self.head(h), outs, len(self.seq)


class Containers2(nn.Module):
    """More container forms: ModuleList negative indices, ModuleDict keys(),
    values() and literal keys, a Sequential of Sequentials, constants."""
    __constants__ = ["scale"]
    depth: Final[int]

    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(5, 5) for _ in range(4)])
        self.named = nn.ModuleDict({"relu": nn.ReLU(), "gelu": nn.GELU(), "elu": nn.ELU()})
        self.nested = nn.Sequential(nn.Sequential(nn.Linear(5, 5), nn.Tanh()),
                                    nn.Sequential(nn.Linear(5, 3)))
        self.scale = 0.5
        self.depth = 2

    @torch.jit.export
    def trunk(self, x: Tensor) -> Tensor:
        for i, layer in enumerate(self.layers):
            if i > 0 and i < self.depth + 1:
                x = layer(x)
        return self.layers[-1](x) * self.scale

    def forward(self, x: Tensor):
        names: List[str] = []
        for k in self.named.keys():
            names.append(k)
        for act in self.named.values():
            x = act(x)
        x = self.named["gelu"](self.layers[0](x))
        return self.nested[1](self.nested[0](self.trunk(x))) * self.depth, names, len(self.layers)


class Unused(nn.Module):
    """A training-only method marked @torch.jit.unused (its saved body raises) behind
    self.training, and an ignored Python helper never reached in eval mode."""

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 3)

    @torch.jit.unused
    def train_only(self, x: Tensor) -> Tensor:
        return x.numpy()

    @torch.jit.ignore
    def python_only(self, x: Tensor) -> Tensor:
        return x

    def forward(self, x: Tensor):
        if self.training:
            return self.python_only(self.train_only(x))
        return self.lin(x)


class TrainFlags(nn.Module):
    """Submodules saved in different states: model.train() then one submodule .eval()."""

    def __init__(self):
        super().__init__()
        self.bn = nn.BatchNorm1d(4)
        self.bn_eval = nn.BatchNorm1d(4)
        self.drop = nn.Dropout(0.0)

    def forward(self, x: Tensor):
        return (self.drop(self.bn(x)), self.bn_eval(x), self.training, self.bn.training,
                self.bn_eval.training, self.bn.running_mean, self.bn_eval.running_mean)


def train_flags():
    m = TrainFlags()
    m.bn_eval.running_mean.fill_(0.5)
    m.bn_eval.eval()
    return m


class Bilinear(nn.Module):
    def __init__(self):
        super().__init__()
        self.m = nn.Bilinear(5, 4, 3)

    def forward(self, x: Tensor, y: Tensor):
        return self.m(x, y)


class Losses(nn.Module):
    """Every reduction of a loss module, in one tuple."""

    def __init__(self, make):
        super().__init__()
        self.none = make("none")
        self.mean = make("mean")
        self.sum = make("sum")

    def forward(self, x: Tensor, y: Tensor):
        return self.none(x, y), self.mean(x, y), self.sum(x, y)


class EmbeddingMaxNorm(nn.Module):
    """max_norm renormalizes the weight's looked-up rows in place: the weight is returned."""

    def __init__(self):
        super().__init__()
        self.m = nn.Embedding(10, 4, max_norm=1.0, norm_type=2.0)

    def forward(self, i: Tensor):
        return self.m(i), self.m.weight


class Bag(nn.Module):
    def __init__(self, mode: str, per_sample: bool = False, padding_idx: Optional[int] = None):
        super().__init__()
        self.m = nn.EmbeddingBag(10, 3, mode=mode, padding_idx=padding_idx)
        self.per_sample = per_sample

    def forward(self, i: Tensor, offsets: Tensor, w: Tensor):
        if self.per_sample:
            return self.m(i, offsets, per_sample_weights=w)
        return self.m(i, offsets)


def idx(n, hi, *shape):
    torch.manual_seed(n)
    return torch.randint(0, hi, shape)


def probs(*shape):
    return torch.rand(*shape) * 0.9 + 0.05


def act(m, *shape):
    return (lambda: Call(m()), lambda: (r(*shape) * 3,))


# name: (builder, inputs[, mode[, phrase]]); a builder returns the nn.Module to script,
# inputs the forward's arguments; mode is "eval" (the default), "train", "frozen" (eval,
# then torch.jit.freeze), or "main": an exported main() that prints, run by `tscript run -f
# main` and compared as printed. With a phrase both must raise, their errors holding it.
CASES = {
    # convolutions
    "conv1d_stride_dil": (lambda: Call(nn.Conv1d(4, 6, 3, stride=2, padding=2, dilation=2)),
                          lambda: (r(2, 4, 17),)),
    "conv1d_same_reflect": (lambda: Call(nn.Conv1d(4, 4, 4, padding="same",
                                                   padding_mode="reflect", groups=2)),
                            lambda: (r(2, 4, 9),)),
    "conv1d_circular": (lambda: Call(nn.Conv1d(3, 2, 3, padding=2, padding_mode="circular")),
                        lambda: (r(1, 3, 8),)),
    "conv2d_groups_bias": (lambda: Call(nn.Conv2d(6, 9, (3, 2), stride=(2, 1),
                                                  padding=(1, 0), groups=3)),
                           lambda: (r(2, 6, 9, 8),)),
    "conv2d_depthwise_dil": (lambda: Call(nn.Conv2d(4, 8, 3, padding=2, dilation=2,
                                                    groups=4, bias=False)),
                             lambda: (r(1, 4, 10, 10),)),
    "conv2d_same_even": (lambda: Call(nn.Conv2d(3, 4, (4, 2), padding="same", dilation=(1, 3))),
                         lambda: (r(1, 3, 9, 11),)),
    "conv2d_reflect": (lambda: Call(nn.Conv2d(3, 4, 3, padding=(2, 1), padding_mode="reflect")),
                       lambda: (r(2, 3, 7, 6),)),
    "conv2d_replicate_stride": (lambda: Call(nn.Conv2d(3, 4, 3, stride=2, padding=1,
                                                       padding_mode="replicate")),
                                lambda: (r(1, 3, 8, 9),)),
    "conv2d_circular": (lambda: Call(nn.Conv2d(2, 3, 3, padding=(1, 2),
                                               padding_mode="circular")),
                        lambda: (r(1, 2, 5, 6),)),
    "conv2d_unbatched": (lambda: Call(nn.Conv2d(3, 4, 3, padding=1)), lambda: (r(3, 6, 6),)),
    "conv3d_stride_groups": (lambda: Call(nn.Conv3d(4, 4, 3, stride=(1, 2, 2), padding=1,
                                                    groups=2)),
                             lambda: (r(1, 4, 4, 7, 6),)),
    "conv3d_replicate_same": (lambda: Call(nn.Conv3d(2, 3, 3, padding="same",
                                                     padding_mode="replicate")),
                              lambda: (r(1, 2, 4, 5, 5),)),
    "convtranspose1d": (lambda: Call(nn.ConvTranspose1d(4, 3, 4, stride=2, padding=1,
                                                        output_padding=1, dilation=2)),
                        lambda: (r(2, 4, 7),)),
    "convtranspose2d_groups": (lambda: Call(nn.ConvTranspose2d(4, 6, 3, stride=2, padding=1,
                                                               output_padding=1, groups=2)),
                               lambda: (r(1, 4, 5, 6),)),
    "convtranspose2d_output_size": (lambda: Call2(ConvTOutSize()),
                                    lambda: (r(1, 3, 5, 5), torch.zeros(10, 9))),
    "convtranspose3d": (lambda: Call(nn.ConvTranspose3d(2, 3, (2, 3, 3), stride=(1, 2, 2),
                                                        padding=(0, 1, 1), bias=False)),
                        lambda: (r(1, 2, 3, 4, 4),)),
    # normalization
    "batchnorm1d_eval": (lambda: Stats(bn_stats(nn.BatchNorm1d(5))), lambda: (r(4, 5, 3),)),
    "batchnorm1d_train": (lambda: Stats(nn.BatchNorm1d(5, momentum=0.3)),
                          lambda: (r(4, 5),), "train"),
    "batchnorm2d_train_cma": (lambda: Stats(nn.BatchNorm2d(3, momentum=None)),
                              lambda: (r(2, 3, 4, 4),), "train"),
    "batchnorm2d_noaffine_train": (lambda: Stats(nn.BatchNorm2d(3, affine=False)),
                                   lambda: (r(2, 3, 4, 5),), "train"),
    "batchnorm3d_eval": (lambda: Stats(bn_stats(nn.BatchNorm3d(2))), lambda: (r(2, 2, 3, 3, 3),)),
    "batchnorm2d_no_stats": (lambda: Call(nn.BatchNorm2d(3, track_running_stats=False)),
                             lambda: (r(2, 3, 4, 4),)),
    "batchnorm1d_no_stats_train": (lambda: Call(nn.BatchNorm1d(3, track_running_stats=False)),
                                   lambda: (r(4, 3, 6),), "train"),
    "layernorm_no_affine": (lambda: Call(nn.LayerNorm([4, 5], elementwise_affine=False,
                                                      eps=1e-3)),
                            lambda: (r(2, 3, 4, 5),)),
    "layernorm": (lambda: Call(affine(nn.LayerNorm(6))), lambda: (r(3, 6),)),
    "groupnorm": (lambda: Call(affine(nn.GroupNorm(3, 6))), lambda: (r(2, 6, 4, 3),)),
    "groupnorm_no_affine": (lambda: Call(nn.GroupNorm(2, 4, affine=False)),
                            lambda: (r(2, 4, 7),)),
    "instancenorm1d": (lambda: Call(nn.InstanceNorm1d(3)), lambda: (r(2, 3, 8),)),
    "instancenorm2d_affine": (lambda: Call(affine(nn.InstanceNorm2d(3, affine=True))),
                              lambda: (r(2, 3, 5, 4),)),
    "instancenorm2d_stats_train": (lambda: Stats(nn.InstanceNorm2d(3, track_running_stats=True)),
                                   lambda: (r(2, 3, 5, 4),), "train"),
    "instancenorm2d_stats_eval": (lambda: Stats(bn_stats(nn.InstanceNorm2d(
        3, track_running_stats=True))), lambda: (r(2, 3, 5, 4),)),
    "instancenorm1d_unbatched": (lambda: Call(nn.InstanceNorm1d(3, affine=True)),
                                 lambda: (r(3, 8),)),
    "localresponsenorm": (lambda: Call(nn.LocalResponseNorm(3, alpha=0.01, beta=0.6, k=2.0)),
                          lambda: (r(2, 6, 4, 4),)),
    "localresponsenorm_3d": (lambda: Call(nn.LocalResponseNorm(2)), lambda: (r(2, 5, 7),)),
    # embeddings
    "embedding_padding_idx": (lambda: Call(nn.Embedding(10, 4, padding_idx=2)),
                              lambda: (idx(1, 10, 3, 5),)),
    "embedding_max_norm": (EmbeddingMaxNorm, lambda: (idx(2, 10, 2, 4),)),
    "embeddingbag_sum": (lambda: Bag("sum"), lambda: (idx(3, 10, 9), torch.tensor([0, 2, 2, 5]),
                                                       r(9))),
    "embeddingbag_mean": (lambda: Bag("mean", padding_idx=1),
                          lambda: (torch.tensor([1, 2, 1, 4, 5, 1]), torch.tensor([0, 2, 3]),
                                   r(6))),
    "embeddingbag_max": (lambda: Bag("max"), lambda: (idx(4, 10, 8), torch.tensor([0, 3, 5]),
                                                       r(8))),
    "embeddingbag_weights": (lambda: Bag("sum", per_sample=True),
                             lambda: (idx(5, 10, 7), torch.tensor([0, 1, 4]), r(7))),
    # recurrent
    "lstm_2layer_bidir": (lambda: Call(nn.LSTM(4, 5, num_layers=2, bidirectional=True,
                                               dropout=0.3)),
                          lambda: (r(6, 2, 4),)),
    "lstm_batch_first_state": (lambda: LstmState(nn.LSTM(3, 4, num_layers=2,
                                                         batch_first=True)),
                               lambda: (r(2, 5, 3), r(2, 2, 4), r(2, 2, 4))),
    "lstm_proj": (lambda: Call(nn.LSTM(4, 6, proj_size=3, num_layers=2, bidirectional=True)),
                  lambda: (r(5, 2, 4),)),
    "lstm_proj_state": (lambda: LstmState(nn.LSTM(4, 6, proj_size=2, batch_first=True)),
                        lambda: (r(3, 5, 4), r(1, 3, 2), r(1, 3, 6))),
    "lstm_no_bias_unbatched": (lambda: Call(nn.LSTM(3, 4, bias=False)), lambda: (r(5, 3),)),
    "gru_2layer_bidir": (lambda: Call(nn.GRU(4, 5, num_layers=2, bidirectional=True)),
                         lambda: (r(6, 3, 4),)),
    "gru_state_batch_first": (lambda: RnnState(nn.GRU(3, 4, batch_first=True, num_layers=2)),
                              lambda: (r(2, 5, 3), r(2, 2, 4))),
    "rnn_tanh_bidir": (lambda: Call(nn.RNN(3, 4, num_layers=2, bidirectional=True)),
                       lambda: (r(5, 2, 3),)),
    "rnn_relu_state": (lambda: RnnState(nn.RNN(3, 4, nonlinearity="relu")),
                       lambda: (r(5, 2, 3), r(1, 2, 4))),
    "lstm_packed": (lambda: Packed(nn.LSTM(3, 4, batch_first=True, bidirectional=True)),
                    lambda: (r(3, 5, 3), torch.tensor([5, 2, 4]))),
    "gru_packed": (lambda: Packed(nn.GRU(3, 4, batch_first=True, num_layers=2)),
                   lambda: (r(3, 5, 3), torch.tensor([3, 5, 1]))),
    "packed_strided_lengths": (lambda: PackedStrided(),
                               lambda: (r(4, 3, 3), torch.tensor([4, 0, 3, 0, 1, 0]))),
    "embedding_int32": (lambda: Call(nn.Embedding(10, 3, padding_idx=1)),
                        lambda: (idx(12, 10, 2, 4).int(),)),
    "embeddingbag_int32": (lambda: Call2(nn.EmbeddingBag(10, 3, mode="sum")),
                           lambda: (idx(13, 10, 6).int(), torch.tensor([0, 2, 2], dtype=torch.int32))),
    "lstm_proj_packed": (lambda: Packed(nn.LSTM(3, 5, proj_size=2, num_layers=2,
                                                bidirectional=True, batch_first=True)),
                         lambda: (r(4, 6, 3), torch.tensor([2, 6, 1, 4]))),
    "rnn_relu_packed_bidir": (lambda: Packed(nn.RNN(3, 4, nonlinearity="relu", batch_first=True,
                                                    bidirectional=True)),
                              lambda: (r(3, 4, 3), torch.tensor([4, 4, 2]))),
    "pad_and_pack_sequence": (lambda: PadSequence(), lambda: (r(8, 3),)),
    "pad_sequence_dtypes_broadcast": (lambda: PadVariants(), lambda: (r(4, 3) * 3, r(3, 1))),
    "err_pad_sequence_shapes": (lambda: PadVariants(), lambda: (r(4, 3), r(3, 2)), "eval",
                                "The size of tensor a (3) must match the size of tensor b (2) "
                                "at non-singleton dimension 1"),
    "embedding_max_norm_l1": (lambda: Call(nn.Embedding(8, 4, max_norm=0.7, norm_type=1.0)),
                              lambda: (idx(14, 8, 3, 3),)),
    "embedding_max_norm_inf": (lambda: Call(nn.Embedding(8, 4, max_norm=0.5,
                                                         norm_type=float("inf"))),
                               lambda: (idx(15, 8, 5),)),
    "embeddingbag_max_padding": (lambda: Bag("max", padding_idx=2),
                                 lambda: (torch.tensor([2, 3, 2, 2, 5, 1]), torch.tensor([0, 2, 4]),
                                          r(6))),
    "uint8_nearest": (lambda: Call(nn.Upsample(scale_factor=2)),
                      lambda: ((torch.rand(1, 3, 4, 5) * 255).to(torch.uint8),)),
    "err_maxpool_long": (lambda: Call(nn.MaxPool2d(2)),
                         lambda: ((torch.rand(1, 2, 4, 4) * 100).long(),), "eval",
                         "\"max_pool2d\" not implemented for 'Long'"),
    "err_bilinear_uint8": (lambda: Call(nn.Upsample(scale_factor=2, mode="bilinear")),
                           lambda: ((torch.rand(1, 3, 4, 5) * 255).to(torch.uint8),), "eval",
                           "not implemented for 'Byte'"),
    "err_conv_long": (lambda: Call(nn.Conv2d(2, 2, 3)), lambda: (torch.ones(1, 2, 4, 4).long(),),
                      "eval", "Input type (long int) and bias type (float) should be the same"),
    "lstmcell": (lambda: Call(nn.LSTMCell(3, 4)), lambda: (r(2, 3),)),
    "grucell_state": (lambda: Call2(nn.GRUCell(3, 4)), lambda: (r(2, 3), r(2, 4))),
    "rnncell_relu": (lambda: Call2(nn.RNNCell(3, 4, nonlinearity="relu")),
                     lambda: (r(2, 3), r(2, 4))),
    # attention and transformers
    "mha_masks_average": (lambda: MhaMasks(False, True, embed_dim=8, num_heads=2),
                          lambda: (r(4, 2, 8), r(5, 2, 8), r(5, 2, 8))),
    "mha_batch_first_heads": (lambda: MhaMasks(True, False, embed_dim=8, num_heads=4),
                             lambda: (r(2, 4, 8), r(2, 5, 8), r(2, 5, 8))),
    "mha_bias_kv_float_mask": (MhaFloatMask, lambda: (r(3, 2, 8), r(4, 2, 8), r(4, 2, 8))),
    "mha_3d_float_masks": (lambda: Mha3dMask(), lambda: (r(2, 3, 8), r(2, 4, 8))),
    "masked_fill_non_bool_masks": (lambda: MaskedFill(),
                                   lambda: (r(3, 3), torch.tensor([[0.0, 1.0, float("-inf")],
                                                                   [2.0, 0.0, 1.0],
                                                                   [1.0, 0.0, 0.0]]))),
    "err_masked_fill_mask_values": (lambda: Call2(MaskedFill()),
                                    lambda: (r(3, 3), torch.full((3, 3), 2.8026e-45)), "eval",
                                    "Mask tensor can take 0 and 1 values only"),
    "mha_self_batch_first": (lambda: Call3(nn.MultiheadAttention(8, 2, batch_first=True)),
                             lambda: (lambda x: (x, x, x))(r(2, 5, 8))),
    "encoder_norm_first_gelu": (lambda: EncoderMasks(True, "gelu", False),
                                lambda: (r(5, 2, 16),)),
    "encoder_batch_first_relu": (lambda: EncoderMasks(False, "relu", True),
                                 lambda: (r(2, 5, 16),)),
    "decoder_norm_first": (lambda: DecoderMasks(True, "gelu"),
                           lambda: (r(4, 2, 16), r(3, 2, 16))),
    "decoder_post_norm": (lambda: DecoderMasks(False, "relu"),
                          lambda: (r(4, 2, 16), r(3, 2, 16))),
    "transformer": (Transformer, lambda: (r(2, 5, 16), r(2, 4, 16))),
    # resampling
    "upsample_nearest_scale": (lambda: Call(nn.Upsample(scale_factor=2.5, mode="nearest")),
                               lambda: (r(1, 2, 4, 5),)),
    "upsample_bilinear_ac": (lambda: Call(nn.Upsample(size=(7, 9), mode="bilinear",
                                                      align_corners=True)),
                             lambda: (r(1, 2, 4, 5),)),
    "upsample_bicubic": (lambda: Call(nn.Upsample(scale_factor=(1.5, 2.0), mode="bicubic")),
                         lambda: (r(1, 2, 4, 5),)),
    "upsample_trilinear": (lambda: Call(nn.Upsample(scale_factor=2, mode="trilinear")),
                           lambda: (r(1, 2, 3, 3, 4),)),
    "upsample_nearest_exact": (lambda: Call(nn.Upsample(size=7, mode="nearest-exact")),
                               lambda: (r(1, 2, 5),)),
    "upsampling_bilinear2d": (lambda: Call(nn.UpsamplingBilinear2d(scale_factor=2)),
                              lambda: (r(1, 2, 3, 4),)),
    "interp_recompute": (lambda: Interp("bilinear", scale=[1.7, 0.6], recompute=True),
                         lambda: (r(1, 2, 6, 7),)),
    "interp_scale_no_recompute": (lambda: Interp("bilinear", scale=[1.7, 0.6]),
                                  lambda: (r(1, 2, 6, 7),)),
    "interp_antialias_bilinear": (lambda: Interp("bilinear", size=[5, 3], antialias=True),
                                  lambda: (r(1, 2, 12, 9),)),
    "interp_antialias_bicubic": (lambda: Interp("bicubic", size=[4, 6], antialias=True),
                                 lambda: (r(1, 2, 11, 13),)),
    "interp_linear_ac": (lambda: Interp("linear", size=[9], align_corners=True),
                         lambda: (r(2, 3, 4),)),
    "interp_area": (lambda: Interp("area", size=[3, 5]), lambda: (r(1, 2, 7, 11),)),
    "pixelshuffle": (lambda: Call(nn.Sequential(nn.PixelShuffle(2), nn.PixelUnshuffle(3))),
                     lambda: (r(1, 8, 3, 6),)),
    "fold_unfold": (lambda: Call(nn.Sequential(
        nn.Unfold((2, 3), dilation=(1, 2), padding=1, stride=(2, 1)),
        nn.Fold((6, 7), (2, 3), dilation=(1, 2), padding=1, stride=(2, 1)))),
        lambda: (r(2, 3, 6, 7),)),
    # activations
    "prelu_channels": act(lambda: affine(nn.PReLU(4)), 2, 4, 3),
    "prelu_one": act(lambda: nn.PReLU(init=0.1), 3, 5),
    "softplus": act(lambda: nn.Softplus(beta=2.0, threshold=3.0), 4, 5),
    "hardtanh": act(lambda: nn.Hardtanh(-0.5, 2.0), 4, 5),
    "relu6_elu_celu": act(lambda: nn.Sequential(nn.ELU(alpha=0.7), nn.CELU(alpha=1.5),
                                                nn.ReLU6()), 4, 5),
    "selu": act(nn.SELU, 4, 5),
    "gelu_tanh": act(lambda: nn.GELU(approximate="tanh"), 4, 5),
    "gelu": act(nn.GELU, 4, 5),
    "mish_silu": act(lambda: nn.Sequential(nn.Mish(), nn.SiLU()), 4, 5),
    "hardswish_hardsigmoid": (lambda: Call2(TwoActs(nn.Hardswish(), nn.Hardsigmoid())),
                              lambda: (r(4, 5) * 4, r(4, 5) * 4)),
    "logsigmoid": act(nn.LogSigmoid, 4, 5),
    "softmin_dim": act(lambda: nn.Softmin(dim=0), 4, 5),
    "softmax_logsoftmax": act(lambda: nn.Sequential(nn.Softmax(dim=-1), nn.LogSoftmax(1)), 3, 5),
    "softmax2d": act(nn.Softmax2d, 2, 3, 4, 4),
    "threshold": act(lambda: nn.Threshold(0.3, -2.0), 4, 5),
    "rrelu_eval": act(lambda: nn.RReLU(0.1, 0.3), 4, 5),
    "glu": act(lambda: nn.GLU(dim=1), 3, 6),
    "shrinks": act(lambda: nn.Sequential(nn.Tanhshrink(), nn.Softshrink(0.3),
                                         nn.Hardshrink(0.1)), 4, 5),
    "leakyrelu_softsign": act(lambda: nn.Sequential(nn.LeakyReLU(0.2), nn.Softsign()), 4, 5),
    # pooling
    "maxpool1d_ceil": (lambda: Call(nn.MaxPool1d(3, stride=2, padding=1, ceil_mode=True)),
                       lambda: (r(2, 3, 10),)),
    "maxpool2d_dil_ceil": (lambda: Call(nn.MaxPool2d(3, stride=2, padding=1, dilation=2,
                                                     ceil_mode=True)),
                           lambda: (r(1, 2, 9, 10),)),
    "maxpool_unpool_indices": (PoolIndices, lambda: (r(2, 2, 9), r(1, 2, 5, 7),
                                                     r(1, 1, 4, 4, 5))),
    "maxpool3d_ceil": (lambda: Call(nn.MaxPool3d((2, 3, 3), stride=2, ceil_mode=True)),
                       lambda: (r(1, 2, 5, 6, 7),)),
    "avgpool1d_pad": (lambda: Call(nn.AvgPool1d(3, 2, padding=1, count_include_pad=False,
                                                ceil_mode=True)),
                      lambda: (r(2, 3, 10),)),
    "avgpool2d_ceil_pad": (lambda: Call(nn.AvgPool2d(3, 2, padding=1, ceil_mode=True)),
                           lambda: (r(1, 2, 8, 9),)),
    "avgpool2d_no_pad_count": (lambda: Call(nn.AvgPool2d(3, 2, padding=1,
                                                         count_include_pad=False,
                                                         ceil_mode=True)),
                               lambda: (r(1, 2, 8, 9),)),
    "avgpool2d_divisor": (lambda: Call(nn.AvgPool2d(2, divisor_override=3)),
                          lambda: (r(1, 2, 6, 6),)),
    "avgpool3d": (lambda: Call(nn.AvgPool3d(2, stride=(1, 2, 2), padding=1,
                                            count_include_pad=False)),
                  lambda: (r(1, 2, 4, 5, 5),)),
    "avgpool3d_divisor_ceil": (lambda: Call(nn.AvgPool3d(3, 2, ceil_mode=True,
                                                         divisor_override=5)),
                               lambda: (r(1, 1, 6, 7, 8),)),
    "adaptive_avg": (lambda: Call2(TwoActs(nn.AdaptiveAvgPool2d((3, 4)),
                                           nn.AdaptiveAvgPool1d(4))),
                     lambda: (r(1, 2, 7, 5), r(2, 3, 10))),
    "adaptive_avg3d": (lambda: Call(nn.AdaptiveAvgPool3d((2, 3, 1))), lambda: (r(1, 2, 5, 7, 4),)),
    "adaptive_max_indices": (lambda: Call(nn.AdaptiveMaxPool2d((3, 2), return_indices=True)),
                             lambda: (r(1, 2, 7, 5),)),
    "adaptive_max1d_3d": (lambda: Call2(TwoActs(nn.AdaptiveMaxPool1d(3),
                                                nn.AdaptiveMaxPool3d(2))),
                          lambda: (r(2, 3, 10), r(1, 2, 5, 4, 5))),
    "lppool": (lambda: Call2(TwoActs(nn.LPPool2d(2, (2, 3), stride=2), nn.LPPool1d(1.5, 3))),
               lambda: (r(1, 2, 6, 7), r(2, 3, 9))),
    # shapes and identity
    "flatten_unflatten": (lambda: Call(nn.Sequential(nn.Flatten(1, 2), nn.Identity(),
                                                     nn.Unflatten(1, (2, 6)),
                                                     nn.Flatten())),
                          lambda: (r(2, 3, 4, 5),)),
    "dropout1d_eval": act(lambda: nn.Dropout1d(0.4), 2, 3, 4),
    "dropouts_eval": (lambda: Call(nn.Sequential(nn.Dropout(0.5), nn.Dropout2d(0.3),
                                                 nn.AlphaDropout(0.2), nn.Dropout3d(),
                                                 nn.FeatureAlphaDropout(0.1))),
                      lambda: (r(2, 3, 4, 5),)),
    "containers": (Containers, lambda: (r(3, 6),)),
    "containers_more": (lambda: Containers2(), lambda: (r(3, 5),)),
    "unused_training_branch": (lambda: Unused(), lambda: (r(2, 4),)),
    "train_flags": (train_flags, lambda: (r(5, 4),), "train"),
    "bilinear": (Bilinear, lambda: (r(3, 5), r(3, 4))),
    "cosine_pairwise": (lambda: Call2(TwoActs2(nn.CosineSimilarity(dim=1, eps=1e-6),
                                               nn.PairwiseDistance(p=1.5, keepdim=True))),
                        lambda: (r(4, 6), r(4, 6))),
    "linear_identity_args": (lambda: Call(nn.Sequential(nn.Identity(3, k=4), nn.Linear(5, 3,
                                                                                       bias=False))),
                             lambda: (r(2, 5),)),
    # padding layers
    "pad_constant_zero": (lambda: Call2(TwoActs(nn.Sequential(nn.ConstantPad1d((2, 1), 3.5),
                                                              nn.ZeroPad2d((1, 0, 2, 1))),
                                                nn.ConstantPad3d((1, 0, 0, 2, 1, 1), -1.0))),
                          lambda: (r(2, 3, 4), r(1, 2, 2, 3, 3))),
    "pad_reflection": (lambda: Call3(ThreeActs(nn.ReflectionPad1d((3, 1)),
                                               nn.ReflectionPad2d((1, 2, 2, 0)),
                                               nn.ReflectionPad3d(1))),
                       lambda: (r(2, 3, 5), r(1, 2, 4, 5), r(1, 2, 3, 3, 4))),
    "pad_replication": (lambda: Call3(ThreeActs(nn.ReplicationPad1d((0, 3)),
                                                nn.ReplicationPad2d((2, 1, 0, 3)),
                                                nn.ReplicationPad3d((1, 2, 0, 1, 2, 0)))),
                        lambda: (r(2, 3, 5), r(1, 2, 4, 5), r(1, 2, 3, 3, 4))),
    "channel_shuffle": act(lambda: nn.ChannelShuffle(3), 2, 6, 2, 2),
    # more layer variants
    "softmax_implicit_dim": (lambda: Call3(ThreeActs(nn.Softmax(), nn.LogSoftmax(),
                                                     nn.Softmin())),
                             lambda: (r(3, 4, 5), r(2, 3), r(4, 2, 3, 2))),
    "inplace_activations": act(lambda: nn.Sequential(nn.Linear(5, 5), nn.ReLU(inplace=True),
                                                     nn.Linear(5, 5), nn.ELU(inplace=True),
                                                     nn.Hardtanh(inplace=True),
                                                     nn.LeakyReLU(0.3, inplace=True),
                                                     nn.Threshold(0.1, 2.0, inplace=True),
                                                     nn.Hardswish(inplace=True),
                                                     nn.SiLU(inplace=True), nn.ReLU6(True)),
                               4, 5),
    "linear_3d": act(lambda: nn.Linear(5, 3), 2, 4, 5),
    "bilinear_no_bias": (lambda: Call2(nn.Bilinear(3, 4, 2, bias=False)), lambda: (r(2, 5, 3),
                                                                                  r(2, 5, 4))),
    "cosine_broadcast": (lambda: Call2(TwoActs2(nn.CosineSimilarity(dim=-1),
                                                nn.PairwiseDistance(p=2.0, eps=0.1))),
                         lambda: (r(3, 1, 6), r(1, 4, 6))),
    "conv1d_valid_nobias": (lambda: Call(nn.Conv1d(3, 4, 5, padding="valid", bias=False,
                                                   stride=3)),
                            lambda: (r(2, 3, 17),)),
    "conv2d_circular_same_dil": (lambda: Call(nn.Conv2d(2, 2, 3, padding="same", dilation=2,
                                                        padding_mode="circular")),
                                 lambda: (r(1, 2, 7, 8),)),
    "conv3d_reflect": (lambda: Call(nn.Conv3d(2, 2, 3, padding=1, padding_mode="reflect")),
                       lambda: (r(1, 2, 3, 4, 5),)),
    "conv1d_replicate_unbatched": (lambda: Call(nn.Conv1d(2, 3, 3, padding=2,
                                                          padding_mode="replicate")),
                                   lambda: (r(2, 6),)),
    "convtranspose2d_dil_groups": (lambda: Call(nn.ConvTranspose2d(6, 4, (3, 2), stride=(1, 3),
                                                                   padding=(2, 0), groups=2,
                                                                   dilation=(2, 1))),
                                   lambda: (r(2, 6, 5, 4),)),
    "convtranspose1d_unbatched": (lambda: Call(nn.ConvTranspose1d(3, 2, 3, stride=3)),
                                  lambda: (r(3, 4),)),
    "batchnorm1d_2d_eval": (lambda: Stats(bn_stats(nn.BatchNorm1d(6, eps=1e-3))),
                            lambda: (r(5, 6),)),
    "batchnorm3d_train": (lambda: Stats(nn.BatchNorm3d(2, momentum=0.5)),
                          lambda: (r(2, 2, 2, 3, 3),), "train"),
    "batchnorm_sequential_train": (lambda: Call(nn.Sequential(nn.Conv2d(2, 3, 3),
                                                              nn.BatchNorm2d(3), nn.ReLU())),
                                   lambda: (r(2, 2, 5, 5),), "train"),
    "groupnorm_5d": (lambda: Call(affine(nn.GroupNorm(2, 4, eps=1e-2))),
                     lambda: (r(2, 4, 2, 3, 3),)),
    "instancenorm3d": (lambda: Call(affine(nn.InstanceNorm3d(2, affine=True))),
                       lambda: (r(2, 2, 3, 3, 4),)),
    "instancenorm1d_stats_train": (lambda: Stats(nn.InstanceNorm1d(3, momentum=0.4,
                                                                   track_running_stats=True)),
                                   lambda: (r(2, 3, 6),), "train"),
    "embedding_pretrained": (lambda: Call(nn.Embedding.from_pretrained(
        torch.randn(6, 3), padding_idx=0, max_norm=2.0)), lambda: (idx(7, 6, 2, 3),)),
    "embeddingbag_2d_max": (lambda: Call(nn.EmbeddingBag(8, 3, mode="max")),
                            lambda: (idx(8, 8, 3, 4),)),
    "embeddingbag_last_offset": (lambda: Call2(nn.EmbeddingBag(8, 3, mode="mean",
                                                               include_last_offset=True)),
                                 lambda: (idx(9, 8, 7), torch.tensor([0, 2, 5, 7]))),
    "lstm_unbatched_state": (lambda: LstmState(nn.LSTM(3, 4, num_layers=2, bidirectional=True)),
                             lambda: (r(5, 3), r(4, 4), r(4, 4))),
    "gru_unbatched_no_bias": (lambda: Call(nn.GRU(3, 4, bias=False, bidirectional=True)),
                              lambda: (r(5, 3),)),
    "rnn_batch_first_bidir_state": (lambda: RnnState(nn.RNN(3, 4, batch_first=True,
                                                            bidirectional=True, num_layers=2)),
                                    lambda: (r(2, 5, 3), r(4, 2, 4))),
    "rnn_packed_sorted": (lambda: PackedSorted(nn.RNN(3, 4, num_layers=2)),
                          lambda: (r(5, 3, 3), torch.tensor([5, 3, 2]))),
    "mha_no_weights_eval_self": (lambda: SelfAttention(), lambda: (r(2, 6, 8),)),
    "transformer_decoder_stack": (lambda: DecoderStack(), lambda: (r(4, 2, 16), r(3, 2, 16))),
    "upsample_nearest_3d": (lambda: Call(nn.Upsample(scale_factor=(2, 1.5, 1), mode="nearest")),
                            lambda: (r(1, 2, 2, 4, 3),)),
    "upsample_bicubic_ac": (lambda: Call(nn.Upsample(size=(5, 9), mode="bicubic",
                                                     align_corners=True)),
                            lambda: (r(1, 2, 4, 5),)),
    "interp_trilinear_ac_size": (lambda: Interp("trilinear", size=[3, 5, 4], align_corners=True),
                                 lambda: (r(1, 2, 2, 3, 6),)),
    "interp_nearest_recompute": (lambda: Interp("nearest", scale=[0.7, 1.3], recompute=True),
                                 lambda: (r(1, 2, 7, 6),)),
    "interp_bilinear_down_scale": (lambda: Interp("bilinear", scale=[0.45, 0.6]),
                                   lambda: (r(1, 2, 9, 10),)),
    "interp_antialias_down_scale": (lambda: Interp("bilinear", scale=[0.4, 0.55], antialias=True,
                                                   recompute=True),
                                    lambda: (r(1, 2, 13, 11),)),
    "interp_nearest_exact_2d": (lambda: Interp("nearest-exact", scale=[1.6, 0.7]),
                                lambda: (r(1, 2, 5, 7),)),
    "interp_linear_scale": (lambda: Interp("linear", scale=[2.3]), lambda: (r(2, 3, 5),)),
    "pixelshuffle_5d": (lambda: Call(nn.PixelShuffle(2)), lambda: (r(2, 1, 8, 2, 3),)),
    "maxpool2d_pad": (lambda: Call(nn.MaxPool2d((2, 3), stride=(1, 2), padding=(1, 1))),
                      lambda: (r(1, 2, 5, 6) - 5.0,)),
    "maxpool1d_unbatched_dil": (lambda: Call(nn.MaxPool1d(2, stride=1, dilation=3)),
                                lambda: (r(3, 9),)),
    "avgpool1d_include_pad_ceil": (lambda: Call(nn.AvgPool1d(4, 3, padding=2, ceil_mode=True)),
                                   lambda: (r(2, 3, 11),)),
    "adaptive_avg_nondivisible": (lambda: Call(nn.AdaptiveAvgPool2d((4, 3))),
                                  lambda: (r(2, 3, 7, 11),)),
    "adaptive_max_unbatched": (lambda: Call(nn.AdaptiveMaxPool2d(3)), lambda: (r(2, 7, 8),)),
    "lppool_ceil": (lambda: Call(nn.LPPool2d(3, 2, ceil_mode=True)), lambda: (r(1, 2, 5, 5),)),
    "flatten_negative": (lambda: Call(nn.Sequential(nn.Flatten(-3, -2), nn.Unflatten(-2, [3, 2]))),
                         lambda: (r(2, 2, 3, 4),)),
    "softmax2d_unbatched": act(nn.Softmax2d, 3, 4, 4),
    "prelu_2d": act(lambda: affine(nn.PReLU(3)), 4, 3),
    # float64 models, channels-last and strided inputs, frozen modules
    "double_conv_bn": (lambda: Call(nn.Sequential(nn.Conv2d(3, 4, 3, padding=1),
                                                  bn_stats(nn.BatchNorm2d(4)), nn.GELU(),
                                                  nn.AdaptiveAvgPool2d(2)).double()),
                       lambda: (r(2, 3, 6, 6).double(),)),
    "double_lstm": (lambda: Call(nn.LSTM(3, 4, num_layers=2, bidirectional=True).double()),
                    lambda: (r(5, 2, 3).double(),)),
    "double_train_bn": (lambda: Stats(nn.BatchNorm1d(3).double()), lambda: (r(4, 3).double(),),
                        "train"),
    "double_mha": (lambda: Call3(nn.MultiheadAttention(8, 2).double()),
                   lambda: (r(3, 2, 8).double(), r(4, 2, 8).double(), r(4, 2, 8).double())),
    "double_interp": (lambda: Interp("bicubic", scale=[1.5, 2.0]),
                      lambda: (r(1, 2, 4, 5).double(),)),
    "channels_last_conv": (lambda: Call(ChannelsLast(nn.Sequential(
        nn.Conv2d(4, 6, 3, stride=2, padding=1, groups=2), nn.BatchNorm2d(6), nn.ReLU(),
        nn.MaxPool2d(2, ceil_mode=True), nn.Conv2d(6, 3, 1)))), lambda: (r(2, 4, 9, 10),)),
    "channels_last_interp": (lambda: Call(ChannelsLast(nn.Sequential(
        nn.Upsample(scale_factor=2, mode="bilinear"), nn.AvgPool2d(3, 2, 1),
        nn.GroupNorm(2, 4), nn.ConvTranspose2d(4, 2, 2, 2)))), lambda: (r(2, 4, 5, 6),)),
    "strided_input_lstm": (lambda: Call(Transposed(nn.LSTM(5, 3, batch_first=True))),
                           lambda: (r(2, 5, 4),)),
    "strided_input_conv1d": (lambda: Call(Transposed(nn.Conv1d(4, 3, 2, dilation=2))),
                             lambda: (r(2, 7, 4),)),
    "frozen_conv_bn": (lambda: Call(nn.Sequential(nn.Conv2d(3, 4, 3, padding=1, bias=False),
                                                  bn_stats(nn.BatchNorm2d(4)), nn.ReLU6(),
                                                  nn.Conv2d(4, 2, 1),
                                                  bn_stats(nn.BatchNorm2d(2)))),
                       lambda: (r(1, 3, 6, 6),), "frozen"),
    "frozen_linear_bn1d": (lambda: Call(nn.Sequential(nn.Linear(5, 4), bn_stats(nn.BatchNorm1d(4)),
                                                      nn.Hardswish(), nn.Linear(4, 2))),
                           lambda: (r(3, 5),), "frozen"),
    "encoder_nested_default": (lambda: EncoderNested(False), lambda: (r(3, 5, 16),)),
    "encoder_nested_norm_first": (lambda: EncoderNested(True), lambda: (r(3, 5, 16),)),
    "transformer_all_masks": (lambda: TransformerMasks(), lambda: (r(5, 2, 16), r(4, 2, 16))),
    "dropout_train_extremes": (lambda: Call2(TwoActs(nn.Dropout(0.0), nn.Dropout(1.0))),
                               lambda: (r(3, 4), r(3, 4)), "train"),
    "rrelu_eval_equal_bounds": act(lambda: nn.RReLU(0.25, 0.25), 3, 4),
    "lstm_train_no_dropout": (lambda: Call(nn.LSTM(3, 4, num_layers=2)), lambda: (r(5, 2, 3),),
                              "train"),
    "loss_cross_entropy_3d_ignore": (lambda: Losses(lambda red: nn.CrossEntropyLoss(
        reduction=red, weight=torch.rand(4) + 0.2, ignore_index=2, label_smoothing=0.15)),
        lambda: (r(2, 4, 3, 2), idx(10, 4, 2, 3, 2))),
    "loss_nll_ignore_default": (lambda: Losses(lambda red: nn.NLLLoss(reduction=red,
                                                                      ignore_index=-100)),
                                lambda: (torch.log_softmax(r(5, 3), 1),
                                         torch.tensor([0, -100, 2, 1, -100]))),
    "loss_kldiv_mean": (lambda: Losses(lambda red: nn.KLDivLoss(reduction=red)),
                        lambda: (torch.log_softmax(r(3, 4), 1), torch.softmax(r(3, 4), 1))),
    "loss_smoothl1_beta0_huber": (lambda: Call2(TwoActs2(nn.SmoothL1Loss(beta=0.0),
                                                         nn.HuberLoss(reduction="none",
                                                                      delta=2.0))),
                                  lambda: (r(3, 4) * 3, r(3, 4))),
    "loss_bce_logits_3d": (lambda: Losses(lambda red: nn.BCEWithLogitsLoss(
        reduction=red, weight=torch.rand(3, 1), pos_weight=torch.rand(4) + 0.5)),
        lambda: (r(2, 3, 4), probs(2, 3, 4))),
    "loss_multilabel_soft_weight": (lambda: Losses(lambda red: nn.MultiLabelSoftMarginLoss(
        weight=torch.rand(4), reduction=red)), lambda: (r(3, 4), (r(3, 4) > 0).float())),
    "loss_triplet_default": (lambda: Call3(nn.TripletMarginLoss()),
                             lambda: (r(4, 6), r(4, 6), r(4, 6))),
    "loss_gaussian_homoscedastic": (lambda: Call3(nn.GaussianNLLLoss()),
                                    lambda: (r(4, 3), r(4, 3), probs(4, 1))),
    "loss_poisson_full_log": (lambda: Losses(lambda red: nn.PoissonNLLLoss(
        log_input=True, full=True, reduction=red)), lambda: (r(3, 4), (probs(3, 4) * 5).round())),
    "loss_ctc_concat_inf": (lambda: CtcLoss(), lambda: (torch.log_softmax(r(4, 2, 5), 2),
                                                         torch.tensor([1, 1, 1, 2, 3]),
                                                         torch.tensor([4, 4]),
                                                         torch.tensor([3, 2]))),
    "fold_unbatched": (lambda: Call(nn.Fold((4, 5), 2, padding=1)), lambda: (r(12, 30),)),
    "unfold_padding": (lambda: Call(nn.Unfold(3, padding=2, stride=2)), lambda: (r(2, 2, 5, 4),)),
    "layernorm_double_strided": (lambda: Call(Transposed(affine(nn.LayerNorm(3)).double())),
                                 lambda: (r(2, 3, 5).double(),)),
    "groupnorm_channels_last": (lambda: Call(ChannelsLast(affine(nn.GroupNorm(2, 6)))),
                                lambda: (r(2, 6, 3, 4),)),
    "instancenorm_channels_last": (lambda: Call(ChannelsLast(affine(nn.InstanceNorm2d(
        3, affine=True)))), lambda: (r(2, 3, 4, 5),)),
    "localresponsenorm_5d": (lambda: Call(nn.LocalResponseNorm(4, alpha=0.1, beta=0.5)),
                             lambda: (r(1, 6, 2, 3, 3),)),
    "adaptive_avg1d_unbatched": (lambda: Call(nn.AdaptiveAvgPool1d(4)), lambda: (r(3, 9),)),
    "interp_area_scale": (lambda: Interp("area", scale=[0.5, 0.34]), lambda: (r(1, 2, 8, 9),)),
    "interp_bicubic_antialias_up": (lambda: Interp("bicubic", scale=[1.5, 1.2], antialias=True),
                                    lambda: (r(1, 2, 5, 6),)),
    "interp_nearest_exact_recompute": (lambda: Interp("nearest-exact", scale=[0.6],
                                                      recompute=True),
                                       lambda: (r(1, 2, 9),)),
    "interp_nearest_3d_size": (lambda: Interp("nearest", size=[3, 5, 2]),
                               lambda: (r(1, 2, 4, 3, 5),)),
    "optimized_linear_gelu": (lambda: Call(nn.Sequential(nn.Linear(6, 8), nn.GELU(),
                                                         nn.LayerNorm(8), nn.Linear(8, 2))),
                              lambda: (r(4, 6),), "optimized"),
    "tied_weights_max_norm": (lambda: Tied(), lambda: (idx(11, 10, 2, 5),)),
    "shared_submodule_attrs": (lambda: Shared(), lambda: (r(3, 4),)),
    # errors users meet, in PyTorch's words
    "err_bn_train_one_value": (lambda: Call(nn.BatchNorm1d(3)), lambda: (r(1, 3),), "train",
                               "Expected more than 1 value per channel when training"),
    "err_conv_channels": (lambda: Call(nn.Conv2d(3, 4, 3)), lambda: (r(1, 2, 5, 5),), "eval",
                          "expected input[1, 2, 5, 5] to have 3 channels, but got 2 channels "
                          "instead"),
    "err_lstm_input_size": (lambda: Call(nn.LSTM(3, 4)), lambda: (r(5, 2, 4),), "eval",
                            "input.size(-1) must be equal to input_size. Expected 3, got 4"),
    "err_lstm_dims": (lambda: Call(nn.GRU(3, 4)), lambda: (r(5, 2, 2, 3),), "eval",
                      "input must have 3 dimensions, got 5"),
    "err_lstm_hidden": (lambda: LstmState(nn.LSTM(3, 4)), lambda: (r(5, 2, 3), r(1, 3, 4),
                                                                   r(1, 2, 4)), "eval",
                        "Expected hidden[0] size (1, 2, 4), got [1, 3, 4]"),
    "err_embedding_index": (lambda: Call(nn.Embedding(5, 2)), lambda: (torch.tensor([1, 5]),),
                            "eval", "index out of range in self"),
    "err_packed_unsorted": (lambda: PackedSorted(nn.RNN(3, 4)),
                            lambda: (r(5, 3, 3), torch.tensor([3, 5, 2])), "eval",
                            "`lengths` array must be sorted in decreasing order"),
    "err_linear_shapes": (lambda: Call(nn.Linear(4, 2)), lambda: (r(3, 5),), "eval",
                          "mat1 and mat2 shapes cannot be multiplied (3x5 and 4x2)"),
    "err_mha_embed": (lambda: Call3(nn.MultiheadAttention(8, 2)),
                      lambda: (r(3, 2, 6), r(3, 2, 6), r(3, 2, 6)), "eval",
                      "was expecting embedding dimension of 8, but got 6"),
    "err_interp_mode": (lambda: Interp("bilinear", size=[4]), lambda: (r(1, 2, 5),), "eval",
                        "Got 3D input, but bilinear mode needs 4D input"),
    "err_pixelshuffle": (lambda: Call(nn.PixelShuffle(3)), lambda: (r(1, 4, 2, 2),), "eval",
                         "pixel_shuffle expects its input's 'channel' dimension to be divisible "
                         "by the square of upscale_factor, but input.size(-3)=4 is not divisible "
                         "by 9"),
    "err_groupnorm_groups": (lambda: Call(nn.GroupNorm(4, 4, affine=False)),
                             lambda: (r(1, 6, 3),), "eval",
                             "Expected number of channels in input to be divisible by num_groups"),
    "err_cross_entropy_target": (lambda: Call2(nn.CrossEntropyLoss()),
                                 lambda: (r(3, 4), torch.tensor([0, 4, 1])), "eval",
                                 "Target 4 is out of bounds."),
    "err_reflect_pad_size": (lambda: Call(nn.ReflectionPad1d(3)), lambda: (r(1, 2, 3),), "eval",
                             "Argument #4: Padding size should be less than the corresponding "
                             "input dimension, but got: padding (3, 3) at dimension 2 of input"),
    "err_groupnorm_weight": (lambda: Call(nn.GroupNorm(2, 4)), lambda: (r(1, 6, 3),), "eval",
                             "Expected weight to be a vector of size equal to the number of "
                             "channels in input, but got weight of shape [4] and input of shape "
                             "[1, 6, 3]"),
    "err_pad_packed_total_length": (lambda: PackedSorted(nn.RNN(3, 4), 4),
                                    lambda: (r(5, 3, 3), torch.tensor([5, 3, 2])), "eval",
                                    "Expected total_length to be at least the length of the "
                                    "longest sequence in input, but got total_length=4 and max "
                                    "sequence length being 5"),
    # sizes of real layers, and statistics of data far from zero
    "big_conv": (lambda: Call(nn.Sequential(nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(),
                                            nn.Conv2d(64, 64, 3, stride=2, groups=4))),
                 lambda: (r(2, 32, 28, 28),)),
    "big_lstm": (lambda: Call(nn.LSTM(64, 128, num_layers=2, batch_first=True)),
                 lambda: (r(3, 20, 64),)),
    "big_encoder": (lambda: Call(nn.TransformerEncoderLayer(64, 8, 256, batch_first=True)),
                    lambda: (r(2, 16, 64),)),
    "batchnorm_train_offset": (lambda: Stats(nn.BatchNorm2d(4)),
                               lambda: (r(8, 4, 6, 6) + 20.0,), "train"),
    "layernorm_offset": (lambda: Call(nn.LayerNorm(256)), lambda: (r(4, 256) + 20.0,)),
    "groupnorm_offset": (lambda: Call(nn.GroupNorm(2, 8)), lambda: (r(2, 8, 16) + 20.0,)),
    "instancenorm_offset_train": (lambda: Stats(nn.InstanceNorm1d(3, track_running_stats=True)),
                                  lambda: (r(2, 3, 50) + 20.0,), "train"),
    "softmax_large": act(lambda: nn.Sequential(nn.Softmax(-1)), 3, 100),
    "print_hyperparameters": (lambda: Hyper(), None, "main"),
    "print_hyperparameters_train": (lambda: hyper_train(), None, "main"),
    "frozen_transformer_layer": (lambda: EncoderMasks(False, "gelu", True),
                                 lambda: (r(2, 5, 16),), "frozen"),
    # losses, each reduction
    "loss_mse_l1_smooth": (lambda: Call2(LossSet([nn.MSELoss, nn.L1Loss, nn.SmoothL1Loss])),
                           lambda: (r(3, 4), r(3, 4))),
    "loss_huber_beta": (lambda: Losses(lambda red: nn.HuberLoss(reduction=red, delta=0.5)),
                        lambda: (r(3, 4), r(3, 4))),
    "loss_smoothl1_beta": (lambda: Losses(lambda red: nn.SmoothL1Loss(reduction=red, beta=0.3)),
                           lambda: (r(3, 4), r(3, 4))),
    "loss_cross_entropy": (lambda: Losses(lambda red: nn.CrossEntropyLoss(
        reduction=red, weight=torch.rand(5), ignore_index=1, label_smoothing=0.1)),
        lambda: (r(4, 5), torch.tensor([0, 1, 4, 2]))),
    "loss_cross_entropy_probs": (lambda: Losses(lambda red: nn.CrossEntropyLoss(
        reduction=red, label_smoothing=0.2)),
        lambda: (r(3, 5, 2), torch.softmax(r(3, 5, 2), 1))),
    "loss_nll_2d": (lambda: Losses(lambda red: nn.NLLLoss(reduction=red, weight=torch.rand(3))),
                    lambda: (torch.log_softmax(r(2, 3, 4, 4), 1), idx(6, 3, 2, 4, 4))),
    "loss_bce": (lambda: Losses(lambda red: nn.BCELoss(reduction=red, weight=torch.rand(4))),
                 lambda: (probs(3, 4), probs(3, 4))),
    "loss_bce_logits": (lambda: Losses(lambda red: nn.BCEWithLogitsLoss(
        reduction=red, pos_weight=torch.rand(4) + 0.5)), lambda: (r(3, 4), probs(3, 4))),
    "loss_kldiv": (lambda: Call2(KlDiv()), lambda: (torch.log_softmax(r(3, 4), 1),
                                                     torch.softmax(r(3, 4), 1))),
    "loss_margin": (lambda: Call2(LossSet([nn.SoftMarginLoss, nn.MultiLabelSoftMarginLoss])),
                    lambda: (r(3, 4), torch.sign(r(3, 4)))),
    "loss_hinge_embedding": (lambda: Losses(lambda red: nn.HingeEmbeddingLoss(
        margin=0.5, reduction=red)), lambda: (r(3, 4), torch.sign(r(3, 4)))),
    "loss_poisson_gaussian": (lambda: Call3(PoissonGaussian()),
                              lambda: (r(3, 4), probs(3, 4) * 3, probs(3, 4))),
    "loss_multimargin": (lambda: Losses(lambda red: nn.MultiMarginLoss(
        p=2, margin=0.7, weight=torch.rand(5), reduction=red)),
        lambda: (r(4, 5), torch.tensor([0, 3, 4, 1]))),
    "loss_multilabel_margin": (lambda: Losses(lambda red: nn.MultiLabelMarginLoss(reduction=red)),
                               lambda: (r(2, 4), torch.tensor([[3, 0, -1, 1], [1, 2, 3, 0]]))),
    "loss_triplet_cosine_margin": (lambda: Call3(ThreeInputLosses()),
                                   lambda: (r(4, 6), r(4, 6), r(4, 6))),
    "loss_ctc": (lambda: CtcLoss(), lambda: (torch.log_softmax(r(7, 2, 5), 2),
                                              torch.tensor([[1, 2, 2], [3, 4, 0]]),
                                              torch.tensor([7, 6]), torch.tensor([3, 2]))),
}


class ConvTOutSize(nn.Module):
    """ConvTranspose2d given the output size, which picks output_padding."""

    def __init__(self):
        super().__init__()
        self.m = nn.ConvTranspose2d(3, 2, 3, stride=2, padding=1)

    def forward(self, x: Tensor, like: Tensor):
        return self.m(x, output_size=[like.size(0), like.size(1)])


class TwoActs(nn.Module):
    def __init__(self, a: nn.Module, b: nn.Module):
        super().__init__()
        self.a, self.b = a, b

    def forward(self, x: Tensor, y: Tensor):
        return self.a(x), self.b(y)


class ChannelsLast(nn.Module):
    """The input converted to channels-last first, as models tuned for it do."""

    def __init__(self, m: nn.Module):
        super().__init__()
        self.m = m

    def forward(self, x: Tensor):
        return self.m(x.contiguous(memory_format=torch.channels_last))


class Transposed(nn.Module):
    """The layer given a non-contiguous view: dims 1 and 2 of the input swapped."""

    def __init__(self, m: nn.Module):
        super().__init__()
        self.m = m

    def forward(self, x: Tensor):
        return self.m(x.transpose(1, 2))


class ThreeActs(nn.Module):
    def __init__(self, a: nn.Module, b: nn.Module, c: nn.Module):
        super().__init__()
        self.a, self.b, self.c = a, b, c

    def forward(self, x: Tensor, y: Tensor, z: Tensor):
        return self.a(x), self.b(y), self.c(z)


class PackedStrided(nn.Module):
    """Packed sequences whose lengths (every other entry of a tensor) and batch sizes come
    as strided views."""

    def __init__(self):
        super().__init__()
        self.m = nn.GRU(3, 4)

    def forward(self, x: Tensor, lengths: Tensor):
        data, sizes = torch._VF._pack_padded_sequence(x, lengths[::2], False)
        out, h = self.m(nn.utils.rnn.PackedSequence(data, sizes, None, None))
        wide = torch.stack([out.batch_sizes, out.batch_sizes], 1)
        return torch._VF._pad_packed_sequence(out.data, wide[:, 1], False, 0.5, -1), h


class PadSequence(nn.Module):
    """nn.utils.rnn.pad_sequence and pack_sequence over sequences cut from the input, and
    unpack_sequence's inverse by hand."""

    def __init__(self):
        super().__init__()
        self.m = nn.LSTM(3, 2)

    def forward(self, x: Tensor):
        seqs = [x[:4], x[4:5], x[5:8]]
        padded = nn.utils.rnn.pad_sequence(seqs, batch_first=True, padding_value=-2.0)
        packed = nn.utils.rnn.pack_sequence(seqs, enforce_sorted=False)
        out, _ = self.m(packed)
        y, n = nn.utils.rnn.pad_packed_sequence(out)
        return padded, nn.utils.rnn.pad_sequence(seqs), y, n, packed.sorted_indices


class PadVariants(nn.Module):
    """pad_sequence's copies: other dtypes converted to the first one's, a size-1 trailing
    dim broadcast."""

    def forward(self, x: Tensor, col: Tensor):
        return (nn.utils.rnn.pad_sequence([x[:2], x[2:3].double()], False, 0.5),
                nn.utils.rnn.pad_sequence([x[:2].int(), x[2:4]], True, 1.5),
                nn.utils.rnn.pad_sequence([x[:1], col], True, -1.0))


class PackedSorted(nn.Module):
    """pack_padded_sequence of sorted lengths (enforce_sorted) on a time-major batch."""

    def __init__(self, m: nn.Module, total_length: int = 6):
        super().__init__()
        self.m = m
        self.total_length = total_length

    def forward(self, x: Tensor, lengths: Tensor):
        p = nn.utils.rnn.pack_padded_sequence(x, lengths)
        out, h = self.m(p)
        y, n = nn.utils.rnn.pad_packed_sequence(out, padding_value=-1.0,
                                                total_length=self.total_length)
        return y, n, h, out.data, out.batch_sizes


class SelfAttention(nn.Module):
    """Self-attention in eval mode without weights: the fast path's conditions."""

    def __init__(self):
        super().__init__()
        self.m = nn.MultiheadAttention(8, 2, batch_first=True)

    def forward(self, x: Tensor):
        pad = torch.zeros(x.size(0), x.size(1), dtype=torch.bool)
        pad[1, -2:] = True
        return self.m(x, x, x, key_padding_mask=pad, need_weights=False)[0]


class EncoderNested(nn.Module):
    """nn.TransformerEncoder as users build it (enable_nested_tensor left True) given a
    padding mask in eval mode under no_grad: the nested-tensor fast path (padded rows come
    out zero). With grad enabled (tscript's default, as PyTorch's) it takes the slow path."""

    def __init__(self, norm_first: bool):
        super().__init__()
        layer = nn.TransformerEncoderLayer(16, 4, 32, batch_first=True, norm_first=norm_first)
        self.enc = nn.TransformerEncoder(layer, 2)

    def forward(self, x: Tensor):
        pad = torch.zeros(x.size(0), x.size(1), dtype=torch.bool)
        pad[0, -2:] = True
        pad[2, -1] = True
        with torch.no_grad():
            y = self.enc(x, src_key_padding_mask=pad)
        return y


class TransformerMasks(nn.Module):
    def __init__(self):
        super().__init__()
        self.t = nn.Transformer(16, 4, 1, 2, 24, dropout=0.3, activation="gelu", norm_first=True)

    def forward(self, src: Tensor, tgt: Tensor):
        tmask = torch.triu(torch.full((tgt.size(0), tgt.size(0)), float("-inf")), 1)
        smask = torch.zeros(src.size(0), src.size(0))
        smask[0, 1] = float("-inf")
        spad = torch.zeros(src.size(1), src.size(0), dtype=torch.bool)
        spad[1, -1] = True
        tpad = torch.zeros(tgt.size(1), tgt.size(0), dtype=torch.bool)
        tpad[0, -1] = True
        return self.t(src, tgt, src_mask=smask, tgt_mask=tmask, src_key_padding_mask=spad,
                      tgt_key_padding_mask=tpad, memory_key_padding_mask=spad)


class DecoderStack(nn.Module):
    def __init__(self):
        super().__init__()
        layer = nn.TransformerDecoderLayer(16, 2, 32, dropout=0.1)
        self.dec = nn.TransformerDecoder(layer, 2, norm=nn.LayerNorm(16))

    def forward(self, tgt: Tensor, memory: Tensor):
        mask = torch.triu(torch.full((tgt.size(0), tgt.size(0)), float("-inf")), 1)
        return self.dec(tgt, memory, tgt_mask=mask)


class TwoActs2(nn.Module):
    """Two modules of two arguments each, on the same pair."""

    def __init__(self, a: nn.Module, b: nn.Module):
        super().__init__()
        self.a, self.b = a, b

    def forward(self, x: Tensor, y: Tensor):
        return self.a(x, y), self.b(x, y)


class LossSet(nn.Module):
    def __init__(self, classes):
        super().__init__()
        self.losses = nn.ModuleList([Losses(lambda red, c=c: c(reduction=red))
                                     for c in classes])

    def forward(self, x: Tensor, y: Tensor):
        out: List[Tuple[Tensor, Tensor, Tensor]] = []
        for m in self.losses:
            out.append(m(x, y))
        return out


class KlDiv(nn.Module):
    def __init__(self):
        super().__init__()
        self.batchmean = nn.KLDivLoss(reduction="batchmean")
        self.log_target = nn.KLDivLoss(reduction="sum", log_target=True)
        self.none = nn.KLDivLoss(reduction="none")

    def forward(self, x: Tensor, y: Tensor):
        return self.batchmean(x, y), self.log_target(x, torch.log(y)), self.none(x, y)


class PoissonGaussian(nn.Module):
    def __init__(self):
        super().__init__()
        self.poisson = nn.PoissonNLLLoss(log_input=False, full=True, reduction="none")
        self.poisson_log = nn.PoissonNLLLoss()
        self.gauss = nn.GaussianNLLLoss(full=True, eps=1e-4, reduction="sum")

    def forward(self, x: Tensor, y: Tensor, var: Tensor):
        return self.poisson(y, y.round()), self.poisson_log(x, y), self.gauss(x, y, var)


class ThreeInputLosses(nn.Module):
    def __init__(self):
        super().__init__()
        self.triplet = nn.TripletMarginLoss(margin=0.5, p=1.5, swap=True, reduction="none")
        self.cosine = nn.CosineEmbeddingLoss(margin=0.2, reduction="sum")
        self.ranking = nn.MarginRankingLoss(margin=0.1, reduction="none")

    def forward(self, a: Tensor, p: Tensor, n: Tensor):
        y = torch.sign(a[:, 0])
        return (self.triplet(a, p, n), self.cosine(a, p, y),
                self.ranking(a[:, 1], p[:, 1], y))


class CtcLoss(nn.Module):
    def __init__(self):
        super().__init__()
        self.mean = nn.CTCLoss(blank=0, reduction="mean")
        self.none = nn.CTCLoss(blank=0, reduction="none", zero_infinity=True)

    def forward(self, lp: Tensor, targets: Tensor, il: Tensor, tl: Tensor):
        return self.mean(lp, targets, il, tl), self.none(lp, targets, il, tl)


class Tied(nn.Module):
    """A language model's tied weights: the output layer's weight is the embedding's, which
    max_norm renormalizes in place, so that the output layer sees the change."""

    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 6, max_norm=0.5)
        self.rnn = nn.GRU(6, 6, batch_first=True)
        self.out = nn.Linear(6, 10)
        self.out.weight = self.emb.weight

    def forward(self, i: Tensor):
        h, _ = self.rnn(self.emb(i))
        return self.out(h), self.out.weight, self.emb.weight


class Shared(nn.Module):
    """A submodule called twice and mutated in between, a buffer that is not persistent,
    and attributes of container types."""

    def __init__(self):
        super().__init__()
        self.block = nn.Sequential(nn.Linear(4, 4), nn.Tanh())
        self.register_buffer("scale", torch.full((4,), 0.5), persistent=False)
        self.sizes = [1, 2]
        self.table = {"shift": torch.arange(4.0)}
        self.pair = (3, 0.25)
        self.maybe = None

    def forward(self, x: Tensor):
        y = self.block(self.block(x)) * self.scale + self.table["shift"]
        if self.maybe is not None:
            y = y + self.maybe
        self.block[0].weight.data.mul_(2.0)
        z = self.block(x)
        return y * float(self.pair[0]) + self.pair[1], z, self.sizes


class Hyper(nn.Module):
    """A main() printing the hyperparameters and states the archive keeps of its modules."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, (3, 2), stride=2, padding=(1, 2), padding_mode="reflect")
        self.bn = nn.BatchNorm2d(4, momentum=None)
        self.lstm = nn.LSTM(3, 5, num_layers=2, bidirectional=True, proj_size=2)
        self.ln = nn.LayerNorm([4, 5], eps=1e-3)
        self.drop = nn.Dropout(0.25)
        self.up = nn.Upsample(scale_factor=2.0, mode="bilinear")
        self.pool = nn.MaxPool2d(3, 2, ceil_mode=True)
        self.emb = nn.Embedding(7, 3, padding_idx=-2)
        self.mha = nn.MultiheadAttention(8, 2, batch_first=True)

    @torch.jit.export
    def main(self):
        c = self.conv
        print(c.stride, c.padding, c.kernel_size, c.padding_mode, c.in_channels, c.groups)
        print(c._reversed_padding_repeated_twice, c.weight.shape, c.bias is None)
        print(self.bn.momentum, self.bn.eps, self.bn.num_features, self.bn.training,
              self.training, self.bn.track_running_stats, int(self.bn.num_batches_tracked))
        print(self.lstm.hidden_size, self.lstm.proj_size, self.lstm.bidirectional,
              self.lstm.num_layers, self.lstm.batch_first, len(self.lstm._flat_weights))
        print(self.ln.normalized_shape, self.ln.eps, self.drop.p, self.drop.training)
        print(self.up.mode, self.up.scale_factor, self.up.size, self.up.align_corners)
        print(self.pool.kernel_size, self.pool.stride, self.pool.ceil_mode)
        print(self.emb.padding_idx, self.emb.num_embeddings, self.emb.max_norm)
        print(self.mha.embed_dim, self.mha.num_heads, self.mha.head_dim, self.mha.batch_first,
              self.mha._qkv_same_embed_dim)
        y = self.pool(self.up(self.bn(self.conv(torch.ones(2, 3, 7, 6)))))
        print(y.shape, y.dtype)


def hyper_train():
    m = Hyper().train()
    m.drop.eval()
    return m


def bn_stats(m):
    """Running statistics and affine parameters away from their defaults."""
    with torch.no_grad():
        m.running_mean.copy_(torch.randn(m.running_mean.shape) * 0.5)
        m.running_var.copy_(torch.rand(m.running_var.shape) + 0.5)
    return affine(m)


def affine(m):
    with torch.no_grad():
        for p in m.parameters():
            p.copy_(torch.randn(p.shape))
    return m


def dtypes(v, out):
    if isinstance(v, torch.Tensor):
        out.append(str(v.dtype))
    elif isinstance(v, (list, tuple)):
        for x in v:
            dtypes(x, out)
    elif isinstance(v, dict):
        for x in v.values():
            dtypes(x, out)
    else:
        out.append(type(v).__name__)
    return out


def check(tscript, name, tmp):
    case = CASES[name]
    builder, inputs = case[0], case[1]
    mode = case[2] if len(case) > 2 else "eval"
    torch.manual_seed(0)
    model = builder()
    if mode == "main":
        return check_main(tscript, name, torch.jit.script(model), tmp)
    model = model.train() if mode == "train" else model.eval()
    scripted = torch.jit.script(model)
    if mode == "frozen":
        scripted = torch.jit.freeze(scripted)
    if mode == "optimized":
        scripted = torch.jit.optimize_for_inference(scripted)
    phrase = case[3] if len(case) > 3 else None
    want, got, why = run_both([tscript], scripted, inputs, tmp, name, timeout=300,
                              raises=phrase is not None)
    if why:
        return why
    if phrase is not None:
        if phrase not in str(want):
            return "PyTorch's error lacks %r: %s" % (phrase, str(want)[-400:])
        return None if phrase in got else "tscript's error lacks %r: %s" % (phrase, got[-800:])
    a, b = dtypes(want, []), dtypes(got, [])
    if a != b:
        return "types %s, tscript returned %s" % (a, b)
    return compare(want, got)


def check_main(tscript, name, scripted, tmp):
    """The printed output of the saved module's main() in PyTorch (a child python: what
    TorchScript prints goes to the process's stdout) and in tscript, as t/outcmp.py
    compares them."""
    path = os.path.join(tmp, name + ".pt")
    torch.jit.save(scripted, path)
    run = "import sys, torch; torch.jit.load(sys.argv[1]).main()"
    ref = subprocess.run([sys.executable, "-c", run, path], capture_output=True, text=True,
                         timeout=300)
    if ref.returncode != 0:
        return "PyTorch exited %d: %s" % (ref.returncode, ref.stderr[-800:])
    got = subprocess.run([tscript, "run", path, "-f", "main"], capture_output=True, text=True,
                         timeout=300)
    if got.returncode != 0:
        return "tscript exited %d: %s" % (got.returncode, got.stderr[-1500:])
    return first_difference(ref.stdout, got.stdout)


def main():
    tscript = os.path.abspath(sys.argv[1])
    names = sys.argv[2:] or list(CASES)
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for n, name in enumerate(names, 1):
            try:
                why = check(tscript, name, tmp)
            except Exception as e:   # PyTorch itself could not script, save or run it
                why = "%s: %s" % (type(e).__name__, str(e)[-800:])
            if why is None:
                print("ok %d - %s" % (n, name))
            else:
                failed += 1
                print("not ok %d - %s" % (n, name))
                for line in why.splitlines():
                    print("# " + line)
            sys.stdout.flush()
    print("1..%d" % len(names))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
