# bf16_model.py — whole models in bfloat16 (model.to(torch.bfloat16)), saved by PyTorch 1.13
# and run by tscript: torchvision's, or the transformer blocks below (their fused fast paths,
# aten::_transformer_encoder_layer_fwd and aten::_native_multi_head_attention), random
# weights from torch.manual_seed(0), on a seeded input, compared with PyTorch's own bfloat16
# run. Two bfloat16 runs of a deep network part
# ways by more than a rounding (each layer rounds its result, and a neighbouring rounding
# moves everything after it), so the yardstick is PyTorch's own error: its bfloat16 logits
# against its float32 ones. tscript's must be as close to PyTorch's bfloat16 ones as twice
# that distance (plus 1% of the logits' magnitude). Prints TAP.
#
#     /usr/bin/python3 t/dnnl/bf16_model.py TSCRIPT CONFIG [NAME...|transformers]
import os
import subprocess
import sys
import tempfile
import warnings

from typing import Optional

import torch

warnings.simplefilter("ignore")


class Layer(torch.nn.Module):
    """A TransformerEncoderLayer (batch-first, d_model 32, 4 heads), with a key padding mask
    or without."""
    mask: Optional[torch.Tensor]

    def __init__(self, mask: Optional[torch.Tensor], **kw):
        super().__init__()
        self.layer = torch.nn.TransformerEncoderLayer(32, 4, 64, 0.0, batch_first=True, **kw)
        self.mask = mask

    def forward(self, x):
        return self.layer(x, src_key_padding_mask=self.mask)


class Attention(torch.nn.Module):
    """nn.MultiheadAttention's self-attention without the weights (its fast path)."""
    mask: Optional[torch.Tensor]

    def __init__(self, mask: Optional[torch.Tensor]):
        super().__init__()
        self.mha = torch.nn.MultiheadAttention(32, 4, batch_first=True)
        self.mask = mask

    def forward(self, x):
        return self.mha(x, x, x, key_padding_mask=self.mask, need_weights=False)[0]


class EncoderPadded(torch.nn.Module):
    """nn.TransformerEncoder over a padded batch, its mask a key padding mask, without grad:
    PyTorch's fast path makes a nested tensor of it (aten-cpu's stand-in here), each layer
    runs over the sequences' own rows and the result comes back padded with zeros."""
    mask: torch.Tensor

    def __init__(self, mask: torch.Tensor, **kw):
        super().__init__()
        layer = torch.nn.TransformerEncoderLayer(32, 4, 64, 0.0, batch_first=True, **kw)
        self.enc = torch.nn.TransformerEncoder(layer, 2)
        self.mask = mask

    def forward(self, x):
        with torch.no_grad():
            return self.enc(x, src_key_padding_mask=self.mask)


def padding():
    """Keys past 7 of the first sequence and past 4 of the second are padding."""
    return torch.arange(10).expand(2, 10) >= torch.tensor([[7], [4]])


TRANSFORMERS = {
    "encoder_layer": lambda: Layer(None),
    "encoder_layer_masked": lambda: Layer(padding()),
    "encoder_layer_gelu_norm_first": lambda: Layer(None, activation="gelu", norm_first=True),
    "encoder_layer_gelu_norm_first_masked": lambda: Layer(padding(), activation="gelu",
                                                          norm_first=True),
    "encoder_layer_relu_norm_first": lambda: Layer(padding(), norm_first=True),
    "encoder_layer_gelu": lambda: Layer(None, activation="gelu"),
    "attention": lambda: Attention(None),
    "attention_masked": lambda: Attention(padding()),
    "transformer_encoder_padded": lambda: EncoderPadded(padding()),
    "transformer_encoder": lambda: torch.nn.TransformerEncoder(
        torch.nn.TransformerEncoderLayer(64, 8, 256, 0.0, batch_first=True), 2),
}


def model_of(name):
    """The model in eval(), its parameters frozen (so that a scripted forward takes the
    fast paths whatever the grad mode), and its input."""
    torch.manual_seed(0)
    if name in TRANSFORMERS:
        model = TRANSFORMERS[name]().eval()
        shape = [2, 10, 64 if name == "transformer_encoder" else 32]
    else:
        import torchvision
        model = getattr(torchvision.models, name)(weights=None).eval()
        shape = [1, 3, 96, 96]
    for p in model.parameters():
        p.requires_grad_(False)
    torch.manual_seed(1)
    return model, torch.randn(shape)


def check(tscript, config, name, tmp):
    """None when tscript's result is within the yardstick, else why not; and a summary."""
    model, x = model_of(name)
    with torch.no_grad():
        want32 = model(x).double()
        model = model.to(torch.bfloat16)
        path = os.path.join(tmp, name + ".pt")
        torch.jit.save(torch.jit.script(model), path)
        xb = x.to(torch.bfloat16)
        want = torch.jit.load(path)(xb).double()
    inp = os.path.join(tmp, "x.pt")
    out = os.path.join(tmp, "out.pt")
    torch.save(xb, inp)
    r = subprocess.run([tscript, "--config", config, "run", path, "--output", out, "@" + inp],
                       capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        return "tscript exited %d: %s" % (r.returncode, r.stderr[-1500:]), ""
    got = torch.load(out)
    if got.dtype != torch.bfloat16 or got.shape != want.shape:
        return "a %s %s result, not bfloat16 %s" % (got.dtype, list(got.shape),
                                                    list(want.shape)), ""
    own = float((want - want32).abs().max())
    allowed = 2 * own + 1e-2 * float(want.abs().max())
    diff = float((got.double() - want).abs().max())
    summary = "max difference %.4g, PyTorch's bfloat16 from its float32 %.4g" % (diff, own)
    return (None if diff <= allowed else summary + ", allowed %.4g" % allowed), summary


def tap(names, check, what):
    """Runs check(name, tmp) -> (why not, summary) for each name as a TAP test "NAME WHAT";
    the exit status."""
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for n, name in enumerate(names, 1):
            why, summary = check(name, tmp)
            if why is None:
                print("ok %d - %s %s (%s)" % (n, name, what, summary))
            else:
                failed += 1
                print("not ok %d - %s %s" % (n, name, what))
                for line in why.splitlines():
                    print("# " + line)
    print("1..%d" % len(names))
    return 1 if failed else 0


def main():
    tscript, config = sys.argv[1], sys.argv[2]
    names = sys.argv[3:] or ["resnet18"]
    if names == ["transformers"]:
        names = list(TRANSFORMERS)
    return tap(names, lambda name, tmp: check(tscript, config, name, tmp),
               "in bfloat16 runs as in PyTorch")

if __name__ == "__main__":
    sys.exit(main())
