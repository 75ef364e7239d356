# torch.nn.functional.py — torch.nn.functional as TorchScript, shipped by the aten plugins.
#
# PyTorch writes these functions in Python (torch/nn/functional.py) and scripts the ones a
# program calls; tscript's frontend does the same with this file (core/frontend/library.c):
# it is parsed when a program first names torch.nn.functional, a function is compiled on its
# first call and inlined into the caller, where the caller's constants decide the branches
# (F.relu(x) is aten::relu(%x)). The file's name is the module it defines; a plugin names
# it among its schema files. Written from PyTorch 1.13's documented semantics: argument
# names and defaults are PyTorch's, and so are the messages of what they refuse.
#
# The functions PyTorch registers as the aten builtin itself (F.linear, F.conv2d, ...) are
# not here: a name this file does not define is aten::NAME. Two of PyTorch's helpers are
# understood by the frontend: BroadcastingListN[T], a List[T] that a single T fills (schema
# T[N]), and `f = boolean_dispatch('arg', index, default, if_true, if_false)`, which picks a
# function by a constant bool argument (core/frontend/library.c); and so is
# torch.jit._overload, which declares the typed signatures of one implementation
# (F.interpolate's size and scale_factor are each a number or a list).

import math

import torch
from torch import Tensor
from torch.jit import _overload
from typing import List, Optional, Tuple


# ---- reductions (torch.nn._reduction) ----------------------------------------------------

def _reduction_enum(reduction: str) -> int:
    # the reduction string as the operators' int
    if reduction == 'none':
        ret = 0
    elif reduction == 'mean' or reduction == 'elementwise_mean':
        ret = 1
    elif reduction == 'sum':
        ret = 2
    else:
        ret = -1
        raise ValueError("{} is not a valid value for reduction".format(reduction))
    return ret


def _legacy_reduction_enum(size_average: Optional[bool], reduce: Optional[bool]) -> int:
    # the deprecated size_average and reduce, None meaning True
    averaged = True
    if size_average is not None:
        averaged = size_average
    reduced = True
    if reduce is not None:
        reduced = reduce
    if not reduced:
        ret = 0
    elif averaged:
        ret = 1
    else:
        ret = 2
    return ret


def _loss_reduction(size_average: Optional[bool], reduce: Optional[bool], reduction: str) -> int:
    if size_average is not None or reduce is not None:
        ret = _legacy_reduction_enum(size_average, reduce)
    else:
        ret = _reduction_enum(reduction)
    return ret


# ---- losses ---------------------------------------------------------------------------------

def cross_entropy(input: Tensor, target: Tensor, weight: Optional[Tensor] = None,
                  size_average: Optional[bool] = None, ignore_index: int = -100,
                  reduce: Optional[bool] = None, reduction: str = 'mean',
                  label_smoothing: float = 0.0) -> Tensor:
    return torch.cross_entropy_loss(input, target, weight,
                                    _loss_reduction(size_average, reduce, reduction),
                                    ignore_index, label_smoothing)


def nll_loss(input: Tensor, target: Tensor, weight: Optional[Tensor] = None,
             size_average: Optional[bool] = None, ignore_index: int = -100,
             reduce: Optional[bool] = None, reduction: str = 'mean') -> Tensor:
    return torch.nll_loss_nd(input, target, weight,
                             _loss_reduction(size_average, reduce, reduction), ignore_index)


def mse_loss(input: Tensor, target: Tensor, size_average: Optional[bool] = None,
             reduce: Optional[bool] = None, reduction: str = 'mean') -> Tensor:
    return torch.mse_loss(input, target, _loss_reduction(size_average, reduce, reduction))


def l1_loss(input: Tensor, target: Tensor, size_average: Optional[bool] = None,
            reduce: Optional[bool] = None, reduction: str = 'mean') -> Tensor:
    return torch.l1_loss(input, target, _loss_reduction(size_average, reduce, reduction))


def smooth_l1_loss(input: Tensor, target: Tensor, size_average: Optional[bool] = None,
                   reduce: Optional[bool] = None, reduction: str = 'mean',
                   beta: float = 1.0) -> Tensor:
    return torch.smooth_l1_loss(input, target,
                                _loss_reduction(size_average, reduce, reduction), beta)


def huber_loss(input: Tensor, target: Tensor, reduction: str = 'mean',
               delta: float = 1.0) -> Tensor:
    return torch.huber_loss(input, target, _reduction_enum(reduction), delta)


def binary_cross_entropy(input: Tensor, target: Tensor, weight: Optional[Tensor] = None,
                         size_average: Optional[bool] = None, reduce: Optional[bool] = None,
                         reduction: str = 'mean') -> Tensor:
    reduction_enum = _loss_reduction(size_average, reduce, reduction)
    if target.size() != input.size():
        raise ValueError("Using a target size ({}) that is different to the input size ({}) is "
                         "deprecated. Please ensure they have the same size.".format(
                             target.size(), input.size()))
    if weight is not None:
        weight = weight.expand(torch._C._infer_size(target.size(), weight.size()))
    return torch.binary_cross_entropy(input, target, weight, reduction_enum)


def binary_cross_entropy_with_logits(input: Tensor, target: Tensor,
                                     weight: Optional[Tensor] = None,
                                     size_average: Optional[bool] = None,
                                     reduce: Optional[bool] = None, reduction: str = 'mean',
                                     pos_weight: Optional[Tensor] = None) -> Tensor:
    reduction_enum = _loss_reduction(size_average, reduce, reduction)
    if not (target.size() == input.size()):
        raise ValueError("Target size ({}) must be the same as input size ({})".format(
            target.size(), input.size()))
    return torch.binary_cross_entropy_with_logits(input, target, weight, pos_weight,
                                                  reduction_enum)


def kl_div(input: Tensor, target: Tensor, size_average: Optional[bool] = None,
           reduce: Optional[bool] = None, reduction: str = 'mean',
           log_target: bool = False) -> Tensor:
    # 'batchmean' sums, then divides by the batch size
    if size_average is not None or reduce is not None:
        reduction_enum = _legacy_reduction_enum(size_average, reduce)
    elif reduction == 'batchmean':
        reduction_enum = 2
    else:
        reduction_enum = _reduction_enum(reduction)
    reduced = torch.kl_div(input, target, reduction_enum, log_target=log_target)
    if reduction == 'batchmean' and input.dim() != 0:
        reduced = reduced / input.size(0)
    return reduced


# ---- normalization --------------------------------------------------------------------------

def batch_norm(input: Tensor, running_mean: Optional[Tensor], running_var: Optional[Tensor],
               weight: Optional[Tensor] = None, bias: Optional[Tensor] = None,
               training: bool = False, momentum: float = 0.1, eps: float = 1e-05) -> Tensor:
    if training:
        # more than one value per channel: numel / C of them (no channel: nothing to check)
        size = input.size()
        channels = input.size(1)
        if input.numel() == channels and channels != 0:
            raise ValueError("Expected more than 1 value per channel when training, "
                             "got input size {}".format(size))
    return torch.batch_norm(input, weight, bias, running_mean, running_var, training,
                            momentum, eps, True)


def instance_norm(input: Tensor, running_mean: Optional[Tensor] = None,
                  running_var: Optional[Tensor] = None, weight: Optional[Tensor] = None,
                  bias: Optional[Tensor] = None, use_input_stats: bool = True,
                  momentum: float = 0.1, eps: float = 1e-05) -> Tensor:
    if use_input_stats:
        # more than one spatial element: numel / (N * C) of them
        size = input.size()
        planes = input.size(0) * input.size(1)
        if input.numel() == planes and planes != 0:
            raise ValueError("Expected more than 1 spatial element when training, "
                             "got input size {}".format(size))
    return torch.instance_norm(input, weight, bias, running_mean, running_var,
                               use_input_stats, momentum, eps, True)


def layer_norm(input: Tensor, normalized_shape: List[int], weight: Optional[Tensor] = None,
               bias: Optional[Tensor] = None, eps: float = 1e-05) -> Tensor:
    return torch.layer_norm(input, normalized_shape, weight, bias, eps, True)


def group_norm(input: Tensor, num_groups: int, weight: Optional[Tensor] = None,
               bias: Optional[Tensor] = None, eps: float = 1e-05) -> Tensor:
    return torch.group_norm(input, num_groups, weight, bias, eps, True)


def normalize(input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12,
              out: Optional[Tensor] = None) -> Tensor:
    if out is None:
        denom = torch.norm(input, p, [dim], True).clamp_min(eps).expand_as(input)
        return input / denom
    denom = torch.norm(input, p, [dim], True).clamp_min_(eps).expand_as(input)
    return torch.div(input, denom, out=out)


# ---- dropout --------------------------------------------------------------------------------

def _check_dropout_p(p: float) -> None:
    # every dropout refuses p outside [0, 1] before it looks at its input
    if p < 0.0 or p > 1.0:
        raise ValueError("dropout probability has to be between 0 and 1, but got {}".format(p))


def dropout(input: Tensor, p: float = 0.5, training: bool = True,
            inplace: bool = False) -> Tensor:
    _check_dropout_p(p)
    if inplace:
        result = torch.dropout_(input, p, training)
    else:
        result = torch.dropout(input, p, training)
    return result


def alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False,
                  inplace: bool = False) -> Tensor:
    _check_dropout_p(p)
    if inplace:
        result = torch.alpha_dropout_(input, p, training)
    else:
        result = torch.alpha_dropout(input, p, training)
    return result


def feature_alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False,
                          inplace: bool = False) -> Tensor:
    _check_dropout_p(p)
    if inplace:
        result = torch.feature_alpha_dropout_(input, p, training)
    else:
        result = torch.feature_alpha_dropout(input, p, training)
    return result


def dropout1d(input: Tensor, p: float = 0.5, training: bool = True,
              inplace: bool = False) -> Tensor:
    _check_dropout_p(p)
    # 2-d and 3-d inputs only (an unbatched 2-d one needs no unsqueeze here:
    # feature_dropout takes it as it is)
    if input.dim() != 2 and input.dim() != 3:
        raise RuntimeError("dropout1d: Expected 2D or 3D input, but received a {}D input. "
                           "Note that dropout1d exists to provide channel-wise dropout on "
                           "inputs with 1 spatial dimension, a channel dimension, and an "
                           "optional batch dimension (i.e. 2D or 3D inputs).".format(input.dim()))
    if inplace:
        result = torch.feature_dropout_(input, p, training)
    else:
        result = torch.feature_dropout(input, p, training)
    return result


def dropout2d(input: Tensor, p: float = 0.5, training: bool = True,
              inplace: bool = False) -> Tensor:
    _check_dropout_p(p)
    if inplace:
        result = torch.feature_dropout_(input, p, training)
    else:
        result = torch.feature_dropout(input, p, training)
    return result


def dropout3d(input: Tensor, p: float = 0.5, training: bool = True,
              inplace: bool = False) -> Tensor:
    _check_dropout_p(p)
    if inplace:
        result = torch.feature_dropout_(input, p, training)
    else:
        result = torch.feature_dropout(input, p, training)
    return result


# ---- lookup ---------------------------------------------------------------------------------

def embedding(input: Tensor, weight: Tensor, padding_idx: Optional[int] = None,
              max_norm: Optional[float] = None, norm_type: float = 2.0,
              scale_grad_by_freq: bool = False, sparse: bool = False) -> Tensor:
    # padding_idx None is -1; a negative one counts from the end of the table
    if padding_idx is None:
        pad = -1
    else:
        pad = padding_idx
        if pad > 0:
            assert pad < weight.size(0), "Padding_idx must be within num_embeddings"
        elif pad < 0:
            assert pad >= -weight.size(0), "Padding_idx must be within num_embeddings"
            pad = weight.size(0) + pad
    if max_norm is not None:
        # PyTorch renorms the looked-up rows through aten::_no_grad_embedding_renorm_, whose
        # schema declares no write: its scripting drops the unused call as dead code, so a
        # scripted embedding with max_norm reads the table as it is. Its contiguous input
        # stays.
        input = input.contiguous()
    return torch.embedding(weight, input, pad, scale_grad_by_freq, sparse)



def embedding_bag(input: Tensor, weight: Tensor, offsets: Optional[Tensor] = None,
                  max_norm: Optional[float] = None, norm_type: float = 2.0,
                  scale_grad_by_freq: bool = False, mode: str = "mean", sparse: bool = False,
                  per_sample_weights: Optional[Tensor] = None,
                  include_last_offset: bool = False,
                  padding_idx: Optional[int] = None) -> Tensor:
    # a 2-d input is a batch of bags of equal length: flattened, with one offset per row
    if per_sample_weights is not None and input.size() != per_sample_weights.size():
        raise ValueError("embedding_bag: If per_sample_weights ({}) is not None, then it must "
                         "have the same shape as the input ({})".format(
                             per_sample_weights.shape, input.shape))
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated "
                             "is a mini-batch of fixed length sequences. However, found "
                             "offsets of type <unknown>")
        bags = torch.arange(0, input.numel(), input.size(1), dtype=input.dtype,
                            device=input.device)
        flat = input.reshape(-1)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        bags = offsets
        if bags.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
        flat = input
    else:
        raise ValueError("input has to be 1D or 2D Tensor, but got Tensor of dimension {}".format(
            input.dim()))
    if mode == "sum":
        mode_enum = 0
    elif mode == "mean":
        mode_enum = 1
    elif mode == "max":
        mode_enum = 2
        if scale_grad_by_freq:
            raise ValueError("max mode does not support scaling the gradient by the frequency")
        if sparse:
            raise ValueError("max mode does not support sparse weights")
    else:
        raise ValueError("mode has to be one of sum, mean or max")
    # max_norm: as embedding's, the renorm PyTorch's scripting drops (see there)
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError("embedding_bag: per_sample_weights was not None. "
                                  "per_sample_weights is only supported for mode='sum' "
                                  "(got mode='{}'). Please open a feature request on "
                                  "GitHub.".format(mode))
    ret, _, _, _ = torch.embedding_bag(weight, flat, bags, scale_grad_by_freq, mode_enum, sparse,
                                       per_sample_weights, include_last_offset, padding_idx)
    return ret

# ---- activations: inplace=True is the op_ variant ----------------------------------------

def relu(input: Tensor, inplace: bool = False) -> Tensor:
    if inplace:
        result = torch.relu_(input)
    else:
        result = torch.relu(input)
    return result


def relu6(input: Tensor, inplace: bool = False) -> Tensor:
    if inplace:
        result = torch.relu6_(input)
    else:
        result = torch.relu6(input)
    return result


def selu(input: Tensor, inplace: bool = False) -> Tensor:
    if inplace:
        result = torch.selu_(input)
    else:
        result = torch.selu(input)
    return result


def silu(input: Tensor, inplace: bool = False) -> Tensor:
    if inplace:
        result = torch.silu_(input)
    else:
        result = torch.silu(input)
    return result


def mish(input: Tensor, inplace: bool = False) -> Tensor:
    if inplace:
        result = torch.mish_(input)
    else:
        result = torch.mish(input)
    return result


def hardswish(input: Tensor, inplace: bool = False) -> Tensor:
    if inplace:
        result = torch.hardswish_(input)
    else:
        result = torch.hardswish(input)
    return result


def hardsigmoid(input: Tensor, inplace: bool = False) -> Tensor:
    if inplace:
        result = torch.hardsigmoid_(input)
    else:
        result = torch.hardsigmoid(input)
    return result


def celu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    if inplace:
        result = torch.celu_(input, alpha)
    else:
        result = torch.celu(input, alpha)
    return result


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    if inplace:
        result = torch.elu_(input, alpha)
    else:
        result = torch.elu(input, alpha)
    return result


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    if inplace:
        result = torch.leaky_relu_(input, negative_slope)
    else:
        result = torch.leaky_relu(input, negative_slope)
    return result


def hardtanh(input: Tensor, min_val: float = -1.0, max_val: float = 1.0,
             inplace: bool = False) -> Tensor:
    if inplace:
        result = torch.hardtanh_(input, min_val, max_val)
    else:
        result = torch.hardtanh(input, min_val, max_val)
    return result


def threshold(input: Tensor, threshold: float, value: float, inplace: bool = False) -> Tensor:
    if inplace:
        result = torch.threshold_(input, threshold, value)
    else:
        result = torch.threshold(input, threshold, value)
    return result


def rrelu(input: Tensor, lower: float = 0.125, upper: float = 0.3333333333333333,
          training: bool = False, inplace: bool = False) -> Tensor:
    if inplace:
        result = torch.rrelu_(input, lower, upper, training, None)
    else:
        result = torch.rrelu(input, lower, upper, training, None)
    return result


def gelu(input: Tensor, approximate: str = 'none') -> Tensor:
    return torch.gelu(input, approximate=approximate)


def glu(input: Tensor, dim: int = -1) -> Tensor:
    if input.dim() == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    return torch.glu(input, dim)


def logsigmoid(input: Tensor) -> Tensor:
    return torch.log_sigmoid(input)


def sigmoid(input: Tensor) -> Tensor:
    return torch.sigmoid(input)


def tanh(input: Tensor) -> Tensor:
    return torch.tanh(input)


def tanhshrink(input: Tensor) -> Tensor:
    return input - input.tanh()


def softsign(input: Tensor) -> Tensor:
    return input / (input.abs() + 1)


# ---- softmax ---------------------------------------------------------------------------------

def _softmax_dim(ndim: int) -> int:
    # torch's implicit choice for dim=None (which PyTorch warns is deprecated)
    if ndim == 0 or ndim == 1 or ndim == 3:
        ret = 0
    else:
        ret = 1
    return ret


def softmax(input: Tensor, dim: Optional[int] = None, _stacklevel: int = 3,
            dtype: Optional[int] = None) -> Tensor:
    if dim is None:
        d = _softmax_dim(input.dim())
    else:
        d = dim
    return torch.softmax(input, d, dtype)


def log_softmax(input: Tensor, dim: Optional[int] = None, _stacklevel: int = 3,
                dtype: Optional[int] = None) -> Tensor:
    if dim is None:
        d = _softmax_dim(input.dim())
    else:
        d = dim
    return torch.log_softmax(input, d, dtype)


def softmin(input: Tensor, dim: Optional[int] = None, _stacklevel: int = 3,
            dtype: Optional[int] = None) -> Tensor:
    if dim is None:
        d = _softmax_dim(input.dim())
    else:
        d = dim
    return torch.softmax(-input, d, dtype)


def gumbel_softmax(logits: Tensor, tau: float = 1, hard: bool = False, eps: float = 1e-10,
                   dim: int = -1) -> Tensor:
    # softmax of (logits + Gumbel(0, 1) noise) / tau; hard: the one-hot of each argmax,
    # carrying the soft values' gradient (eps is unused, as in PyTorch)
    gumbels = -torch.empty_like(logits).exponential_().log()
    y_soft = ((logits + gumbels) / tau).softmax(dim)
    if hard:
        index = y_soft.max(dim, keepdim=True)[1]
        y_hard = torch.zeros_like(logits).scatter_(dim, index, 1.0)
        return y_hard - y_soft.detach() + y_soft
    return y_soft


# ---- pooling: return_indices is PyTorch's boolean dispatch -------------------------------

def max_pool1d_with_indices(input: Tensor, kernel_size: BroadcastingList1[int],
                            stride: Optional[BroadcastingList1[int]] = None,
                            padding: BroadcastingList1[int] = 0,
                            dilation: BroadcastingList1[int] = 1, ceil_mode: bool = False,
                            return_indices: bool = False) -> Tuple[Tensor, Tensor]:
    # stride None is the empty list: the operator's "as kernel_size"
    if stride is None:
        s: List[int] = []
    else:
        s = stride
    return torch.max_pool1d_with_indices(input, kernel_size, s, padding, dilation, ceil_mode)


def _max_pool1d(input: Tensor, kernel_size: BroadcastingList1[int],
                stride: Optional[BroadcastingList1[int]] = None,
                padding: BroadcastingList1[int] = 0, dilation: BroadcastingList1[int] = 1,
                ceil_mode: bool = False, return_indices: bool = False) -> Tensor:
    if stride is None:
        s: List[int] = []
    else:
        s = stride
    return torch.max_pool1d(input, kernel_size, s, padding, dilation, ceil_mode)


max_pool1d = boolean_dispatch('return_indices', 6, False, max_pool1d_with_indices, _max_pool1d)


def max_pool2d_with_indices(input: Tensor, kernel_size: BroadcastingList2[int],
                            stride: Optional[BroadcastingList2[int]] = None,
                            padding: BroadcastingList2[int] = 0,
                            dilation: BroadcastingList2[int] = 1, ceil_mode: bool = False,
                            return_indices: bool = False) -> Tuple[Tensor, Tensor]:
    if stride is None:
        s: List[int] = []
    else:
        s = stride
    return torch.max_pool2d_with_indices(input, kernel_size, s, padding, dilation, ceil_mode)


def _max_pool2d(input: Tensor, kernel_size: BroadcastingList2[int],
                stride: Optional[BroadcastingList2[int]] = None,
                padding: BroadcastingList2[int] = 0, dilation: BroadcastingList2[int] = 1,
                ceil_mode: bool = False, return_indices: bool = False) -> Tensor:
    if stride is None:
        s: List[int] = []
    else:
        s = stride
    return torch.max_pool2d(input, kernel_size, s, padding, dilation, ceil_mode)


max_pool2d = boolean_dispatch('return_indices', 6, False, max_pool2d_with_indices, _max_pool2d)


def max_pool3d_with_indices(input: Tensor, kernel_size: BroadcastingList3[int],
                            stride: Optional[BroadcastingList3[int]] = None,
                            padding: BroadcastingList3[int] = 0,
                            dilation: BroadcastingList3[int] = 1, ceil_mode: bool = False,
                            return_indices: bool = False) -> Tuple[Tensor, Tensor]:
    if stride is None:
        s: List[int] = []
    else:
        s = stride
    return torch.max_pool3d_with_indices(input, kernel_size, s, padding, dilation, ceil_mode)


def _max_pool3d(input: Tensor, kernel_size: BroadcastingList3[int],
                stride: Optional[BroadcastingList3[int]] = None,
                padding: BroadcastingList3[int] = 0, dilation: BroadcastingList3[int] = 1,
                ceil_mode: bool = False, return_indices: bool = False) -> Tensor:
    if stride is None:
        s: List[int] = []
    else:
        s = stride
    return torch.max_pool3d(input, kernel_size, s, padding, dilation, ceil_mode)


max_pool3d = boolean_dispatch('return_indices', 6, False, max_pool3d_with_indices, _max_pool3d)


def adaptive_max_pool1d_with_indices(input: Tensor, output_size: BroadcastingList1[int],
                                     return_indices: bool = False) -> Tuple[Tensor, Tensor]:
    return torch.adaptive_max_pool1d(input, output_size)


def _adaptive_max_pool1d(input: Tensor, output_size: BroadcastingList1[int],
                         return_indices: bool = False) -> Tensor:
    return torch.adaptive_max_pool1d(input, output_size)[0]


adaptive_max_pool1d = boolean_dispatch('return_indices', 2, False,
                                       adaptive_max_pool1d_with_indices, _adaptive_max_pool1d)


def adaptive_max_pool2d_with_indices(input: Tensor, output_size: BroadcastingList2[int],
                                     return_indices: bool = False) -> Tuple[Tensor, Tensor]:
    return torch.adaptive_max_pool2d(input, output_size)


def _adaptive_max_pool2d(input: Tensor, output_size: BroadcastingList2[int],
                         return_indices: bool = False) -> Tensor:
    return torch.adaptive_max_pool2d(input, output_size)[0]


adaptive_max_pool2d = boolean_dispatch('return_indices', 2, False,
                                       adaptive_max_pool2d_with_indices, _adaptive_max_pool2d)


def adaptive_max_pool3d_with_indices(input: Tensor, output_size: BroadcastingList3[int],
                                     return_indices: bool = False) -> Tuple[Tensor, Tensor]:
    return torch.adaptive_max_pool3d(input, output_size)


def _adaptive_max_pool3d(input: Tensor, output_size: BroadcastingList3[int],
                         return_indices: bool = False) -> Tensor:
    return torch.adaptive_max_pool3d(input, output_size)[0]


adaptive_max_pool3d = boolean_dispatch('return_indices', 2, False,
                                       adaptive_max_pool3d_with_indices, _adaptive_max_pool3d)


# ---- sliding blocks --------------------------------------------------------------------------

def unfold(input: Tensor, kernel_size: BroadcastingList2[int],
           dilation: BroadcastingList2[int] = 1, padding: BroadcastingList2[int] = 0,
           stride: BroadcastingList2[int] = 1) -> Tensor:
    return torch.im2col(input, kernel_size, dilation, padding, stride)


def fold(input: Tensor, output_size: BroadcastingList2[int], kernel_size: BroadcastingList2[int],
         dilation: BroadcastingList2[int] = 1, padding: BroadcastingList2[int] = 0,
         stride: BroadcastingList2[int] = 1) -> Tensor:
    return torch.col2im(input, output_size, kernel_size, dilation, padding, stride)


# ---- resampling --------------------------------------------------------------------------
# size (int or list) and scale_factor (float or list): four overloads of one implementation.
# The mode picks the operator and the input's rank its 1d/2d/3d form; size and scale_factor
# become the per-dimension lists of the operators' .vec overloads.

@_overload
def interpolate(input: Tensor, size: Optional[int] = None,
                scale_factor: Optional[List[float]] = None, mode: str = 'nearest',
                align_corners: Optional[bool] = None,
                recompute_scale_factor: Optional[bool] = None,
                antialias: bool = False) -> Tensor:
    pass


@_overload
def interpolate(input: Tensor, size: Optional[List[int]] = None,
                scale_factor: Optional[List[float]] = None, mode: str = 'nearest',
                align_corners: Optional[bool] = None,
                recompute_scale_factor: Optional[bool] = None,
                antialias: bool = False) -> Tensor:
    pass


@_overload
def interpolate(input: Tensor, size: Optional[int] = None,
                scale_factor: Optional[float] = None, mode: str = 'nearest',
                align_corners: Optional[bool] = None,
                recompute_scale_factor: Optional[bool] = None,
                antialias: bool = False) -> Tensor:
    pass


@_overload
def interpolate(input: Tensor, size: Optional[List[int]] = None,
                scale_factor: Optional[float] = None, mode: str = 'nearest',
                align_corners: Optional[bool] = None,
                recompute_scale_factor: Optional[bool] = None,
                antialias: bool = False) -> Tensor:
    pass


def interpolate(input: Tensor, size: Optional[int] = None,
                scale_factor: Optional[List[float]] = None, mode: str = 'nearest',
                align_corners: Optional[bool] = None,
                recompute_scale_factor: Optional[bool] = None,
                antialias: bool = False) -> Tensor:
    # align_corners belongs to the interpolating modes, where None is False
    corners = False
    if mode == 'nearest' or mode == 'area' or mode == 'nearest-exact':
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating "
                             "modes: linear | bilinear | bicubic | trilinear")
    elif align_corners is not None:
        corners = align_corners
    spatial = input.dim() - 2
    # exactly one of size and scale_factor, as a list of one item per spatial dimension
    output_size: Optional[List[int]] = None
    scale_factors: Optional[List[float]] = None
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    elif size is not None:
        if isinstance(size, List[int]):
            if len(size) != spatial:
                raise ValueError("Input and output must have the same number of spatial "
                                 "dimensions, but got input with spatial dimensions of {} and "
                                 "output size of {}. Please provide input tensor in (N, C, d1, "
                                 "d2, ...,dK) format and output size in (o1, o2, ...,oK) "
                                 "format.".format(input.size()[2:], size))
            output_size = size
        else:
            output_size = [size for _ in range(spatial)]
    elif scale_factor is not None:
        if isinstance(scale_factor, List[float]):
            if len(scale_factor) != spatial:
                raise ValueError("Input and scale_factor must have the same number of spatial "
                                 "dimensions, but got input with spatial dimensions of {} and "
                                 "scale_factor of shape {}. Please provide input tensor in (N, "
                                 "C, d1, d2, ...,dK) format and scale_factor in (s1, s2, ...,sK) "
                                 "format.".format(input.size()[2:], scale_factor))
            scale_factors = scale_factor
        else:
            scale_factors = [scale_factor for _ in range(spatial)]
    else:
        raise ValueError("either size or scale_factor should be defined")
    recompute = False
    if recompute_scale_factor is not None:
        recompute = recompute_scale_factor
    if recompute and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    # 'area' is an adaptive pooling to a size: a scale becomes one, as recomputing does
    if mode == 'area' and output_size is None:
        recompute = True
    if recompute:
        # the output size from the scales, which the operator then recomputes from it
        scales = scale_factors
        if scales is None:
            raise ValueError("either size or scale_factor should be defined")
        output_size = [int(math.floor(float(input.size(i + 2)) * scales[i]))
                       for i in range(spatial)]
        scale_factors = None
    if antialias and not ((mode == 'bilinear' or mode == 'bicubic') and input.dim() == 4):
        raise ValueError("Anti-alias option is only supported for bilinear and bicubic modes")
    rank = input.dim()
    if mode == 'nearest':
        if rank == 3:
            return torch.ops.aten.upsample_nearest1d(input, output_size, scale_factors)
        if rank == 4:
            return torch.ops.aten.upsample_nearest2d(input, output_size, scale_factors)
        if rank == 5:
            return torch.ops.aten.upsample_nearest3d(input, output_size, scale_factors)
    if mode == 'nearest-exact':
        if rank == 3:
            return torch.ops.aten._upsample_nearest_exact1d(input, output_size, scale_factors)
        if rank == 4:
            return torch.ops.aten._upsample_nearest_exact2d(input, output_size, scale_factors)
        if rank == 5:
            return torch.ops.aten._upsample_nearest_exact3d(input, output_size, scale_factors)
    if mode == 'area' and rank >= 3 and rank <= 5:
        pooled = output_size
        if pooled is None:
            raise ValueError("either size or scale_factor should be defined")
        if rank == 3:
            return torch.ops.aten.adaptive_avg_pool1d(input, pooled)
        if rank == 4:
            return torch.ops.aten.adaptive_avg_pool2d(input, pooled)
        return torch.ops.aten.adaptive_avg_pool3d(input, pooled)
    if mode == 'linear' and rank == 3:
        return torch.ops.aten.upsample_linear1d(input, output_size, corners, scale_factors)
    if mode == 'bilinear' and rank == 4:
        if antialias:
            return torch.ops.aten._upsample_bilinear2d_aa(input, output_size, corners,
                                                          scale_factors)
        return torch.ops.aten.upsample_bilinear2d(input, output_size, corners, scale_factors)
    if mode == 'trilinear' and rank == 5:
        return torch.ops.aten.upsample_trilinear3d(input, output_size, corners, scale_factors)
    if mode == 'bicubic' and rank == 4:
        if antialias:
            return torch.ops.aten._upsample_bicubic2d_aa(input, output_size, corners,
                                                         scale_factors)
        return torch.ops.aten.upsample_bicubic2d(input, output_size, corners, scale_factors)
    # a fixed-rank mode given another of the ranks 3 to 5 (bicubic has no message of its own)
    if rank >= 3 and rank <= 5:
        if mode == 'linear':
            raise NotImplementedError("Got {}D input, but linear mode needs 3D input".format(rank))
        if mode == 'bilinear':
            raise NotImplementedError("Got {}D input, but bilinear mode needs 4D input".format(rank))
        if mode == 'trilinear':
            raise NotImplementedError("Got {}D input, but trilinear mode needs 5D input".format(rank))
    raise NotImplementedError("Input Error: Only 3D, 4D and 5D input Tensors supported (got {}D) "
                              "for the modes: nearest | linear | bilinear | bicubic | trilinear "
                              "| area | nearest-exact (got {})".format(rank, mode))


# F.upsample and its two special cases: deprecated spellings of interpolate.

@_overload
def upsample(input: Tensor, size: Optional[int] = None, scale_factor: Optional[float] = None,
             mode: str = 'nearest', align_corners: Optional[bool] = None) -> Tensor:
    pass


@_overload
def upsample(input: Tensor, size: Optional[List[int]] = None,
             scale_factor: Optional[float] = None, mode: str = 'nearest',
             align_corners: Optional[bool] = None) -> Tensor:
    pass


def upsample(input: Tensor, size: Optional[int] = None, scale_factor: Optional[float] = None,
             mode: str = 'nearest', align_corners: Optional[bool] = None) -> Tensor:
    return interpolate(input, size, scale_factor, mode, align_corners)


@_overload
def upsample_nearest(input: Tensor, size: Optional[int] = None,
                     scale_factor: Optional[float] = None) -> Tensor:
    pass


@_overload
def upsample_nearest(input: Tensor, size: Optional[List[int]] = None,
                     scale_factor: Optional[float] = None) -> Tensor:
    pass


def upsample_nearest(input: Tensor, size: Optional[int] = None,
                     scale_factor: Optional[float] = None) -> Tensor:
    return interpolate(input, size, scale_factor, mode='nearest')


@_overload
def upsample_bilinear(input: Tensor, size: Optional[int] = None,
                      scale_factor: Optional[float] = None) -> Tensor:
    pass


@_overload
def upsample_bilinear(input: Tensor, size: Optional[List[int]] = None,
                      scale_factor: Optional[float] = None) -> Tensor:
    pass


@_overload
def upsample_bilinear(input: Tensor, size: Optional[int] = None,
                      scale_factor: Optional[List[float]] = None) -> Tensor:
    pass


@_overload
def upsample_bilinear(input: Tensor, size: Optional[List[int]] = None,
                      scale_factor: Optional[List[float]] = None) -> Tensor:
    pass


def upsample_bilinear(input: Tensor, size: Optional[int] = None,
                      scale_factor: Optional[float] = None) -> Tensor:
    return interpolate(input, size, scale_factor, mode='bilinear', align_corners=True)


# ---- more losses (aten kernels: schemas/aten_loss.yaml) --------------------------------------

def _reduction_string(size_average: Optional[bool], reduce: Optional[bool], reduction: str) -> str:
    # the deprecated size_average and reduce as a reduction string, when either is given
    if size_average is None and reduce is None:
        return reduction
    enum = _legacy_reduction_enum(size_average, reduce)
    if enum == 0:
        return 'none'
    if enum == 1:
        return 'mean'
    return 'sum'


def cosine_embedding_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0,
                          size_average: Optional[bool] = None, reduce: Optional[bool] = None,
                          reduction: str = 'mean') -> Tensor:
    return torch.cosine_embedding_loss(input1, input2, target, margin,
                                       _loss_reduction(size_average, reduce, reduction))


def hinge_embedding_loss(input: Tensor, target: Tensor, margin: float = 1.0,
                         size_average: Optional[bool] = None, reduce: Optional[bool] = None,
                         reduction: str = 'mean') -> Tensor:
    return torch.hinge_embedding_loss(input, target, margin,
                                      _loss_reduction(size_average, reduce, reduction))


def margin_ranking_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0,
                        size_average: Optional[bool] = None, reduce: Optional[bool] = None,
                        reduction: str = 'mean') -> Tensor:
    reduction_enum = _loss_reduction(size_average, reduce, reduction)
    # the three must have one rank (their sizes may still broadcast)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError("margin_ranking_loss : All input tensors should have same dimension "
                           "but got sizes: input1: {}, input2: {}, target: {} ".format(
                               input1.size(), input2.size(), target.size()))
    return torch.margin_ranking_loss(input1, input2, target, margin, reduction_enum)


def soft_margin_loss(input: Tensor, target: Tensor, size_average: Optional[bool] = None,
                     reduce: Optional[bool] = None, reduction: str = 'mean') -> Tensor:
    return torch.soft_margin_loss(input, target, _loss_reduction(size_average, reduce, reduction))


def triplet_margin_loss(anchor: Tensor, positive: Tensor, negative: Tensor, margin: float = 1.0,
                        p: float = 2.0, eps: float = 1e-6, swap: bool = False,
                        size_average: Optional[bool] = None, reduce: Optional[bool] = None,
                        reduction: str = 'mean') -> Tensor:
    return torch.triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap,
                                     _loss_reduction(size_average, reduce, reduction))


# PyTorch declares its distance function and the rest keyword-only with defaults, which
# TorchScript cannot compile: a script calling it fails to compile, here with the same
# message; the body is never compiled.
def triplet_margin_with_distance_loss(anchor: Tensor, positive: Tensor, negative: Tensor, *,
                                      distance_function: Optional[Tensor] = None,
                                      margin: float = 1.0, swap: bool = False,
                                      reduction: str = "mean") -> Tensor:
    raise RuntimeError("triplet_margin_with_distance_loss cannot be scripted")


def poisson_nll_loss(input: Tensor, target: Tensor, log_input: bool = True, full: bool = False,
                     size_average: Optional[bool] = None, eps: float = 1e-8,
                     reduce: Optional[bool] = None, reduction: str = 'mean') -> Tensor:
    reduction = _reduction_string(size_average, reduce, reduction)
    if reduction != 'none' and reduction != 'mean' and reduction != 'sum':
        raise ValueError(reduction + " is not valid")
    return torch.poisson_nll_loss(input, target, log_input, full, eps, _reduction_enum(reduction))


def gaussian_nll_loss(input: Tensor, target: Tensor, var: Tensor, full: bool = False,
                      eps: float = 1e-6, reduction: str = 'mean') -> Tensor:
    # var is input's size (heteroscedastic), or input's without the last dim, or that with a
    # last dim of 1 (one variance per sample: homoscedastic)
    if var.size() != input.size():
        if input.size()[:-1] == var.size():
            var = torch.unsqueeze(var, -1)
        elif input.size()[:-1] == var.size()[:-1] and var.size(-1) == 1:
            pass
        else:
            raise ValueError("var is of incorrect size")
    if reduction != 'none' and reduction != 'mean' and reduction != 'sum':
        raise ValueError(reduction + " is not valid")
    if torch.any(var < 0):
        raise ValueError("var has negative entry/entries")
    var = var.clone()
    var.clamp_(min=eps)
    loss = 0.5 * (torch.log(var) + (input - target) ** 2 / var)
    if full:
        loss += 0.5 * math.log(2 * math.pi)
    if reduction == 'mean':
        return loss.mean()
    elif reduction == 'sum':
        return loss.sum()
    return loss


def multi_margin_loss(input: Tensor, target: Tensor, p: int = 1, margin: float = 1.0,
                      weight: Optional[Tensor] = None, size_average: Optional[bool] = None,
                      reduce: Optional[bool] = None, reduction: str = 'mean') -> Tensor:
    reduction_enum = _loss_reduction(size_average, reduce, reduction)
    if p != 1 and p != 2:
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None:
        if weight.dim() != 1:
            raise ValueError("weight must be one-dimensional")
    return torch.multi_margin_loss(input, target, p, margin, weight, reduction_enum)


def multilabel_margin_loss(input: Tensor, target: Tensor, size_average: Optional[bool] = None,
                           reduce: Optional[bool] = None, reduction: str = 'mean') -> Tensor:
    return torch.multilabel_margin_loss(input, target,
                                        _loss_reduction(size_average, reduce, reduction))


def multilabel_soft_margin_loss(input: Tensor, target: Tensor, weight: Optional[Tensor] = None,
                                size_average: Optional[bool] = None,
                                reduce: Optional[bool] = None,
                                reduction: str = 'mean') -> Tensor:
    reduction = _reduction_string(size_average, reduce, reduction)
    # the binary logistic loss of each class, averaged over the classes (the last dim)
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    num_classes = input.size(class_dim)
    loss = loss.sum(dim=class_dim) / num_classes
    if reduction == 'none':
        ret = loss
    elif reduction == 'mean':
        ret = loss.mean()
    elif reduction == 'sum':
        ret = loss.sum()
    else:
        ret = input
        raise ValueError(reduction + " is not valid")
    return ret


def ctc_loss(log_probs: Tensor, targets: Tensor, input_lengths: Tensor, target_lengths: Tensor,
             blank: int = 0, reduction: str = 'mean', zero_infinity: bool = False) -> Tensor:
    return torch.ctc_loss(log_probs, targets, input_lengths, target_lengths, blank,
                          _reduction_enum(reduction), zero_infinity)


# ---- local response norm, power-average pools, max unpooling ---------------------------------

def local_response_norm(input: Tensor, size: int, alpha: float = 1e-4, beta: float = 0.75,
                        k: float = 1.0) -> Tensor:
    # each element over (k + alpha * mean of the squares of `size` neighbouring channels)^beta
    dim = input.dim()
    if dim < 3:
        raise ValueError("Expected 3D or higher dimensionality                          "
                         "input (got {} dimensions)".format(dim))
    if input.numel() == 0:
        return input
    div = input.mul(input).unsqueeze(1)
    if dim == 3:
        div = torch.constant_pad_nd(div, [0, 0, size // 2, (size - 1) // 2], 0.0)
        div = torch.avg_pool2d(div, [size, 1], [1, 1]).squeeze(1)
    else:
        sizes = input.size()
        div = div.view(sizes[0], 1, sizes[1], sizes[2], -1)
        div = torch.constant_pad_nd(div, [0, 0, 0, 0, size // 2, (size - 1) // 2], 0.0)
        div = torch.avg_pool3d(div, [size, 1, 1], [1, 1, 1]).squeeze(1)
        div = div.view(sizes)
    div = div.mul(alpha).add(k).pow(beta)
    return input / div


def lp_pool2d(input: Tensor, norm_type: float, kernel_size: BroadcastingList2[int],
              stride: Optional[BroadcastingList2[int]] = None, ceil_mode: bool = False) -> Tensor:
    # the p-norm of each window: (window mean of x^p * window size)^(1/p)
    kw = kernel_size[0]
    kh = kernel_size[1]
    if stride is not None:
        out = torch.avg_pool2d(input.pow(norm_type), kernel_size, stride, [0, 0], ceil_mode)
    else:
        out = torch.avg_pool2d(input.pow(norm_type), kernel_size, kernel_size, [0, 0], ceil_mode)
    return (torch.sign(out) * torch.relu(torch.abs(out))).mul(kw * kh).pow(1.0 / norm_type)


def lp_pool1d(input: Tensor, norm_type: float, kernel_size: int,
              stride: Optional[BroadcastingList1[int]] = None, ceil_mode: bool = False) -> Tensor:
    if stride is not None:
        out = torch.avg_pool1d(input.pow(norm_type), [kernel_size], stride, [0], ceil_mode)
    else:
        out = torch.avg_pool1d(input.pow(norm_type), [kernel_size], [kernel_size], [0],
                               ceil_mode)
    return (torch.sign(out) * torch.relu(torch.abs(out))).mul(kernel_size).pow(1.0 / norm_type)


def _unpool_output_size(input: Tensor, kernel_size: List[int], stride: List[int],
                        padding: List[int], output_size: Optional[List[int]]) -> List[int]:
    # the size each spatial dim had before pooling; an explicit one must be within a stride
    input_size = input.size()
    default_size = torch.jit.annotate(List[int], [])
    for d in range(len(kernel_size)):
        default_size.append((input_size[-len(kernel_size) + d] - 1) * stride[d]
                            + kernel_size[d] - 2 * padding[d])
    if output_size is None:
        ret = default_size
    else:
        if len(output_size) == len(kernel_size) + 2:
            output_size = output_size[2:]
        if len(output_size) != len(kernel_size):
            raise ValueError("output_size should be a sequence containing {} or {} elements, but "
                             "it has a length of '{}'".format(len(kernel_size),
                                                              len(kernel_size) + 2,
                                                              len(output_size)))
        for d in range(len(kernel_size)):
            min_size = default_size[d] - stride[d]
            max_size = default_size[d] + stride[d]
            if not (min_size < output_size[d] < max_size):
                raise ValueError('invalid output_size "{}" (dim {} must be between {} and {})'
                                 .format(output_size, d, min_size, max_size))
        ret = output_size
    return ret


def max_unpool1d(input: Tensor, indices: Tensor, kernel_size: BroadcastingList1[int],
                 stride: Optional[BroadcastingList1[int]] = None,
                 padding: BroadcastingList1[int] = 0,
                 output_size: Optional[BroadcastingList1[int]] = None) -> Tensor:
    # max_unpool2d over a trailing dim of 1
    if stride is not None:
        _stride = stride
    else:
        _stride = kernel_size
    size = _unpool_output_size(input, kernel_size, _stride, padding, output_size)
    size = size + [1]
    return torch.max_unpool2d(input.unsqueeze(-1), indices.unsqueeze(-1), size).squeeze(-1)


def max_unpool2d(input: Tensor, indices: Tensor, kernel_size: BroadcastingList2[int],
                 stride: Optional[BroadcastingList2[int]] = None,
                 padding: BroadcastingList2[int] = 0,
                 output_size: Optional[BroadcastingList2[int]] = None) -> Tensor:
    if stride is not None:
        _stride = stride
    else:
        _stride = kernel_size
    size = _unpool_output_size(input, kernel_size, _stride, padding, output_size)
    return torch.max_unpool2d(input, indices, size)


def max_unpool3d(input: Tensor, indices: Tensor, kernel_size: BroadcastingList3[int],
                 stride: Optional[BroadcastingList3[int]] = None,
                 padding: BroadcastingList3[int] = 0,
                 output_size: Optional[BroadcastingList3[int]] = None) -> Tensor:
    if stride is not None:
        _stride = stride
    else:
        _stride = kernel_size
    size = _unpool_output_size(input, kernel_size, _stride, padding, output_size)
    return torch.max_unpool3d(input, indices, size, _stride, padding)


# ---- sampling grids ------------------------------------------------------------------------

def affine_grid(theta: Tensor, size: List[int], align_corners: Optional[bool] = None) -> Tensor:
    if align_corners is None:
        align_corners = False
    if not theta.is_floating_point():
        raise ValueError("Expected theta to have floating point type, but got {}"
                         .format(theta.dtype))
    if len(size) == 4:
        if theta.dim() != 3 or theta.shape[-2] != 2 or theta.shape[-1] != 3:
            raise ValueError("Expected a batch of 2D affine matrices of shape Nx2x3 for size {}. "
                             "Got {}.".format(size, theta.shape))
        spatial_size = size[-2:]
    elif len(size) == 5:
        if theta.dim() != 3 or theta.shape[-2] != 3 or theta.shape[-1] != 4:
            raise ValueError("Expected a batch of 3D affine matrices of shape Nx3x4 for size {}. "
                             "Got {}.".format(size, theta.shape))
        spatial_size = size[-3:]
    else:
        raise NotImplementedError("affine_grid only supports 4D and 5D sizes, for 2D and 3D "
                                  "affine transforms, respectively. Got size {}.".format(size))
    if align_corners and min(spatial_size) == 1:
        pass    # PyTorch only warns: unit-size grids changed meaning in 1.3.0
    elif min(size) <= 0:
        raise ValueError("Expected non-zero, positive output size. Got {}".format(size))
    return torch.affine_grid_generator(theta, size, align_corners)


def grid_sample(input: Tensor, grid: Tensor, mode: str = 'bilinear',
                padding_mode: str = 'zeros', align_corners: Optional[bool] = None) -> Tensor:
    if mode != 'bilinear' and mode != 'nearest' and mode != 'bicubic':
        raise ValueError("nn.functional.grid_sample(): expected mode to be 'bilinear', "
                         "'nearest' or 'bicubic', but got: '{}'".format(mode))
    if padding_mode != 'zeros' and padding_mode != 'border' and padding_mode != 'reflection':
        raise ValueError("nn.functional.grid_sample(): expected padding_mode to be 'zeros', "
                         "'border', or 'reflection', but got: '{}'".format(padding_mode))
    if mode == 'bilinear':
        mode_enum = 0
    elif mode == 'nearest':
        mode_enum = 1
    else:
        mode_enum = 2
    if padding_mode == 'zeros':
        padding_mode_enum = 0
    elif padding_mode == 'border':
        padding_mode_enum = 1
    else:
        padding_mode_enum = 2
    if align_corners is None:
        align_corners = False
    return torch.grid_sampler(input, grid, mode_enum, padding_mode_enum, align_corners)
