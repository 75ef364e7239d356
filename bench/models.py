#!/usr/bin/env python3
"""models.py — loading and running models saved by torch.jit.save: PyTorch 1.13 against
tscript, in one run.

usage: bench/models.py --tsload PATH --tscript PATH [--threads N,...] [--runs N]
                       [--dtype fp32|bf16] [MODEL...]

For each model (torchvision's, random weights from seed 0, batch 1, 224x224; "transformer":
a 2-layer nn.TransformerEncoder, d_model 256, over 128 tokens) the archive
is written once, then both sides load it in a fresh process of their own:
  - load: torch.jit.load against ts_module_load (bench/tsload), and how much the process's
    resident memory grew by loading (tscript maps the archive: the weights are not read);
  - first call of forward (PyTorch's profiling run; tscript compiles the methods it
    reaches), then the best of N warm calls, both under torch.no_grad() for PyTorch;
  - whole processes: `tscript run MODEL.pt @INPUT.pt` against python3 loading and calling
    the model once, wall time and peak RSS;
  - the warm call again without oneDNN: a config that leaves plugins/aten-dnnl out, so that
    the convolutions run on aten-cpu's im2col + GEMM (where tscript was built without oneDNN
    both rows are that).
Each thread count of --threads (default 1,2) is a run of its own; both sides use the same
count (torch.set_num_threads with OPENBLAS_NUM_THREADS and OMP_NUM_THREADS,
TSCRIPT_NUM_THREADS). Ratios are PyTorch's figure over tscript's. A benchmark, not a test:
never part of make check.

--dtype bf16 runs each model in bfloat16 too (model.to(torch.bfloat16), a bfloat16 input;
PyTorch computes it on its mkldnn kernels) and prints the warm calls only: PyTorch and
tscript in float32 and in bfloat16, tscript's bfloat16 speedup over its own float32
(float32 time / bfloat16 time) and PyTorch's bfloat16 time over tscript's.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

TORCH_SIDE = r"""
import sys, time, torch
torch.set_num_threads(int(sys.argv[3]))
def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4
x = torch.load(sys.argv[2])
r0 = rss(); t0 = time.perf_counter()
m = torch.jit.load(sys.argv[1])
t1 = time.perf_counter(); r1 = rss()
with torch.no_grad():
    m(x)
    t2 = time.perf_counter()
    best = 1e30
    for _ in range(int(sys.argv[4])):
        a = time.perf_counter(); m(x); best = min(best, time.perf_counter() - a)
print(t1 - t0, r1 - r0, t2 - t1, best)
"""

WHOLE_TORCH = r"""
import sys, torch
torch.set_num_threads(int(sys.argv[3]))
m = torch.jit.load(sys.argv[1])
with torch.no_grad():
    m(torch.load(sys.argv[2]))
"""


def make(name, out, dtype="fp32"):
    """The archive and the input of a model: torchvision's by name (batch 1, 224x224), or
    "transformer", a 2-layer nn.TransformerEncoder (d_model 256, 8 heads, feed-forward
    1024, batch-first) over one sequence of 128 tokens; in bfloat16 for dtype "bf16"."""
    import torch
    torch.manual_seed(0)
    if name == "transformer":
        layer = torch.nn.TransformerEncoderLayer(d_model=256, nhead=8, dim_feedforward=1024,
                                                 batch_first=True)
        model = torch.nn.TransformerEncoder(layer, num_layers=2).eval()
        shape = (1, 128, 256)
    else:
        import torchvision
        model = getattr(torchvision.models, name)(weights=None).eval()
        shape = (1, 3, 224, 224)
    x = torch.randn(*shape, generator=torch.Generator().manual_seed(1))
    if dtype == "bf16":
        model, x = model.to(torch.bfloat16), x.to(torch.bfloat16)
        name += "_bf16"
    path = os.path.join(out, name + ".pt")
    torch.jit.save(torch.jit.script(model), path)
    inp = os.path.join(out, name + "_x.pt")
    torch.save(x, inp)
    return path, inp


def whole(cmd, env=None):
    """Wall seconds and peak RSS (KB) of a whole process, from /usr/bin/time."""
    t0 = time.perf_counter()
    r = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, capture_output=True, text=True,
                       env=env)
    took = time.perf_counter() - t0
    if r.returncode != 0:
        raise RuntimeError(" ".join(cmd) + ": " + r.stderr[-500:])
    return took, int(r.stderr.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tsload", required=True)
    ap.add_argument("--tscript", required=True)
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--dtype", choices=["fp32", "bf16"], default="fp32")
    ap.add_argument("models", nargs="*",
                    default=["resnet18", "mobilenet_v2", "squeezenet1_1", "transformer"])
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        plain = os.path.join(tmp, "without-dnnl.yaml")
        with open(plain, "w") as f:
            f.write("plugins: [prim, aten-cpu, fuser-cpu]\n")
        made = {name: make(name, tmp) for name in a.models}
        if a.dtype == "bf16":
            made16 = {name: make(name, tmp, "bf16") for name in a.models}
        for threads in (int(t) for t in a.threads.split(",")):
            if a.dtype == "bf16":
                print("%d threads; warm calls, best of %d, in ms" % (threads, a.runs))
                for name in a.models:
                    run_bf16(a, name, made[name], made16[name], threads)
                continue
            print("%d threads; times in ms, memory in MB; ratio = PyTorch / tscript" % threads)
            for name in a.models:
                run_model(a, name, made[name], threads, plain, tmp)


def warm_calls(a, made, threads):
    """PyTorch's and tscript's best warm call of a model, in seconds."""
    model, inp = made
    env = dict(os.environ, TSCRIPT_NUM_THREADS=str(threads))
    torch_env = dict(os.environ, OPENBLAS_NUM_THREADS=str(threads),
                     OMP_NUM_THREADS=str(threads))
    py = subprocess.run([sys.executable, "-c", TORCH_SIDE, model, inp, str(threads),
                         str(a.runs)], capture_output=True, text=True, check=True, env=torch_env)
    ours = subprocess.run([a.tsload, model, inp, str(a.runs)], capture_output=True, text=True,
                          check=True, env=env)
    return float(py.stdout.split()[3]), float(ours.stdout.split()[3])


def run_bf16(a, name, made32, made16, threads):
    """One model at one thread count in float32 and bfloat16: the warm calls, as a row."""
    p32, t32 = warm_calls(a, made32, threads)
    p16, t16 = warm_calls(a, made16, threads)
    print("  %-14s PyTorch fp32 %8.1f bf16 %8.1f   tscript fp32 %8.1f bf16 %8.1f   "
          "tscript fp32/bf16 %5.2fx   PyTorch bf16 / tscript bf16 %5.2fx" %
          (name, p32 * 1e3, p16 * 1e3, t32 * 1e3, t16 * 1e3, t32 / t16, p16 / t16))
    sys.stdout.flush()


def run_model(a, name, made, threads, plain, tmp):
    """One model at one thread count: both sides' figures, as rows."""
    model, inp = made
    env = dict(os.environ, TSCRIPT_NUM_THREADS=str(threads))
    # torch.set_num_threads does not reach Debian's PyTorch's BLAS (OpenBLAS, loaded as the
    # generic libblas): without these its matrix products use every core whatever the
    # thread count says
    torch_env = dict(os.environ, OPENBLAS_NUM_THREADS=str(threads),
                     OMP_NUM_THREADS=str(threads))
    args = [model, inp, str(threads), str(a.runs)]
    py = subprocess.run([sys.executable, "-c", TORCH_SIDE] + args, capture_output=True,
                        text=True, check=True, env=torch_env)
    tl, tr, tf, ts = (float(v) for v in py.stdout.split())
    ours = subprocess.run([a.tsload, model, inp, str(a.runs)], capture_output=True, text=True,
                          check=True, env=env)
    ol, orss, of, os_ = (float(v) for v in ours.stdout.split())
    no = subprocess.run([a.tsload, model, inp, str(a.runs)], capture_output=True, text=True,
                        check=True, env=dict(env, TSCRIPT_CONFIG=plain))
    ns = float(no.stdout.split()[3])
    wt, wm = whole([sys.executable, "-c", WHOLE_TORCH] + args[:3], torch_env)
    ot, om = whole([a.tscript, "run", model, "@" + inp, "-o", os.path.join(tmp, "out.npy")],
                   env)
    print("%s (archive %.1f MB)" % (name, os.path.getsize(model) / 1e6))
    rows = [("load", tl * 1e3, ol * 1e3), ("memory added by loading", tr / 1e3, orss / 1e3),
            ("first call (tscript: compiles)", tf * 1e3, of * 1e3),
            ("warm call, best of %d" % a.runs, ts * 1e3, os_ * 1e3),
            ("whole process", wt * 1e3, ot * 1e3),
            ("whole process peak RSS", wm / 1e3, om / 1e3),
            ("warm call without oneDNN", ts * 1e3, ns * 1e3)]
    for what, p, t in rows:
        print("  %-32s PyTorch %9.1f   tscript %9.1f   ratio %6.2fx" %
              (what, p, t, p / t if t > 0 else float("inf")))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
