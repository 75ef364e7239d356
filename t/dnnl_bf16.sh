#!/bin/sh
# dnnl_bf16.sh — aten-dnnl in bfloat16 (plugins/aten-dnnl: convolutions, batch norms, max
# pools, matrix products and the fused attention and encoder layer on oneDNN, bfloat16 in
# and out, float32 inside):
# t/dnnl/bf16_cases.py's table prints what PyTorch 1.13's bfloat16 kernels print, and what
# aten-cpu's print without the plugin, at bfloat16's precision (t/dnnl/bf16cmp.py); oneDNN
# ran them in bfloat16 (whichever of its kernels the CPU has: this never asks for
# AVX512-BF16, nor compares times); the optimizer pass fuses bfloat16 convolutions and
# their relus; mixed dtypes give PyTorch's errors; a bfloat16 resnet18 gives PyTorch's
# logits within PyTorch's own bfloat16 error (t/dnnl/bf16_model.py), and so do bfloat16
# encoder layers, self-attentions and a TransformerEncoder. Skipped where oneDNN is not
# built.
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
. "$srcdir/t/dnnl/setup.sh"
cases=$srcdir/t/dnnl/bf16_cases.py
cmp="python3 $srcdir/t/dnnl/bf16cmp.py"

ONEDNN_VERBOSE=1 "$tscript" --config "$tmp/dnnl.yaml" run "$cases" >"$tmp/verbose" 2>&1
check $? "the bfloat16 cases run with aten-dnnl" "$tmp/verbose"
grep -v '^onednn_verbose' "$tmp/verbose" >"$tmp/dnnl"
if [ $torch = yes ]; then
    "$py" "$cases" >"$tmp/torch" 2>/dev/null
    $cmp "$tmp/torch" "$tmp/dnnl" >"$tmp/diff" 2>&1
    check $? "... giving PyTorch's bfloat16 results" "$tmp/diff"
else
    skip "... giving PyTorch's bfloat16 results" "python3 has no torch"
fi
"$tscript" --config "$tmp/cpu.yaml" run "$cases" >"$tmp/cpu" 2>&1
check $? "... and without it" "$tmp/cpu"
$cmp "$tmp/cpu" "$tmp/dnnl" >"$tmp/diff" 2>&1
check $? "... giving aten-cpu's results" "$tmp/diff"

# what oneDNN ran in bfloat16: 17 convolutions of the table and 4 of the fused ones, 3 max
# pools of it and 1 fused, 18 matrix products, and in the 2 attentions and 4 encoder layers
# over 2 sequences 12 products of the queries by the keys of 4 heads (their other
# products: 44 more). oneDNN 2.x has bfloat16 on AVX-512 CPUs only
# (natively with AVX512-BF16, else emulated): elsewhere every bfloat16 call goes to
# aten-cpu, checked above.
exec_of() { grep -c "^onednn_verbose,exec,cpu,$1,.*src_bf16:" "$tmp/verbose"; }
if grep -q '^onednn_verbose,info,cpu,isa:.*AVX-512' "$tmp/verbose"; then
    [ "$(exec_of '\(de\)\{0,1\}convolution')" -ge 21 ]
    check $? "oneDNN ran the bfloat16 convolutions" "$tmp/verbose"
    [ "$(exec_of pooling_v2)" -ge 4 ]
    check $? "... and max pools" "$tmp/verbose"
    [ "$(exec_of matmul)" -ge 62 ]
    check $? "... and matrix products" "$tmp/verbose"
    [ "$(grep -c '^onednn_verbose,exec,cpu,matmul,.*src_bf16:.*,4x6x4:4x4x6' "$tmp/verbose")" -ge 12 ]
    check $? "... and the attentions' and encoder layers' heads" "$tmp/verbose"
else
    skip "oneDNN ran the bfloat16 convolutions" "oneDNN has no bfloat16 on this CPU"
    skip "... and max pools" "oneDNN has no bfloat16 on this CPU"
    skip "... and matrix products" "oneDNN has no bfloat16 on this CPU"
    skip "... and the attentions' and encoder layers' heads" "oneDNN has no bfloat16 on this CPU"
fi

"$tscript" --config "$tmp/dnnl.yaml" graph --optimized "$cases" -f fused_cases >"$tmp/graph" 2>&1
[ "$(grep -c ' = dnnl::conv(' "$tmp/graph")" = 4 ] &&
    [ "$(grep -c ' = aten::\(relu\|relu_\|hardtanh\)(' "$tmp/graph")" = 0 ]
check $? "the pass fuses bfloat16 convolutions and their relus" "$tmp/graph"

TSCRIPT_CONFIG=$tmp/dnnl.yaml sh "$srcdir/t/cases.sh" "$cases" >"$tmp/err" 2>&1
! grep -q '^not ok' "$tmp/err" && [ "$(grep -c '^ok .* - err_' "$tmp/err")" = 3 ]
check $? "mixed dtypes give PyTorch's errors" "$tmp/err"

if [ $torch = yes ] && "$py" -c 'import torchvision' >/dev/null 2>&1; then
    "$py" "$srcdir/t/dnnl/bf16_model.py" "$tscript" "$tmp/dnnl.yaml" resnet18 >"$tmp/model" 2>&1
    grep -q "^ok 1 " "$tmp/model" && ! grep -q "^not ok" "$tmp/model"
    check $? "a bfloat16 resnet18 gives PyTorch's logits" "$tmp/model"
else
    skip "a bfloat16 resnet18 gives PyTorch's logits" "python3 has no torch and torchvision"
fi
if [ $torch = yes ]; then
    "$py" "$srcdir/t/dnnl/bf16_model.py" "$tscript" "$tmp/dnnl.yaml" transformers >"$tmp/model" 2>&1
    grep -q "^ok 10 " "$tmp/model" && ! grep -q "^not ok" "$tmp/model"
    check $? "bfloat16 encoder layers, attentions, TransformerEncoders (one padded) as in PyTorch" \
        "$tmp/model"
else
    skip "bfloat16 encoder layers, attentions, TransformerEncoders (one padded) as in PyTorch" \
        "python3 has no torch"
fi
done_testing
