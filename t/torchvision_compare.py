#!/usr/bin/env python3
# torchvision_compare.py — writes a TorchScript program that calls every operator of
# plugins/torchvision on seeded random inputs (float32 and float64, strided and contiguous,
# rois inside, across and outside the image, every sampling mode), and prints the results:
#
#     torchvision_compare.py PROG.py      writes PROG.py
#     python3 PROG.py                     prints PyTorch + torchvision 0.14's results (eager:
#                                         scripting the long literals would take minutes)
#     tscript --config plugins/torchvision/config.yaml run PROG.py     prints tscript's
#     torchvision_compare.py --tap WANT GOT    compares the two outputs case by case (TAP)
#
# t/torchvision_compare.sh runs all four. The inputs are literals in the program, so both
# sides compute on exactly the same numbers; results are compared with t/outcmp.py's
# tolerance (rel 1e-4: the deformable convolution's sums are ordered differently).
import os
import sys

import torch

gen = torch.Generator().manual_seed(20240611)


def rand(*shape):
    """Uniform [0, 1) to 3 decimals: short literals, the same numbers on both sides."""
    return (torch.rand(*shape, generator=gen, dtype=torch.float64) * 1000).round() / 1000


def randint(lo, hi, *shape):
    return torch.randint(lo, hi, shape, generator=gen)


def lit(t, dtype):
    """A TorchScript expression for tensor t, whose values have at most 3 decimals: integers
    divided by 1000 in float64 (then rounded to the dtype), the same numbers in eager PyTorch,
    scripted PyTorch and tscript (a float list literal is float32 first when scripted)."""
    if t.numel() == 0:
        return "torch.zeros(%s, dtype=torch.%s)" % (list(t.shape), dtype)
    body = repr([int(round(v * 1000)) for v in t.reshape(-1).tolist()])
    return "(torch.tensor(%s).double() / 1000).to(torch.%s).reshape(%s)" % (body, dtype,
                                                                           list(t.shape))


def boxes(n, spread=100.0, size=40.0):
    """n boxes (x1, y1, x2, y2): some empty, some inverted, some repeated."""
    xy = rand(n, 2) * spread
    wh = rand(n, 2) * size
    b = torch.cat([xy, xy + wh], 1)
    if n >= 4:
        b[1] = b[0]                          # a duplicate: IoU 1
        b[2, 2:] = b[2, :2]                  # an empty box
        b[3, 2] = b[3, 0] - 5                # inverted: negative width
    return b


def rois(k, n, h, w, scale):
    """k rois over a batch of n images h x w, in input coordinates / scale."""
    idx = randint(0, n, k, 1).double()
    x1 = rand(k, 1) * (w + 4) - 2
    y1 = rand(k, 1) * (h + 4) - 2
    x2 = x1 + rand(k, 1) * (w * 0.8) - 1    # sometimes x2 < x1
    y2 = y1 + rand(k, 1) * (h * 0.8) - 1
    return torch.cat([idx, x1 / scale, y1 / scale, x2 / scale, y2 / scale], 1)


CASES = []


def case(title, body):
    """A case: its title (printed first, as a "== title" line) and its body's lines."""
    CASES.append(['    print("== %s")' % title] + body)


def printer(name, kind="float"):
    """Prints a result's shape, dtype (as four flags: eager and scripted code print dtypes
    differently) and values."""
    conv = ".long()" if kind == "int" else ".double()"   # tolist() wants int64 / float64
    return ["    %s_v: List[%s] = %s%s.reshape(-1).tolist()" % (name, kind, name, conv),
            "    print(list(%s.size()), %s.dtype == torch.float32, %s.dtype == torch.float64, "
            "%s.dtype == torch.int64, %s.dtype == torch.int32)" % ((name,) * 5),
            "    print(%s_v)" % name]


def nms_cases(dtype):
    for n, thr in [(0, 0.5), (1, 0.5), (6, 0.0), (60, 0.3), (60, 0.7), (300, 0.5), (40, 1.0)]:
        b = boxes(n)
        s = (rand(n) * 10).round() / 10       # ties
        case("nms %s: %d boxes, iou_threshold %r" % (dtype, n, thr),
             ["    keep = torch.ops.torchvision.nms(%s, %s, %r)" % (lit(b, dtype), lit(s, dtype), thr)]
             + printer("keep", "int"))


def batched_nms_case(dtype):
    # torchvision.ops.batched_nms's coordinate trick, as detection models run it
    b, s, lab = boxes(80), rand(80), randint(0, 4, 80)
    case("batched_nms's coordinate trick %s" % dtype,
         ["    boxes = %s" % lit(b, dtype),
          "    scores = %s" % lit(s, dtype),
          "    idxs = torch.tensor(%r)" % lab.tolist(),
          "    offsets = idxs.to(boxes) * (boxes.max() + torch.tensor(1).to(boxes))",
          "    keep = torch.ops.torchvision.nms(boxes + offsets[:, None], scores, 0.4)"]
         + printer("keep", "int"))


def align_cases(dtype):
    n, c, h, w = 2, 4, 10, 13
    for ph, pw, scale, ratio, aligned in [(3, 2, 1.0, -1, False), (3, 2, 1.0, 0, True),
                                          (7, 7, 0.5, 2, False), (2, 3, 0.25, 3, True),
                                          (1, 1, 1.0, 1, False), (4, 4, 0.5, 0, False)]:
        x, r = rand(n, c, h, w) * 10 - 5, rois(7, n, h, w, scale)
        case("roi_align %s: pooled %dx%d, scale %r, sampling_ratio %d, aligned %s"
             % (dtype, ph, pw, scale, ratio, aligned),
             ["    out = torch.ops.torchvision.roi_align(%s, %s, %r, %d, %d, %d, %s)"
              % (lit(x, dtype), lit(r, dtype), scale, ph, pw, ratio, aligned)]
             + printer("out"))
    # strided operands: a transposed input, rois sliced out of a wider tensor
    x, r = rand(n, c, w, h), torch.cat([rand(5, 1), rois(5, n, h, w, 1.0)], 1)
    case("roi_align %s: a transposed input, rois sliced from a wider tensor" % dtype,
         ["    x = %s.transpose(2, 3)" % lit(x, dtype),
          "    r = %s[:, 1:]" % lit(r, dtype),
          "    out = torch.ops.torchvision.roi_align(x, r, 1.0, 3, 3, 2, True)"]
         + printer("out"))


def ps_align_cases(dtype):
    n, h, w = 2, 9, 11
    for ph, pw, scale, ratio in [(3, 2, 1.0, -1), (2, 2, 0.5, 2), (1, 1, 1.0, 0)]:
        x, r = rand(n, 2 * ph * pw, h, w) * 4, rois(6, n, h, w, scale)
        case("ps_roi_align %s: pooled %dx%d, scale %r, sampling_ratio %d"
             % (dtype, ph, pw, scale, ratio),
             ["    out, chan = torch.ops.torchvision.ps_roi_align(%s, %s, %r, %d, %d, %d)"
              % (lit(x, dtype), lit(r, dtype), scale, ph, pw, ratio)]
             + printer("out") + printer("chan", "int"))


def pool_cases(dtype):
    n, h, w = 2, 9, 12
    for op, ph, pw, scale in [("roi_pool", 3, 2, 1.0), ("roi_pool", 2, 4, 0.5),
                              ("ps_roi_pool", 2, 2, 1.0), ("ps_roi_pool", 3, 1, 0.5)]:
        c = 2 * ph * pw if op == "ps_roi_pool" else 3
        x, r = rand(n, c, h, w) * 6 - 3, rois(6, n, h, w, scale)
        case("%s %s: pooled %dx%d, scale %r" % (op, dtype, ph, pw, scale),
             ["    out, idx = torch.ops.torchvision.%s(%s, %s, %r, %d, %d)"
              % (op, lit(x, dtype), lit(r, dtype), scale, ph, pw)]
             + printer("out") + printer("idx", "int"))


def deform_cases(dtype):
    n, c, h, w = 2, 4, 7, 8
    for o, kh, kw, st, pd, dl, g, og, mask in [(6, 3, 3, (1, 1), (1, 1), (1, 1), 2, 2, True),
                                               (3, 2, 3, (2, 1), (0, 2), (1, 2), 1, 1, False),
                                               (4, 3, 2, (1, 2), (2, 1), (2, 1), 4, 4, True)]:
        oh = (h + 2 * pd[0] - (dl[0] * (kh - 1) + 1)) // st[0] + 1
        ow = (w + 2 * pd[1] - (dl[1] * (kw - 1) + 1)) // st[1] + 1
        x, wt, b = rand(n, c, h, w), rand(o, c // g, kh, kw) - 0.5, rand(o)
        off = (rand(n, 2 * og * kh * kw, oh, ow) - 0.5) * 6
        m = rand(n, og * kh * kw, oh, ow) if mask else torch.zeros(n, 0)
        case("deform_conv2d %s: kernel %dx%d, stride %s, pad %s, dilation %s, groups %d, "
             "offset_groups %d, mask %s" % (dtype, kh, kw, st, pd, dl, g, og, mask),
             ["    out = torch.ops.torchvision.deform_conv2d(%s, %s, %s, %s, %s, %d, %d, %d, %d, "
              "%d, %d, %d, %d, %s)" % (lit(x, dtype), lit(wt, dtype), lit(off, dtype),
                                       lit(m, dtype), lit(b, dtype), st[0], st[1], pd[0], pd[1],
                                       dl[0], dl[1], g, og, mask)]
             + printer("out"))


def sections(path):
    """The printed output of a program as {title: its text}, in order."""
    out, title = {}, None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("== "):
                title = line[3:].rstrip("\n")
                out[title] = ""
            elif title is not None:
                out[title] += line
    return out


def tap(want_path, got_path):
    """TAP: one test per case of the expected output; 1 when any fails."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from outcmp import first_difference
    want, got = sections(want_path), sections(got_path)
    failed = 0
    for n, (title, text) in enumerate(want.items(), 1):
        diff = "not printed" if title not in got else first_difference(text, got[title])
        print("%s %d - %s" % ("not ok" if diff else "ok", n, title))
        if diff:
            failed += 1
            print("# " + diff[:1000])
    print("1..%d" % len(want))
    return 1 if failed or not want else 0


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--tap":
        sys.exit(tap(sys.argv[2], sys.argv[3]))
    for dtype in ("float32", "float64"):
        nms_cases(dtype)
        batched_nms_case(dtype)
        align_cases(dtype)
        ps_align_cases(dtype)
        pool_cases(dtype)
        deform_cases(dtype)
    lines = ["# Generated by t/torchvision_compare.py: torchvision's operators on seeded inputs.",
             "from typing import List", "", "import torch", ""]
    for i, body in enumerate(CASES):
        lines += ["", "def case_%d():" % i] + body + [""]
    lines += ["", "def main():"] + ["    case_%d()" % i for i in range(len(CASES))]
    lines += ["", "", 'if __name__ == "__main__":', "    import torchvision", "    main()", ""]
    with open(sys.argv[1], "w") as f:
        f.write("\n".join(lines))


main()
