#!/bin/sh
# countdev.sh — backend selection: with `default_backend: countdev` an LSTM cell
# (examples/lstm.py's, with t/data/countdev/lstm.py as its main) runs entirely on the
# counting test backend (t/plugins/countdev): its factory calls without device= make countdev tensors, every later call dispatches there
# by their device, and the counts of each kernel are those of the program; `--backend cpu`
# overrides the config (nothing reaches countdev, same numbers); the plugin's order in the
# config does not matter though it declares none of the aten schemas it implements; the
# interpreter calls its tscript::handoff hook around forks; and the failures: an operator
# countdev lacks, an unknown backend, a backend nobody loaded,
# kernels for schemas no plugin declares.
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${TS_BUILDDIR:-$(pwd)}
tscript=$builddir/tscript
countdev=$builddir/t/plugins/countdev/.libs/countdev.so
tmp=$(mktemp -d "${TMPDIR:-/tmp}/countdev.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
# examples/lstm.py's cell with a main of ours
prog=$tmp/lstm.py
sed '/^def main/,$d' "$srcdir/examples/lstm.py" >"$prog"
cat "$srcdir/t/data/countdev/lstm.py" >>"$prog"
n=0
failed=0

result() {  # result OK WHAT
    n=$((n + 1))
    if [ "$1" = 0 ]; then
        echo "ok $n - $2"
    else
        failed=$((failed + 1))
        echo "not ok $n - $2"
        sed 's/^/# stdout: /' "$tmp/out" | head -20
        sed 's/^/# stderr: /' "$tmp/err" | head -10
    fi
}

# run WANT_STATUS ARGS...: runs tscript, output in $tmp/out and $tmp/err
run() {
    want=$1
    shift
    "$tscript" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ "$rc" -eq "$want" ]
}

config() {  # config NAME PLUGINS [BACKEND]
    { echo "plugins: [$2]"; [ -n "$3" ] && echo "default_backend: $3"; } >"$tmp/$1.yaml"
}
config countdev "$countdev, prim, aten-cpu" countdev
config last "prim, aten-cpu, $countdev" countdev
config cpu "$countdev, prim, aten-cpu"
config nodecl "$countdev, prim" countdev
config noplugin "prim, aten-cpu" countdev

# The numbers of two outputs, equal within 1e-4.
same_numbers() {  # same_numbers FILE1 FILE2
    awk 'NR == FNR { for (i = 1; i <= NF; i++) if ($i ~ /^-?[0-9.]+(e[-+]?[0-9]+)?$/) a[++na] = $i; next }
         { for (i = 1; i <= NF; i++) if ($i ~ /^-?[0-9.]+(e[-+]?[0-9]+)?$/) b[++nb] = $i }
         END { if (na != nb || na < 16) exit 1
               for (i = 1; i <= na; i++) { d = a[i] - b[i]; if (d < -1e-4 || d > 1e-4) exit 1 } }' "$1" "$2"
}

# Every kernel call of the program, counted by hand: 2 zeros (hx, b_hh), 1 ones, 1 full,
# 3 linspace and 3 reshape (x, w_ih, w_hh); per cell step 2 mm, 2 t, 4 add, 3 mul,
# 3 sigmoid, 2 tanh, 1 chunk, for 3 steps; 2 prim::device and 2 to (the prints). These
# runs are --no-opt: the optimizer folds the constant work and shares repeated w.t() calls,
# so the optimized program calls fewer kernels (its numbers are checked the same below).
want_counts='aten::zeros 2
aten::ones 1
aten::full 1
aten::linspace 3
aten::mm 6
aten::t 6
aten::add.Tensor 12
aten::mul.Tensor 9
aten::sigmoid 9
aten::tanh 6
aten::chunk 3
aten::reshape 3
prim::device 2
aten::to.prim_Device 2
total 65'

run 0 --config "$tmp/cpu.yaml" run "$prog"
result $? "the LSTM cell on the cpu backend (countdev loaded, not the default)"
head -1 "$tmp/out" | grep -qx 'cpu cpu'
result $? "its results are cpu tensors"
cp "$tmp/out" "$tmp/cpu.out"

for cfg in countdev last; do
    run 0 --config "$tmp/$cfg.yaml" --no-opt run "$prog" -f counts
    result $? "default_backend: countdev runs the LSTM cell ($cfg in the plugin list)"
    head -1 "$tmp/out" | grep -qx 'countdev countdev'
    result $? "its results are countdev tensors ($cfg)"
    [ "$(sed -n '/^aten::zeros /,$p' "$tmp/out")" = "$want_counts" ]
    result $? "every call of the program ran a countdev kernel, as counted by hand ($cfg)"
    head -7 "$tmp/out" >"$tmp/values"
    same_numbers "$tmp/values" "$tmp/cpu.out"
    result $? "the same numbers as on the cpu backend ($cfg)"
done

run 0 --config "$tmp/countdev.yaml" run "$prog" -f counts
result $? "optimized, countdev runs the LSTM cell"
head -1 "$tmp/out" | grep -qx 'countdev countdev'
result $? "its results are countdev tensors (optimized)"
head -7 "$tmp/out" >"$tmp/values"
same_numbers "$tmp/values" "$tmp/cpu.out"
result $? "the same numbers as on the cpu backend (optimized)"

run 0 --config "$tmp/countdev.yaml" run --backend cpu "$prog" -f counts
result $? "--backend cpu overrides default_backend: countdev"
head -1 "$tmp/out" | grep -qx 'cpu cpu'
result $? "its results are cpu tensors"
grep -qx 'total 0' "$tmp/out"
result $? "and no countdev kernel ran"
run 0 --config "$tmp/cpu.yaml" run --backend=countdev "$prog"
result $? "--backend=countdev selects countdev over the config's cpu"
head -1 "$tmp/out" | grep -qx 'countdev countdev'
result $? "its results are countdev tensors"

cat >"$tmp/mixed.py" <<'PY'
import torch


def main():
    a = torch.zeros([2], device=torch.device("cpu"))
    b = torch.ones([2])
    print(a.device, b.device, torch.ops.countdev.count("aten::ones"), torch.ops.countdev.count("aten::zeros"))


def noarange():
    return torch.arange(3)


def test_on_countdev():
    assert str(torch.ones([1]).device) == "countdev"
PY
run 0 --config "$tmp/countdev.yaml" run "$tmp/mixed.py"
result $? "device= picks the backend of a factory call"
[ "$(cat "$tmp/out")" = "cpu countdev 1 0" ]
result $? "torch.zeros(device=cpu) ran on cpu, torch.ones() on countdev"
run 1 --config "$tmp/countdev.yaml" run "$tmp/mixed.py" -f noarange
result $? "an operator countdev has no kernel for fails (exit 1)"
grep -qF "aten::arange has no kernel for device type 'countdev'" "$tmp/err"
result $? "saying which operator and device"
run 0 --config "$tmp/countdev.yaml" test --backend countdev "$tmp/mixed.py"
result $? "tscript test --backend countdev"
grep -q '^ok 1 - test_on_countdev' "$tmp/out"
result $? "runs the test on countdev"
run 1 --config "$tmp/countdev.yaml" test --backend cpu "$tmp/mixed.py"
result $? "tscript test --backend cpu: the same test fails on cpu"

# Moving tensors between backends: .to(device) of a cpu tensor runs aten-cpu's kernel,
# which converts the dtype on the cpu and hands the bytes to countdev's allocator copy hook;
# countdev's own .to("cpu") makes its tensor dense and copies it out the same way.
cat >"$tmp/move.py" <<'PY'
import torch
from typing import List


def main():
    x = torch.arange(6).view(2, 3)
    y = x.to(torch.device("countdev"), torch.float32)
    print(y.device, torch.ops.countdev.count("copy:to_device"))
    z = (y + y).t().to(torch.device("cpu"))
    values: List[List[float]] = z.tolist()
    print(z.device, values, torch.ops.countdev.count("copy:to_host"))
    w = torch.ones([2]).to(y)
    print(w.device, torch.ops.countdev.count("copy:to_device"), x.cpu() is x)


def nobackend():
    return torch.ones([2]).to(torch.device("cuda"))


def nocuda():
    return torch.ones([2]).cuda()
PY
run 0 --config "$tmp/cpu.yaml" run "$tmp/move.py"
result $? "tensors move from cpu to countdev and back"
[ "$(sed -n 1p "$tmp/out")" = "countdev:0 1" ]
result $? ".to(device, dtype) of a cpu tensor: one copy in (converted on cpu: floats below), to the device's index 0"
[ "$(sed -n 2p "$tmp/out")" = "cpu [[0., 6.], [2., 8.], [4., 10.]] 1" ]
result $? "a strided countdev result comes back dense, one copy out"
[ "$(sed -n 3p "$tmp/out")" = "countdev:0 2 True" ]
result $? ".to(other) goes to other's device; .cpu() of a cpu tensor is the tensor"
run 1 --config "$tmp/cpu.yaml" run "$tmp/move.py" -f nobackend
result $? "a device no loaded plugin provides fails (exit 1)"
grep -qF "aten::to: no backend is loaded for device cuda" "$tmp/err"
result $? "saying which device"
run 1 --config "$tmp/cpu.yaml" run "$tmp/move.py" -f nocuda
result $? ".cuda() without a cuda backend fails (exit 1)"
grep -qF "aten::cuda: no backend is loaded for device cuda" "$tmp/err"
result $? "saying so"

# Values handed to another thread: the backend's tscript::handoff runs first (plugin.h),
# in the parent before a fork's task starts and in the task before it completes.
cat >"$tmp/fork.py" <<'PY'
import torch
from typing import List


def work(x: torch.Tensor) -> torch.Tensor:
    return x + x


def main():
    before = torch.ops.countdev.count("hook:handoff")
    futs: List[torch.jit.Future[torch.Tensor]] = []
    for i in range(3):
        futs.append(torch.jit.fork(work, torch.ones([2])))
    total = torch.zeros([2])
    for f in futs:
        total = total + torch.jit.wait(f)
    values: List[float] = total.to(torch.device("cpu")).tolist()
    print(torch.ops.countdev.count("hook:handoff") - before >= 6, values)
PY
run 0 --config "$tmp/countdev.yaml" run "$tmp/fork.py"
[ "$(cat "$tmp/out")" = "True [6., 6.]" ]
result $? "forks: the backend's handoff hook runs before each task starts and ends"

# A saved model on a runtime whose default backend is countdev loads there (map_location):
# its parameters' storages cross by the copy hook, a file INPUT follows, the results are
# countdev tensors with the cpu's numbers, and -o writes them from host memory.
cell=$srcdir/t/data/countdev/cell.pt
args="torch.ones([2,3]) torch.zeros([2,4]) torch.ones([2,4])"
# shellcheck disable=SC2086
run 0 --config "$tmp/cpu.yaml" run "$cell" $args
result $? "a saved model runs on the cpu backend"
cp "$tmp/out" "$tmp/cell_cpu.out"
run 0 --config "$tmp/countdev.yaml" run "$cell" -f devices
[ "$(cat "$tmp/out")" = "[countdev, countdev, countdev, countdev]" ]
result $? "default_backend: countdev loads a saved model's parameters on countdev"
run 0 --config "$tmp/cpu.yaml" run "$cell" -f devices
[ "$(cat "$tmp/out")" = "[cpu, cpu, cpu, cpu]" ]
result $? "... and the cpu default on the cpu"
# shellcheck disable=SC2086
run 0 --config "$tmp/countdev.yaml" run "$cell" $args -o "$tmp/cell.pt"
result $? "the model runs on countdev and -o writes its results"
cat >"$tmp/show.py" <<'PY'
import torch
from typing import Tuple


def main(r: Tuple[torch.Tensor, torch.Tensor]):
    print(r[0].device, r[0])
    print(r[1])


def make_x() -> torch.Tensor:
    return torch.ones([2, 3])
PY
run 0 --config "$tmp/cpu.yaml" run "$tmp/show.py" "@$tmp/cell.pt"
head -1 "$tmp/out" | grep -q '^cpu' && same_numbers "$tmp/out" "$tmp/cell_cpu.out"
result $? "... the cpu's numbers, read back from the file on the cpu"
run 0 --config "$tmp/cpu.yaml" run "$tmp/show.py" -f make_x -o "$tmp/x.npy"
result $? "an input written to a .npy file"
cat >"$tmp/cellfile.py" <<'PY'
import torch


def main(x: torch.Tensor):
    print(x.device, torch.ops.countdev.count("copy:to_device"))
PY
run 0 --config "$tmp/countdev.yaml" run "$tmp/cellfile.py" "@$tmp/x.npy"
[ "$(cat "$tmp/out")" = "countdev 1" ]
result $? "a file INPUT is moved to the default backend (once, by the copy hook)"
# shellcheck disable=SC2086
run 0 --config "$tmp/countdev.yaml" run "$cell" "@$tmp/x.npy" ${args#* } -o "$tmp/cell2.pt" &&
    run 0 --config "$tmp/cpu.yaml" run "$tmp/show.py" "@$tmp/cell2.pt" &&
    same_numbers "$tmp/out" "$tmp/cell_cpu.out"
result $? "the model on countdev with a file INPUT: the cpu's numbers"

run 1 --config "$tmp/countdev.yaml" run --backend nodev "$prog"
result $? "an unknown --backend: exit 1"
grep -qF "tscript: --backend: 'nodev' is not a backend any loaded plugin provides" "$tmp/err"
result $? "saying so"
run 2 run "$prog" --backend
result $? "--backend without a NAME: exit 2"
run 1 --config "$tmp/noplugin.yaml" run "$prog"
result $? "default_backend: countdev without the countdev plugin: exit 1"
grep -qF "default_backend 'countdev' is not a backend any loaded plugin provides" "$tmp/err"
result $? "saying so"
run 1 --config "$tmp/nodecl.yaml" run "$prog"
result $? "countdev without aten-cpu (no plugin declares aten::*): exit 1"
grep -qF "registers a kernel for aten::" "$tmp/err" && grep -qF "which no schema declares" "$tmp/err"
result $? "naming the kernel whose schema nobody declares"

echo "1..$n"
[ "$failed" -eq 0 ]
