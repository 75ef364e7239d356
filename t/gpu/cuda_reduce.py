# cuda_reduce.py — the reductions, softmax, normalizations and joining/indexing operators of
# aten-cuda, run once with default_backend: cpu and once with cuda (t/aten_cuda.sh compares
# the numbers). Inputs are made contiguous, transposed (strided) and in several dtypes.
import torch
from typing import List


def show(name: str, t: torch.Tensor):
    values: List[float] = t.to(torch.float64).cpu().flatten().tolist()
    print(name, t.dtype, t.shape, values)


def reductions():
    x = (torch.arange(24).view(2, 3, 4).to(torch.float32) - 11.0) / 4.0
    xt = x.transpose(0, 2)
    i = torch.arange(24).view(2, 3, 4) % 7 - 3
    show("sum", x.sum())
    show("sum_dim", x.sum(1))
    show("sum_dims", x.sum([0, 2]))
    show("sum_keep", x.sum(-1, keepdim=True))
    show("sum_t", xt.sum(1))
    show("sum_t_dims", xt.sum([0, 2], keepdim=True))
    show("sum_int", i.sum())
    show("sum_int_dim", i.to(torch.int32).sum(0))
    show("sum_dtype", i.sum(1, dtype=torch.float64))
    show("sum_int32", torch.sum(i, dtype=torch.int32))
    show("sum_bool", (x > 0).sum(2))
    show("sum_half", x.to(torch.float16).sum(1))
    show("sum_empty", torch.zeros([0, 3]).sum(0))
    show("mean", x.mean())
    show("mean_dim", x.mean([1, 2]))
    show("mean_t", xt.mean(0, keepdim=True))
    show("mean_dtype", i.mean(0, dtype=torch.float32))
    show("mean_double", x.double().mean(2))
    show("prod", (x / 2 + 1).prod())
    show("prod_dim", (x / 2).prod(1))
    show("prod_int", (i + 4).prod(2))
    show("amax", x.amax())
    show("amax_dims", x.amax([0, 1]))
    show("amin_t", xt.amin(1, keepdim=True))
    show("max_all", xt.max())
    show("min_int", i.min())
    v, ix = xt.max(1)
    show("max_dim_v", v)
    show("max_dim_i", ix)
    v, ix = i.min(0, keepdim=True)
    show("min_dim_v", v)
    show("min_dim_i", ix)
    show("argmax", x.argmax())
    show("argmax_dim", xt.argmax(2))
    show("argmin_dim", i.argmin(1, keepdim=True))
    show("argmin_t", i.transpose(1, 2).argmin())
    ties = torch.tensor([[1.0, 3.0, 3.0, 0.0], [2.0, 2.0, -1.0, -1.0]])
    show("argmax_ties", ties.argmax(1))
    show("argmin_ties", ties.argmin(1))
    show("std", x.std())
    show("std_dim", x.std(1))
    show("std_biased", x.std([0, 2], False))
    show("var", xt.var())
    show("var_dim_keep", xt.var(0, keepdim=True))
    show("var_corr", torch.var(x, [2], correction=0))
    sm = torch.std_mean(x, [1])
    show("std_mean_s", sm[0])
    show("std_mean_m", sm[1])
    vm = torch.var_mean(xt, 2, True)
    show("var_mean_v", vm[0])
    show("var_mean_m", vm[1])
    show("norm", x.norm())
    show("norm_1", x.norm(1, 1))
    show("norm_inf", torch.norm(xt, float("inf"), [0, 1]))
    show("norm_3", torch.norm(x, 3.0, 2, True))
    show("vnorm", torch.linalg.vector_norm(xt, 2.0, [1]))
    show("all", (x != 0).all())
    show("all_dim", (i != 0).all(1))
    show("any_dim", (x > 2).any(2))
    show("any_t", (xt > 2).any(0))
    show("any_u8", (i > 2).to(torch.uint8).any(1))
    big = torch.arange(100000).to(torch.float32) % 13 - 6.0
    show("sum_big", big.sum())
    show("max_big", big.argmax())
    show("var_big", big.var())
    tall = (torch.arange(6000).view(3000, 2) % 11).to(torch.float32)
    show("sum_tall", tall.sum(0))
    show("argmin_tall", tall.argmin(0))


def softmax_norms():
    x = (torch.arange(24).view(2, 3, 4).to(torch.float32) - 11.0) / 4.0
    xt = x.transpose(0, 2)
    show("softmax_last", torch.softmax(x, -1))
    show("softmax_mid", torch.softmax(x, 1))
    show("softmax_first_t", torch.softmax(xt, 0))
    show("log_softmax", torch.log_softmax(x, 2))
    show("log_softmax_t", torch.log_softmax(xt, 1))
    show("softmax_double", torch.softmax(x.double() * 30, 0))
    show("softmax_dtype", torch.softmax(x, 1, dtype=torch.float64))
    rows = torch.arange(3000).to(torch.float32).view(10, 300) / 100
    show("log_softmax_rows", torch.log_softmax(rows, 1).sum(1))
    w = torch.arange(4).to(torch.float32) / 4 + 0.5
    b = torch.arange(4).to(torch.float32) - 1.5
    show("layer_norm", torch.layer_norm(x, [4], w, b))
    show("layer_norm_2d", torch.layer_norm(xt, [3, 2]))
    show("layer_norm_t", torch.layer_norm(xt * xt, [2], None, None, 1e-3))
    c = torch.arange(3).to(torch.float32) + 1
    rm = torch.zeros([3])
    rv = torch.ones([3])
    show("batch_norm_eval", torch.batch_norm(x, c, c - 2, c / 4, c, False, 0.1, 1e-5, True))
    show("batch_norm_train", torch.batch_norm(x, c, None, rm, rv, True, 0.1, 1e-5, True))
    show("batch_norm_rm", rm)
    show("batch_norm_rv", rv)
    show("batch_norm_2d", torch.batch_norm(x.transpose(1, 2), None, None, None, None, True,
                                           0.1, 1e-5, True))
    g = torch.arange(48).view(2, 4, 6).to(torch.float32) % 7
    gw = torch.arange(4).to(torch.float32) + 1
    show("group_norm", torch.group_norm(g, 2, gw, gw / 2))
    show("group_norm_t", torch.group_norm(g.transpose(1, 2).contiguous().transpose(1, 2), 4))


def joins():
    x = (torch.arange(24).view(2, 3, 4).to(torch.float32) - 11.0) / 4.0
    i = torch.arange(24).view(2, 3, 4) % 7 - 3
    show("cat0", torch.cat([x, x * 2], 0))
    show("cat1_t", torch.cat([x.transpose(1, 2), x[:, :2, :].transpose(1, 2)], 2))
    show("cat_promote", torch.cat([i, x], -1))
    show("cat_empty", torch.cat([torch.zeros([0]), x.flatten(), torch.zeros([0])]))
    show("stack0", torch.stack([x[0], x[1]]))
    show("stack_last", torch.stack([x, x.neg()], 3))
    show("stack_mid_t", torch.stack([x.transpose(0, 1), i.transpose(0, 1).double()], 1))
    ix = torch.tensor([2, 0, 2])
    show("index_select0", x.index_select(1, ix))
    show("index_select_t", x.transpose(0, 2).index_select(0, ix))
    show("index_select_i32", i.index_select(2, ix.to(torch.int32)))
    show("index_select_half", x.to(torch.float16).index_select(2, torch.tensor([3, 1])))
    g = torch.tensor([[[0, 2, 1, 0]], [[1, 1, 0, 2]]])
    show("gather1", x.gather(1, g))
    show("gather_t", x.transpose(1, 2).gather(2, g.transpose(1, 2).expand(2, 4, 2)))
    show("gather_last", i.gather(-1, torch.tensor([[[3, 0], [1, 1], [2, 0]]]).expand(2, 3, 2)))


def main():
    reductions()
    softmax_norms()
    joins()
