#!/bin/sh
# torchvision_load.sh — plugins/torchvision as a vendor ships it: built from the public
# headers alone, exporting only tscript_plugin, loaded by its example config (which lists
# torchvision's exact schemas), and absent without it.
srcdir=${TS_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${TS_BUILDDIR:-$(pwd)}
config="$srcdir/plugins/torchvision/config.yaml"
tmp=${TMPDIR:-/tmp}/torchvision_load.$$
trap 'rm -f "$tmp" "$tmp.py"' EXIT
n=0 failed=0
check() { # STATUS DESCRIPTION
    n=$((n + 1))
    if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else
        failed=$((failed + 1)); echo "not ok $n - $2"; sed 's/^/# /' "$tmp" | head -20
    fi
}

${CC:-cc} -std=c11 -fsyntax-only -I"$srcdir/include" \
    "$srcdir"/plugins/torchvision/*.c >"$tmp" 2>&1
check $? "the plugin compiles against the public headers alone (-I include)"

so="$builddir/plugins/torchvision/.libs/torchvision.so"
if command -v nm >/dev/null 2>&1 && [ -f "$so" ]; then
    nm -D --defined-only "$so" | awk '$2 ~ /^[TDBR]$/ && $3 !~ /^_/ { print $3 }' >"$tmp"
    [ "$(cat "$tmp")" = tscript_plugin ]
    check $? "the plugin exports tscript_plugin and nothing else"
fi

"$builddir/tscript" --config "$config" ops 'torchvision::*' >"$tmp" 2>&1
for schema in \
    'torchvision::nms(Tensor dets, Tensor scores, float iou_threshold) -> Tensor' \
    'torchvision::roi_align(Tensor input, Tensor rois, float spatial_scale, int pooled_height, int pooled_width, int sampling_ratio, bool aligned) -> Tensor' \
    'torchvision::ps_roi_align(Tensor input, Tensor rois, float spatial_scale, int pooled_height, int pooled_width, int sampling_ratio) -> (Tensor, Tensor)' \
    'torchvision::roi_pool(Tensor input, Tensor rois, float spatial_scale, int pooled_height, int pooled_width) -> (Tensor, Tensor)' \
    'torchvision::ps_roi_pool(Tensor input, Tensor rois, float spatial_scale, int pooled_height, int pooled_width) -> (Tensor, Tensor)' \
    'torchvision::deform_conv2d(Tensor input, Tensor weight, Tensor offset, Tensor mask, Tensor bias, int stride_h, int stride_w, int pad_h, int pad_w, int dilation_h, int dilation_w, int groups, int offset_groups, bool use_mask) -> Tensor' \
    'torchvision::_cuda_version() -> int _0'; do
    name=${schema%%(*}
    grep -F "$schema" "$tmp" | grep -q '^torchvision  *\(cpu\|any\)  '
    check $? "tscript ops lists $name with torchvision's schema and a kernel"
done
[ "$(grep -c '^torchvision ' "$tmp")" -eq 7 ]
check $? "the plugin declares 7 operators"

printf 'import torch\n\ndef main():\n    print(torch.ops.torchvision._cuda_version())\n' >"$tmp.py"
"$builddir/tscript" --config "$config" run "$tmp.py" >"$tmp" 2>&1 && [ "$(cat "$tmp")" = -1 ]
check $? "a program calls torch.ops.torchvision._cuda_version() under the config: -1, no CUDA"
TSCRIPT_CONFIG="$config" "$builddir/tscript" run "$tmp.py" >"$tmp" 2>&1 && [ "$(cat "$tmp")" = -1 ]
check $? "TSCRIPT_CONFIG loads the plugin too"
TSCRIPT_CONFIG= "$builddir/tscript" run "$tmp.py" >"$tmp" 2>&1
[ $? -ne 0 ] && grep -q 'Unknown builtin op: torchvision::_cuda_version' "$tmp"
check $? "without the plugin the operator is unknown"

echo "1..$n"
[ $failed -eq 0 ]
