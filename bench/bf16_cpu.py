#!/usr/bin/env python3
"""bf16_cpu.py — bfloat16 models on aten-cpu alone: tscript's warm call in bfloat16 against
its float32 one and PyTorch 1.13's bfloat16 one, and how far each bfloat16 output is from the
float32 output.

usage: bench/bf16_cpu.py --tsload PATH [--threads N] [--runs N] [MODEL...]

For each model (torchvision's by name, random weights from seed 0, batch 1, 224x224;
"transformer": a 2-layer nn.TransformerEncoder, d_model 256, 8 heads, the default
feed-forward of 2048, batch-first, over 128 tokens) the float32 and the bfloat16
(model.to(torch.bfloat16)) archives are written once; tscript runs them warm in process
(bench/tsload, best of --runs calls) under a config of prim and aten-cpu only, so that no
convolution or product goes to oneDNN; PyTorch runs the same archives under torch.no_grad().
Both sides use --threads threads (default 1). Accuracy: the largest absolute difference of
each bfloat16 output (tscript's, PyTorch's) from PyTorch's float32 output, and between the
two bfloat16 outputs, against the float32 output's largest magnitude. A benchmark, not a
test: never part of make check.
"""
import argparse
import os
import subprocess
import sys
import tempfile

import torch

TORCH_SIDE = r"""
import sys, time, torch
torch.set_num_threads(int(sys.argv[3]))
m = torch.jit.load(sys.argv[1])
x = torch.load(sys.argv[2])
with torch.no_grad():
    m(x)
    best = 1e30
    for _ in range(int(sys.argv[4])):
        a = time.perf_counter(); m(x); best = min(best, time.perf_counter() - a)
print(best)
"""


def make(name, out):
    """The float32 and bfloat16 archives of a model and their inputs (the same values)."""
    torch.manual_seed(0)
    if name == "transformer":
        layer = torch.nn.TransformerEncoderLayer(d_model=256, nhead=8, batch_first=True)
        model = torch.nn.TransformerEncoder(layer, num_layers=2).eval()
        shape = (1, 128, 256)
    else:
        import torchvision
        model = getattr(torchvision.models, name)(weights=None).eval()
        shape = (1, 3, 224, 224)
    torch.manual_seed(1)
    x = torch.randn(*shape)
    paths = {}
    for tag, dtype in (("f32", torch.float32), ("bf16", torch.bfloat16)):
        path = os.path.join(out, "%s_%s.pt" % (name, tag))
        torch.jit.save(torch.jit.script(model.to(dtype)), path)
        inp = os.path.join(out, "%s_%s_x.pt" % (name, tag))
        torch.save(x.to(dtype), inp)
        paths[tag] = (path, inp)
    return paths


def tscript_warm(a, env, path, inp):
    """Best warm call in seconds (bench/tsload's fourth figure)."""
    r = subprocess.run([a.tsload, path, inp, str(a.runs)], capture_output=True, text=True,
                       check=True, env=env)
    return float(r.stdout.split()[3])


def torch_warm(a, env, path, inp):
    r = subprocess.run([sys.executable, "-c", TORCH_SIDE, path, inp, str(a.threads),
                        str(a.runs)], capture_output=True, text=True, check=True, env=env)
    return float(r.stdout.split()[0])


def accuracy(paths, ours_out):
    """Largest |difference| of ours and PyTorch's bfloat16 outputs from the float32 one, of
    ours from PyTorch's bfloat16 one, and the float32 output's largest magnitude."""
    with torch.no_grad():
        want = torch.jit.load(paths["f32"][0])(torch.load(paths["f32"][1])).double()
        theirs = torch.jit.load(paths["bf16"][0])(torch.load(paths["bf16"][1])).double()
    ours = torch.load(ours_out).double()
    return ((ours - want).abs().max().item(), (theirs - want).abs().max().item(),
            (ours - theirs).abs().max().item(), want.abs().max().item())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tsload", required=True)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("models", nargs="*",
                    default=["resnet18", "mobilenet_v2", "squeezenet1_1", "transformer"])
    a = ap.parse_args()
    tscript = os.path.join(os.path.dirname(os.path.abspath(a.tsload)), "..", "tscript")
    n = str(a.threads)
    torch.set_num_threads(a.threads)
    with tempfile.TemporaryDirectory() as tmp:
        config = os.path.join(tmp, "cpu.yaml")
        with open(config, "w") as f:
            f.write("plugins: [prim, aten-cpu]\n")
        env = dict(os.environ, TSCRIPT_NUM_THREADS=n, TSCRIPT_CONFIG=config)
        # Debian's PyTorch reaches OpenBLAS as the generic libblas, which set_num_threads
        # does not limit (bench/models.py says more)
        torch_env = dict(os.environ, OPENBLAS_NUM_THREADS=n, OMP_NUM_THREADS=n)
        print("%d thread(s), warm call, best of %d, ms; tscript with prim and aten-cpu only"
              % (a.threads, a.runs))
        print("%-14s %10s %10s %10s %10s   %s" % ("model", "ts bf16", "ts f32", "pt bf16",
                                                  "pt f32", "max |bf16 - f32| ours / "
                                                  "PyTorch's, ours - PyTorch's bf16, max|f32|"))
        for name in a.models:
            paths = make(name, tmp)
            ts_bf = tscript_warm(a, env, *paths["bf16"])
            ts_f = tscript_warm(a, env, *paths["f32"])
            pt_bf = torch_warm(a, torch_env, *paths["bf16"])
            pt_f = torch_warm(a, torch_env, *paths["f32"])
            out = os.path.join(tmp, "out.pt")
            subprocess.run([tscript, "run", paths["bf16"][0], "@" + paths["bf16"][1], "-o",
                            out], check=True, env=env)
            ours, theirs, vs, scale = accuracy(paths, out)
            print("%-14s %10.1f %10.1f %10.1f %10.1f   %.3g / %.3g, %.3g, %.3g" %
                  (name, ts_bf * 1e3, ts_f * 1e3, pt_bf * 1e3, pt_f * 1e3, ours, theirs, vs,
                   scale))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
