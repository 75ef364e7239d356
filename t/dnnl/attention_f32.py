# attention_f32.py — the float32 transformer blocks of t/dnnl/bf16_model.py (their fused fast
# paths, aten::_transformer_encoder_layer_fwd and aten::_native_multi_head_attention, with
# and without masks, relu and gelu, norm first or not), the encoder over a longer sequence
# too, saved by PyTorch 1.13 and run by tscript under CONFIG: the result is float32 and
# PyTorch's to 1e-4 (relative to the result's largest magnitude, at least 1e-5). Prints TAP;
# with LOG, appends what tscript printed (oneDNN's verbose lines, say) to it.
#
#     /usr/bin/python3 t/dnnl/attention_f32.py TSCRIPT CONFIG [LOG]
import os
import subprocess
import sys
import warnings

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bf16_model import TRANSFORMERS, model_of, tap  # noqa: E402

warnings.simplefilter("ignore")

# The shapes of bf16_model.py, and one with more rows than a vector holds and heads of 32.
CASES = [(name, None) for name in TRANSFORMERS] + [("transformer_encoder", [1, 77, 64])]


def check(tscript, config, name, shape, tmp, log):
    """None when tscript's result is PyTorch's, else why not; and a summary."""
    model, x = model_of(name)
    if shape is not None:
        torch.manual_seed(2)
        x = torch.randn(shape)
    path = os.path.join(tmp, name + ".pt")
    with torch.no_grad():
        torch.jit.save(torch.jit.script(model), path)
        want = torch.jit.load(path)(x).double()
    inp, out = os.path.join(tmp, "x.pt"), os.path.join(tmp, "out.pt")
    torch.save(x, inp)
    r = subprocess.run([tscript, "--config", config, "run", path, "--output", out, "@" + inp],
                       capture_output=True, text=True, timeout=600)
    if log:
        with open(log, "a") as f:
            f.write(r.stdout)
    if r.returncode != 0:
        return "tscript exited %d: %s" % (r.returncode, r.stderr[-1500:]), ""
    got = torch.load(out)
    if got.dtype != torch.float32 or got.shape != want.shape:
        return "a %s %s result, not float32 %s" % (got.dtype, list(got.shape),
                                                   list(want.shape)), ""
    diff = float((got.double() - want).abs().max())
    allowed = max(1e-4 * float(want.abs().max()), 1e-5)
    summary = "max difference %.3g, allowed %.3g" % (diff, allowed)
    return (None if diff <= allowed else summary), summary


def main():
    tscript, config = sys.argv[1], sys.argv[2]
    log = sys.argv[3] if len(sys.argv) > 3 else None
    shapes = dict(("%s%s" % (name, "" if shape is None else " %s" % shape), (name, shape))
                  for name, shape in CASES)
    return tap(list(shapes), lambda what, tmp: check(tscript, config, *shapes[what], tmp, log),
               "in float32 runs as in PyTorch")

if __name__ == "__main__":
    sys.exit(main())
