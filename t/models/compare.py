# t/models/compare.py — runs the models of t/models/opcheck.py through tscript and compares
# the results with PyTorch 1.13's.
#
#     /usr/bin/python3 t/models/compare.py [--tscript PATH] [--randomize] [--no-grad]
#                                          [--keep DIR] [MODEL ...]
#
# Each model is built as opcheck.py builds it (random weights after torch.manual_seed(0)),
# scripted in eval() and saved with torch.jit.save; its inputs are saved with torch.save.
# tscript runs the archive (`tscript run MODEL.pt -o OUT.pt @IN.pt ...`, with the torchvision
# plugin for the detection models), and every tensor of its result must match PyTorch's
# within 1e-4 of the result's largest magnitude (integer tensors exactly). --randomize draws
# every parameter and buffer afresh at a scale where the outputs vary (torchvision's own
# initialisation leaves many heads near zero, or every detection score tied); --no-grad runs
# the model under torch.no_grad(), where nn.MultiheadAttention and the Transformer layers take
# their fused paths. Exit status 1 when any model fails or differs.
import os
import shutil
import subprocess
import sys
import tempfile
import warnings
from typing import List

import torch
import torch.nn as nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import opcheck  # noqa: E402

TOP = opcheck.TOP


def image(*shape):
    return lambda: (torch.randn(*shape),)


# Inputs of each model (the default: one 224x224 image).
INPUTS = {
    "vit_small": image(1, 3, 32, 32),
    "r3d_18": image(1, 3, 4, 32, 32),
    "fasterrcnn_mobilenet_v3_large_320_fpn": lambda: ([torch.rand(3, 160, 200)],),
    "ssdlite320_mobilenet_v3_large": lambda: ([torch.rand(3, 160, 200)],),
    "transformer_encoder_layer": image(5, 2, 16),
    "transformer_encoder": image(2, 5, 16),
    "transformer_encoder_nested": lambda: (torch.randn(2, 5, 16),
                                           torch.tensor([[False] * 5,
                                                         [False, False, True, True, True]])),
    "transformer_decoder_layer": lambda: (torch.randn(5, 2, 16), torch.randn(4, 2, 16)),
    "lstm": image(5, 3, 4), "lstm_batch_first": image(3, 5, 4), "lstm_proj": image(5, 3, 4),
    "gru": image(5, 3, 4), "gru_batch_first": image(3, 5, 4), "rnn_tanh": image(5, 3, 4),
    "rnn_relu": image(3, 5, 4),
    "multihead_attention": image(5, 2, 16),
    "multihead_attention_batch_first": image(2, 5, 16),
    "embedding_bag": lambda: (torch.tensor([1, 2, 4, 5, 4, 3, 2, 9]), torch.tensor([0, 4]),
                              torch.rand(8)),
    "conv_transpose2d": image(1, 4, 6, 6),
    "group_norm": image(2, 4, 3, 3),
}


class One(nn.Module):
    """A module whose forward takes one tensor (the RNN modules' forward is overloaded)."""

    def __init__(self, m, no_grad: bool = False):
        super().__init__()
        self.m = m
        self.no_grad = no_grad

    def forward(self, x: torch.Tensor):
        if self.no_grad:
            with torch.no_grad():
                return self.m(x)
        return self.m(x)


class SelfAttention(nn.Module):
    def __init__(self, m, no_grad: bool = False):
        super().__init__()
        self.m = m
        self.no_grad = no_grad

    def forward(self, x: torch.Tensor):
        if self.no_grad:
            with torch.no_grad():
                return self.m(x, x, x)
        return self.m(x, x, x)


class Decoder(nn.Module):
    def __init__(self, m, no_grad: bool = False):
        super().__init__()
        self.m = m
        self.no_grad = no_grad

    def forward(self, x: torch.Tensor, memory: torch.Tensor):
        if self.no_grad:
            with torch.no_grad():
                return self.m(x, memory)
        return self.m(x, memory)


class Images(nn.Module):
    """A detection model under torch.no_grad()."""

    def __init__(self, m):
        super().__init__()
        self.m = m

    def forward(self, images: List[torch.Tensor]):
        with torch.no_grad():
            return self.m(images)


class Padded(nn.Module):
    """TransformerEncoder with a key padding mask (the nested-tensor path under no_grad)."""

    def __init__(self, m, no_grad: bool = False):
        super().__init__()
        self.m = m
        self.no_grad = no_grad

    def forward(self, x: torch.Tensor, mask: torch.Tensor):
        if self.no_grad:
            with torch.no_grad():
                return self.m(x, src_key_padding_mask=mask)
        return self.m(x, src_key_padding_mask=mask)


WRAPPERS = {name: One for name in ("lstm", "lstm_batch_first", "lstm_proj", "gru",
                                   "gru_batch_first", "rnn_tanh", "rnn_relu")}
WRAPPERS.update(multihead_attention=SelfAttention, multihead_attention_batch_first=SelfAttention,
                transformer_decoder_layer=Decoder)


DETECTION = ("fasterrcnn_mobilenet_v3_large_320_fpn", "ssdlite320_mobilenet_v3_large")


def randomize(model, seed=1):
    """Every parameter and float buffer drawn afresh: weights ~ N(0, 1/fan_in), norm scales
    near 1, biases small, running variances in [0.5, 1)."""
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, p in model.named_parameters():
            r = torch.randn(p.shape, generator=g)
            if p.dim() > 1:
                p.copy_(r / max(1, p[0].numel()) ** 0.5)
            elif name.endswith("weight"):
                p.copy_(1 + 0.2 * r)
            else:
                p.copy_(0.2 * r)
        for name, b in model.named_buffers():
            if b.is_floating_point():
                b.copy_(torch.rand(b.shape, generator=g) * 0.5 + (0.5 if "var" in name else 0))


def build(name, no_grad, random_weights):
    torch.manual_seed(0)
    model = opcheck.MODELS[name]().eval()
    if random_weights:
        randomize(model)
    if name.startswith("fasterrcnn"):
        model.roi_heads.score_thresh = 0.0      # keep the detections random weights give
    if name == "transformer_encoder_nested":
        return Padded(model, no_grad).eval()
    if name in WRAPPERS:
        return WRAPPERS[name](model, no_grad).eval()
    if no_grad and name != "embedding_bag":    # grad mode does not reach embedding_bag
        return (Images(model) if name in DETECTION else One(model, True)).eval()
    return model


def tensors(v):
    if isinstance(v, torch.Tensor):
        return [v]
    if isinstance(v, (list, tuple)):
        return [t for x in v for t in tensors(x)]
    if isinstance(v, dict):
        return [t for k in sorted(v) for t in tensors(v[k])]
    return [] if v is None else [torch.tensor(v)]


def compare(got, want):
    """None when got matches want, else what differs."""
    a, b = tensors(got), tensors(want)
    if len(a) != len(b):
        return "%d tensors, PyTorch gave %d" % (len(a), len(b))
    for i, (x, y) in enumerate(zip(a, b)):
        if x.shape != y.shape or x.dtype != y.dtype:
            return "tensor %d is %s %s, PyTorch's %s %s" % (i, tuple(x.shape), x.dtype,
                                                           tuple(y.shape), y.dtype)
        if not y.is_floating_point():
            if not torch.equal(x, y):
                return "tensor %d (%s) differs" % (i, y.dtype)
            continue
        if y.numel():
            scale = y.abs().max().item() or 1.0
            err = (x.double() - y.double()).abs().max().item() / scale
            if not err <= 1e-4:
                return "tensor %d differs by %.2e of its largest magnitude" % (i, err)
    return None


def run(name, path, inputs, dirname, tscript):
    args = []
    for i, x in enumerate(inputs):
        f = os.path.join(dirname, "%s_in%d.pt" % (name, i))
        torch.save(x, f)
        args.append("@" + f)
    out = os.path.join(dirname, name + "_out.pt")
    config = []
    if name in DETECTION:
        config = ["--config", os.path.join(TOP, "plugins", "torchvision", "config.yaml")]
    r = subprocess.run([tscript] + config + ["run", path, "-o", out] + args,
                       capture_output=True, text=True)
    if r.returncode:
        lines = (r.stderr or r.stdout).strip().splitlines()
        return None, "tscript failed: " + (lines[-1] if lines else "exit %d" % r.returncode)
    return torch.load(out), None


def main(argv):
    tscript = os.path.join(TOP, "tscript")
    options = {"--randomize": False, "--no-grad": False}
    keep = None
    names = []
    it = iter(argv)
    for a in it:
        if a == "--tscript":
            tscript = next(it)
        elif a == "--keep":
            keep = next(it)
        elif a in options:
            options[a] = True
        else:
            names.append(a)
    warnings.simplefilter("ignore")
    import torchvision  # noqa: F401  (its operators, for the detection models in PyTorch)
    dirname = keep or tempfile.mkdtemp(prefix="tscript-models-")
    os.makedirs(dirname, exist_ok=True)
    failed = 0
    try:
        for name in names or opcheck.MODELS:
            model = build(name, options["--no-grad"], options["--randomize"])
            inputs = INPUTS.get(name, image(1, 3, 224, 224))()
            scripted = torch.jit.script(model)
            path = os.path.join(dirname, name + ".pt")
            scripted.save(path)
            want = scripted(*inputs)
            got, err = run(name, path, inputs, dirname, tscript)
            err = err or compare(got, want)
            failed += err is not None
            print("%-40s %s" % (name, err or "same as PyTorch"))
            sys.stdout.flush()
    finally:
        if not keep:
            shutil.rmtree(dirname, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
