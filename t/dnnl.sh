#!/bin/sh
# dnnl.sh — aten-dnnl (plugins/aten-dnnl: aten-cpu's convolutions on oneDNN) against aten-cpu
# and PyTorch: t/dnnl/cases.py's table of convolutions prints the same, at rel 1e-4
# (t/outcmp.py), with the plugin, without it (the config switch: a config that lists it and
# one that does not) and under PyTorch 1.13; oneDNN ran them; what its optimizer pass fuses
# and what not; conv_cases.py (every error message, PyTorch's words, and the results checked
# another way) passes with it; the config order it needs; a channels-last input gives a
# channels-last result, as PyTorch's; resnet18, mobilenet_v2 and squeezenet1_1 saved by
# PyTorch give its results; oneDNN is loaded by the first convolution only, and a missing
# library ($TSCRIPT_DNNL) leaves every call to aten-cpu. Skipped where oneDNN is not built.
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
. "$srcdir/t/dnnl/setup.sh"
cases=$srcdir/t/dnnl/cases.py

"$tscript" --config "$tmp/dnnl.yaml" run "$cases" >"$tmp/dnnl" 2>&1
check $? "the cases run with aten-dnnl" "$tmp/dnnl"
"$tscript" --config "$tmp/cpu.yaml" run "$cases" >"$tmp/cpu" 2>&1
check $? "... and without it" "$tmp/cpu"
python3 "$srcdir/t/outcmp.py" "$tmp/cpu" "$tmp/dnnl" >"$tmp/diff" 2>&1
check $? "oneDNN gives aten-cpu's results (rel 1e-4)" "$tmp/diff"
if [ $torch = yes ]; then
    "$py" "$cases" >"$tmp/torch" 2>/dev/null
    python3 "$srcdir/t/outcmp.py" "$tmp/torch" "$tmp/dnnl" >"$tmp/diff" 2>&1
    check $? "... and PyTorch's" "$tmp/diff"
else
    skip "... and PyTorch's" "python3 has no torch"
fi
# oneDNN is opened by the first convolution, not at startup; without the library every call
# goes to aten-cpu
LD_DEBUG=files "$tscript" --config "$tmp/dnnl.yaml" run "$srcdir/bench/workloads/hello.py" \
    >"$tmp/ld" 2>&1
! grep -q 'file=libdnnl' "$tmp/ld"
check $? "a program without convolutions never loads oneDNN" "$tmp/ld"
TSCRIPT_DNNL=libtscript-no-such-dnnl.so.0 "$tscript" --config "$tmp/dnnl.yaml" run "$cases" \
    >"$tmp/nolib" 2>&1
check $? "the cases run with aten-dnnl whose oneDNN library is missing" "$tmp/nolib"
python3 "$srcdir/t/outcmp.py" "$tmp/cpu" "$tmp/nolib" >"$tmp/diff" 2>&1
check $? "... giving aten-cpu's results, every call handed to it" "$tmp/diff"

ONEDNN_VERBOSE=1 "$tscript" --config "$tmp/dnnl.yaml" run "$cases" >"$tmp/verbose" 2>&1
[ "$(grep -c '^onednn_verbose,exec,cpu,\(de\)\{0,1\}convolution,' "$tmp/verbose")" -ge 36 ]
check $? "oneDNN ran the float32 cases" "$tmp/verbose"
grep -q '^onednn_verbose,exec,cpu,convolution,[^,]*wino' "$tmp/verbose"
check $? "... the 3x3 ones by Winograd's algorithm" "$tmp/verbose"

# what the pass fuses (the cases: a convolution or a batch norm and its relu, where they can)
"$tscript" --config "$tmp/dnnl.yaml" graph --optimized "$cases" -f fused_cases >"$tmp/graph" 2>&1
[ "$(grep -c ' = dnnl::conv(' "$tmp/graph")" = 10 ] &&
    [ "$(grep -c ' = aten::\(relu\|relu_\|relu6\|hardtanh\|hardtanh_\)(' "$tmp/graph")" = 3 ]
check $? "the pass fuses 8 of fused_cases' 11 convolutions and relus (not a result used twice, nor float64, nor another clamp)" "$tmp/graph"
"$tscript" --config "$tmp/dnnl.yaml" graph --optimized "$cases" -f norm_cases >"$tmp/graph" 2>&1
[ "$(grep -c ' = dnnl::batch_norm(' "$tmp/graph")" = 6 ]
check $? "... and 6 batch norms with their relu" "$tmp/graph"
"$tscript" --config "$tmp/cpu.yaml" graph --optimized "$cases" -f fused_cases >"$tmp/graph" 2>&1
! grep -q 'dnnl::' "$tmp/graph"
check $? "... and nothing without the plugin" "$tmp/graph"
ONEDNN_VERBOSE=1 "$tscript" --config "$tmp/dnnl.yaml" run "$cases" -f chain_cases >"$tmp/chain" 2>&1
[ "$(grep -c '^onednn_verbose,exec,cpu,convolution,.*src_f32::blocked:acdb:' "$tmp/chain")" -ge 4 ]
check $? "a chain of convolutions runs channels-last inside (the strides it returns are compared above)" "$tmp/chain"
TSCRIPT_CONFIG=$tmp/dnnl.yaml sh "$srcdir/t/cases.sh" "$cases" >"$tmp/err" 2>&1
grep -q '^ok .* - err_fused_conv_weight_dtype' "$tmp/err"
check $? "a fused convolution aten-cpu takes over gives its error" "$tmp/err"

# the error paths and the checks of conv_cases.py: aten-cpu's, through aten-dnnl
TSCRIPT_CONFIG=$tmp/dnnl.yaml sh "$srcdir/t/cases.sh" "$srcdir/t/conv_cases.py" >"$tmp/conv" 2>&1
! grep -q '^not ok' "$tmp/conv" && grep -q '^ok .* - err_' "$tmp/conv"
check $? "conv_cases.py with aten-dnnl: results and PyTorch's error messages" "$tmp/conv"

# the order: aten-dnnl replaces aten-cpu's kernels, so it comes after it
printf 'plugins: [prim, aten-dnnl, aten-cpu]\n' >"$tmp/order.yaml"
"$tscript" --config "$tmp/order.yaml" run "$cases" >"$tmp/order" 2>&1
[ $? -ne 0 ] && grep -q "plugin 'aten-dnnl' replaces the kernel of aten::conv1d on backend 'cpu', which no plugin loaded before it registered" "$tmp/order"
check $? "listed before aten-cpu, it says why it cannot load" "$tmp/order"

cat >"$tmp/last.py" <<'EOF'
import torch
import torch.nn.functional as F


def main():
    x = torch.ones(2, 6, 7, 3).permute(0, 3, 1, 2)
    y = F.conv2d(x, torch.ones(4, 3, 3, 3), None, 1, 1)
    print(y.stride(), y.is_contiguous(), float(y[1, 2, 3, 4]))
    print(F.max_pool2d(x, 3, 2, 1).stride())
EOF
"$tscript" --config "$tmp/dnnl.yaml" run "$tmp/last.py" >"$tmp/last" 2>&1
printf '[168, 1, 28, 4] False 27.\n[36, 1, 12, 3]\n' | cmp -s - "$tmp/last"
check $? "a channels-last input gives a channels-last result (PyTorch's strides)" "$tmp/last"

# float32 encoder layers and self-attentions on oneDNN (attention.c): PyTorch's results, and
# oneDNN ran their products (of the 4 heads of 8 over 10 keys: scores and values, 7 models
# with 2 sequences each; the padded encoder's in-projection over the 11 rows its two
# sequences have, 7 and 4, in each of its 2 layers), as aten-cpu's kernel does without the
# plugin
if [ $torch = yes ]; then
    ONEDNN_VERBOSE=1 "$py" "$srcdir/t/dnnl/attention_f32.py" "$tscript" "$tmp/dnnl.yaml" \
        "$tmp/attn_log" >"$tmp/attn" 2>&1
    grep -q "^ok 11 " "$tmp/attn" && ! grep -q "^not ok" "$tmp/attn"
    check $? "float32 encoder layers, attentions and TransformerEncoders give PyTorch's results" \
        "$tmp/attn"
    [ "$(grep -c '^onednn_verbose,exec,cpu,matmul,.*src_f32:.*,4x10x8:4x8x10:4x10x10' "$tmp/attn_log")" -ge 14 ] &&
        [ "$(grep -c '^onednn_verbose,exec,cpu,matmul,.*src_f32:.*,4x10x10:4x10x8:4x10x8' "$tmp/attn_log")" -ge 14 ] &&
        [ "$(grep -c '^onednn_verbose,exec,cpu,matmul,.*src_f32:.*,1x11x32:1x32x96:1x11x96' "$tmp/attn_log")" -ge 2 ]
    check $? "... oneDNN ran their heads' products, and a padded batch's rows alone" "$tmp/attn_log"
    "$py" "$srcdir/t/dnnl/attention_f32.py" "$tscript" "$tmp/cpu.yaml" >"$tmp/attn" 2>&1
    grep -q "^ok 11 " "$tmp/attn" && ! grep -q "^not ok" "$tmp/attn"
    check $? "... and so does aten-cpu without the plugin" "$tmp/attn"
else
    skip "float32 encoder layers, attentions and TransformerEncoders give PyTorch's results" \
        "python3 has no torch"
    skip "... oneDNN ran their heads' products, and a padded batch's rows alone" \
        "python3 has no torch"
    skip "... and so does aten-cpu without the plugin" "python3 has no torch"
fi

if [ $torch = yes ] && "$py" -c 'import torchvision' >/dev/null 2>&1; then
    "$py" "$srcdir/t/models/check_models.py" "$tscript" --config "$tmp/dnnl.yaml" resnet18 \
        mobilenet_v2 squeezenet1_1 >"$tmp/model" 2>&1
    [ "$(grep -c "^ok " "$tmp/model")" = 3 ] && ! grep -q "^not ok" "$tmp/model"
    check $? "resnet18, mobilenet_v2 and squeezenet1_1 saved by PyTorch give its results" "$tmp/model"
else
    skip "resnet18, mobilenet_v2 and squeezenet1_1 saved by PyTorch give its results" \
        "python3 has no torch and torchvision"
fi
done_testing
