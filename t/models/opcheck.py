# t/models/opcheck.py — which operators the models people ship call that tscript lacks.
#
#     /usr/bin/python3 t/models/opcheck.py [--tscript PATH] [--all] [--traced] [MODEL ...]
#
# Scripts each model below with PyTorch 1.13 (torchvision 0.14, random weights, nothing
# downloaded), in eval() and in train() mode, walks the inlined graph of every method of
# every submodule through all blocks, and collects each node's kind and, where it has one,
# its schema. With --traced the models are traced instead (torch.jit.trace in eval() on an
# example input: what a traced archive calls; the detection models do not trace and are
# left out). Operators are compared with `tscript ops` by qualified name and overload; a
# schema whose text differs from tscript's is reported too. Nodes without a schema (the
# structural prim:: nodes: If, Loop, GetAttr, ListConstruct, ...) are checked against the
# node kinds tscript's core interprets. torchvision:: operators belong to
# plugins/torchvision and are listed apart. The model's archive (torch.jit.save) is read too:
# its code/ holds functions the graphs never reach (branches pruned at scripting, helpers of
# other modes), and an operator its code names (torch.X, ops.NS.X) that tscript lacks
# entirely is reported as well. Exit status 1 when any model lacks an aten:: or prim::
# operator. --all prints every operator each model calls.
import io
import os
import re
import subprocess
import sys
import warnings
import zipfile

import torch
import torch.nn as nn
import torchvision
from torchvision.models import video
from torchvision.models import vision_transformer

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))

# Node kinds the core's emitter and interpreter handle themselves (no operator table entry).
CORE_KINDS = {
    "prim::Constant", "prim::If", "prim::Loop", "prim::GetAttr", "prim::SetAttr",
    "prim::ListConstruct", "prim::ListUnpack", "prim::TupleConstruct", "prim::TupleUnpack",
    "prim::TupleIndex", "prim::DictConstruct", "prim::CallFunction", "prim::CallMethod",
    "prim::CreateObject", "prim::RaiseException", "prim::Uninitialized", "prim::unchecked_cast",
    "prim::Return", "prim::Param", "prim::Enter", "prim::Exit", "prim::fork",
    "prim::EnumName", "prim::EnumValue", "prim::isinstance", "prim::Print",
    "aten::__is__", "aten::__isnot__", "aten::wait",
}


def vision(name, **kw):
    return getattr(torchvision.models, name)(weights=None, **kw)


def detection(name, **kw):
    return getattr(torchvision.models.detection, name)(weights=None, weights_backbone=None, **kw)


def segmentation(name):
    return getattr(torchvision.models.segmentation, name)(weights=None, weights_backbone=None)


class BagSum(nn.Module):
    """EmbeddingBag in each mode, with offsets and per-sample weights (sum only)."""

    def __init__(self):
        super().__init__()
        self.s = nn.EmbeddingBag(10, 3, mode="sum")
        self.m = nn.EmbeddingBag(10, 3, mode="mean", padding_idx=0)
        self.x = nn.EmbeddingBag(10, 3, mode="max")

    def forward(self, i: torch.Tensor, off: torch.Tensor, w: torch.Tensor):
        return self.s(i, off, w), self.m(i, off), self.x(i.view(2, -1))


MODELS = {
    "resnet18": lambda: vision("resnet18"),
    "mobilenet_v2": lambda: vision("mobilenet_v2"),
    "mobilenet_v3_small": lambda: vision("mobilenet_v3_small"),
    "squeezenet1_1": lambda: vision("squeezenet1_1"),
    "shufflenet_v2_x0_5": lambda: vision("shufflenet_v2_x0_5"),
    "densenet121": lambda: vision("densenet121"),
    "googlenet": lambda: vision("googlenet", aux_logits=False, init_weights=False),
    "efficientnet_b0": lambda: vision("efficientnet_b0"),
    "regnet_y_400mf": lambda: vision("regnet_y_400mf"),
    "mnasnet0_5": lambda: vision("mnasnet0_5"),
    "convnext_tiny": lambda: vision("convnext_tiny"),
    "vit_small": lambda: vision_transformer.VisionTransformer(
        image_size=32, patch_size=8, num_layers=2, num_heads=2, hidden_dim=32, mlp_dim=64),
    "lraspp_mobilenet_v3_large": lambda: segmentation("lraspp_mobilenet_v3_large"),
    "deeplabv3_mobilenet_v3_large": lambda: segmentation("deeplabv3_mobilenet_v3_large"),
    "fasterrcnn_mobilenet_v3_large_320_fpn":
        lambda: detection("fasterrcnn_mobilenet_v3_large_320_fpn"),
    "ssdlite320_mobilenet_v3_large": lambda: detection("ssdlite320_mobilenet_v3_large"),
    "r3d_18": lambda: video.r3d_18(weights=None),
    "transformer_encoder_layer": lambda: nn.TransformerEncoderLayer(16, 2, 32),
    "transformer_encoder": lambda: nn.TransformerEncoder(
        nn.TransformerEncoderLayer(16, 2, 32, batch_first=True), 2, enable_nested_tensor=False),
    "transformer_encoder_nested": lambda: nn.TransformerEncoder(
        nn.TransformerEncoderLayer(16, 2, 32, batch_first=True), 2),
    "transformer_decoder_layer": lambda: nn.TransformerDecoderLayer(16, 2, 32, norm_first=True),
    "lstm": lambda: nn.LSTM(4, 8, num_layers=2, bidirectional=True),
    "lstm_batch_first": lambda: nn.LSTM(4, 8, num_layers=2, bidirectional=True, batch_first=True),
    "lstm_proj": lambda: nn.LSTM(4, 8, num_layers=2, proj_size=3),
    "gru": lambda: nn.GRU(4, 8, num_layers=2, bidirectional=True),
    "gru_batch_first": lambda: nn.GRU(4, 8, num_layers=2, bidirectional=True, batch_first=True),
    "rnn_tanh": lambda: nn.RNN(4, 8, num_layers=2, bidirectional=True),
    "rnn_relu": lambda: nn.RNN(4, 8, num_layers=2, nonlinearity="relu", batch_first=True),
    "multihead_attention": lambda: nn.MultiheadAttention(16, 2),
    "multihead_attention_batch_first": lambda: nn.MultiheadAttention(16, 2, batch_first=True),
    "embedding_bag": BagSum,
    "conv_transpose2d": lambda: nn.ConvTranspose2d(4, 6, 3, stride=2, padding=1,
                                                   output_padding=1, groups=2, dilation=2),
    "group_norm": lambda: nn.GroupNorm(2, 4),
}


def tscript_ops(path):
    """{name.overload: schema text} of `tscript ops`."""
    out = subprocess.run([path, "ops"], check=True, capture_output=True, text=True).stdout
    ops = {}
    for line in out.splitlines():
        parts = line.split(None, 2)
        if len(parts) == 3:
            schema = parts[2]
            ops[schema.split("(", 1)[0]] = schema
    return ops


def walk(block, found):
    for node in block.nodes():
        schema = str(node.schema())
        found.setdefault(node.kind(), set()).add(None if schema == "(no schema)" else schema)
        for b in node.blocks():
            walk(b, found)


def graphs(scripted):
    """The inlined graph of every method of every submodule (the same code once)."""
    seen = set()
    for m in scripted.modules():
        for name in m._c._method_names():
            method = m._c._get_method(name)
            key = (m.original_name, m._c._type().qualified_name(), name)
            if key in seen:
                continue
            seen.add(key)
            yield method.inlined_graph


# Example inputs for tracing (None: the model does not trace).
TRACE_INPUTS = {
    "vit_small": lambda: (torch.randn(1, 3, 32, 32),),
    "r3d_18": lambda: (torch.randn(1, 3, 4, 32, 32),),
    "fasterrcnn_mobilenet_v3_large_320_fpn": None,
    "ssdlite320_mobilenet_v3_large": None,
    "transformer_encoder_layer": lambda: (torch.randn(5, 2, 16),),
    "transformer_encoder": lambda: (torch.randn(2, 5, 16),),
    "transformer_encoder_nested": None,      # its padding mask is a keyword argument
    "transformer_decoder_layer": lambda: (torch.randn(5, 2, 16), torch.randn(4, 2, 16)),
    "lstm": lambda: (torch.randn(5, 3, 4),),
    "lstm_batch_first": lambda: (torch.randn(3, 5, 4),),
    "lstm_proj": lambda: (torch.randn(5, 3, 4),),
    "gru": lambda: (torch.randn(5, 3, 4),),
    "gru_batch_first": lambda: (torch.randn(3, 5, 4),),
    "rnn_tanh": lambda: (torch.randn(5, 3, 4),),
    "rnn_relu": lambda: (torch.randn(3, 5, 4),),
    "multihead_attention": lambda: (torch.randn(5, 2, 16),) * 3,
    "multihead_attention_batch_first": lambda: (torch.randn(2, 5, 16),) * 3,
    "embedding_bag": lambda: (torch.tensor([1, 2, 4, 5, 4, 3, 2, 9]), torch.tensor([0, 4]),
                              torch.rand(8)),
    "conv_transpose2d": lambda: (torch.randn(1, 4, 6, 6),),
    "group_norm": lambda: (torch.randn(2, 4, 3, 3),),
}


def traced_ops(name, make):
    inputs = TRACE_INPUTS.get(name, lambda: (torch.randn(1, 3, 224, 224),))
    if inputs is None:
        return None
    torch.manual_seed(0)
    model = make().eval()
    with torch.no_grad():
        traced = torch.jit.trace(model, inputs(), check_trace=False, strict=False)
    found = {}
    graph = traced.inlined_graph
    walk(graph.block(), found)
    return found


CODE_CALL = re.compile(r"\b(?:torch|ops\.(\w+))\.(\w+)\(")


def code_ops(scripted):
    """{qualified name} of the operators the archive's code/ files call by name."""
    buf = io.BytesIO()
    torch.jit.save(scripted, buf)
    names = set()
    with zipfile.ZipFile(io.BytesIO(buf.getvalue())) as z:
        for entry in z.namelist():
            if "/code/" in entry and entry.endswith(".py"):
                text = z.read(entry).decode("utf-8", "replace")
                for ns, name in CODE_CALL.findall(text):
                    qual = "%s::%s" % (ns or "aten", name)
                    if torch._C._jit_get_schemas_for_operator(qual):
                        names.add(qual)
    return names


def model_ops(make):
    found = {}
    for train in (False, True):
        torch.manual_seed(0)
        model = make()
        model.train(train)
        scripted = torch.jit.script(model)
        for g in graphs(scripted):
            walk(g.block(), found)
        for qual in code_ops(scripted):
            found.setdefault(qual, set()).add("code")
    return found


def main(argv):
    path = os.path.join(TOP, "tscript")
    show_all = False
    traced = False
    names = []
    it = iter(argv)
    for a in it:
        if a == "--tscript":
            path = next(it)
        elif a == "--all":
            show_all = True
        elif a == "--traced":
            traced = True
        else:
            names.append(a)
    warnings.simplefilter("ignore")
    have = tscript_ops(path)
    missing_any = False
    for name in names or MODELS:
        found = traced_ops(name, MODELS[name]) if traced else model_ops(MODELS[name])
        if found is None:
            print("%s: not traceable, left out" % name)
            continue
        missing, differ, vendor, nokind = [], [], [], []
        for kind, schemas in sorted(found.items()):
            for s in sorted(schemas, key=lambda s: s or ""):
                if kind in CORE_KINDS:
                    continue
                if s == "code":
                    if kind.startswith("torchvision::"):
                        continue
                    if not any(k == kind or k.startswith(kind + ".") for k in have):
                        missing.append(kind + " (called in the archive's code)")
                    continue
                if s is None:
                    if not any(k.startswith(kind + ".") or k == kind
                                                          for k in have):
                        nokind.append(kind)
                    continue
                key = s.split("(", 1)[0]
                if key.startswith("torchvision::"):
                    vendor.append(s)
                elif key not in have:
                    missing.append(s)
                elif have[key] != s:
                    differ.append((s, have[key]))
        bad = missing or differ or nokind
        missing_any = missing_any or bool(bad)
        print("%s: %d node kinds, %s" % (name, len(found), "missing:" if bad else "complete"))
        for s in missing:
            print("  missing  " + s)
        for k in nokind:
            print("  no kind  " + k)
        for s, t in differ:
            print("  differs  " + s + "\n   tscript " + t)
        for s in vendor:
            print("  vendor   " + s)
        if show_all:
            for kind, schemas in sorted(found.items()):
                for s in sorted(schemas, key=lambda s: s or ""):
                    print("  uses     " + (kind + " (in code)" if s == "code" else s or kind))
        sys.stdout.flush()
    return 1 if missing_any else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
