# torch.nn.functional.py — torch.nn.functional as TorchScript, shipped by the aten plugins.
#
# PyTorch writes these functions in Python (torch/nn/functional.py) and scripts the ones a
# program calls; tscript's frontend does the same with this file (core/frontend/library.c): it is
# parsed when a program first names torch.nn.functional, a function is compiled on its
# first call and inlined into the caller, where the caller's constants decide the branches
# (F.relu(x) is aten::relu(%x)). The file's name is the module it defines; a plugin names
# it among its schema files. Written from PyTorch 1.13's documented semantics: argument
# names and defaults are PyTorch's, and so are the messages of what they refuse.
#
# The functions PyTorch registers as the aten builtin itself (F.linear, F.conv2d, ...) are
# not here: a name this file does not define is aten::NAME. Those still lowered in C
# (interpolate, ...) are in core/frontend/functional.c. Two of PyTorch's helpers are understood by
# the frontend: BroadcastingListN[T], a List[T] that a single T fills (schema T[N]), and
# `f = boolean_dispatch('arg', index, default, if_true, if_false)`, which picks a function
# by a constant bool argument (core/frontend/library.c).

import torch
from torch import Tensor
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
    return torch.binary_cross_entropy(input, target, weight,
                                      _loss_reduction(size_average, reduce, reduction))


def binary_cross_entropy_with_logits(input: Tensor, target: Tensor,
                                     weight: Optional[Tensor] = None,
                                     size_average: Optional[bool] = None,
                                     reduce: Optional[bool] = None, reduction: str = 'mean',
                                     pos_weight: Optional[Tensor] = None) -> Tensor:
    return torch.binary_cross_entropy_with_logits(
        input, target, weight, pos_weight, _loss_reduction(size_average, reduce, reduction))


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
    if out is not None:
        raise RuntimeError("F.normalize with out= is not supported")
    denom = torch.norm(input, p, [dim], True).clamp_min(eps).expand_as(input)
    return input / denom


# ---- dropout --------------------------------------------------------------------------------

def dropout(input: Tensor, p: float = 0.5, training: bool = True,
            inplace: bool = False) -> Tensor:
    if inplace:
        result = torch.dropout_(input, p, training)
    else:
        result = torch.dropout(input, p, training)
    return result


def alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False,
                  inplace: bool = False) -> Tensor:
    if inplace:
        result = torch.alpha_dropout_(input, p, training)
    else:
        result = torch.alpha_dropout(input, p, training)
    return result


def feature_alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False,
                          inplace: bool = False) -> Tensor:
    if inplace:
        result = torch.feature_alpha_dropout_(input, p, training)
    else:
        result = torch.feature_alpha_dropout(input, p, training)
    return result


def dropout1d(input: Tensor, p: float = 0.5, training: bool = True,
              inplace: bool = False) -> Tensor:
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
    if inplace:
        result = torch.feature_dropout_(input, p, training)
    else:
        result = torch.feature_dropout(input, p, training)
    return result


def dropout3d(input: Tensor, p: float = 0.5, training: bool = True,
              inplace: bool = False) -> Tensor:
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
    if max_norm is not None:
        raise RuntimeError("F.embedding with max_norm is not supported")
    if padding_idx is None:
        pad = -1
    else:
        pad = padding_idx
        if pad < 0:
            pad = weight.size(0) + pad
    return torch.embedding(weight, input, pad, scale_grad_by_freq, sparse)


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
