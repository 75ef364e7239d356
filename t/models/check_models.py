# check_models.py — models people ship, saved by PyTorch 1.13 and run by tscript: each is
# built with random weights (torch.manual_seed(0); torchvision ships no weights offline),
# scripted (some then frozen by torch.jit.freeze), saved with torch.jit.save, run by
# PyTorch on a seeded input and by `tscript run MODEL.pt @INPUT... --output OUT.pt`, and
# the two results compared (rel 1e-4 unless the model says otherwise, with an absolute
# floor relative to the output's scale). Prints TAP. Sizes are small (a few seconds each):
# a model too big for its builder's own sizes is built from its class with fewer layers.
#
#     /usr/bin/python3 t/models/check_models.py TSCRIPT [--config FILE] [NAME...]
#
# Models that call torchvision's operators run with plugins/torchvision's config.
import os
import subprocess
import sys
import tempfile
import time
import warnings

import torch
import torch.nn as nn

warnings.simplefilter("ignore")
HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
TV_CONFIG = os.path.join(TOP, "plugins", "torchvision", "config.yaml")


def image(n=1, size=96):
    return (torch.randn(n, 3, size, size),)


def tv(name, **kw):
    import torchvision
    return lambda: getattr(torchvision.models, name)(weights=None, **kw)


def tvd(name, **kw):
    import torchvision
    return lambda: getattr(torchvision.models.detection, name)(weights=None,
                                                                weights_backbone=None, **kw)


def tvs(name, **kw):
    import torchvision
    return lambda: getattr(torchvision.models.segmentation, name)(
        weights=None, weights_backbone=None, **kw)


def vit():
    from torchvision.models.vision_transformer import VisionTransformer
    return VisionTransformer(image_size=32, patch_size=8, num_layers=2, num_heads=2,
                             hidden_dim=32, mlp_dim=64, num_classes=10)


def video(name, **kw):
    import torchvision
    return lambda: getattr(torchvision.models.video, name)(weights=None, **kw)


def vit_b_32():
    """vit_b_32's patch and width, two of its twelve layers, at a 64x64 image."""
    from torchvision.models.vision_transformer import VisionTransformer
    return VisionTransformer(image_size=64, patch_size=32, num_layers=2, num_heads=12,
                             hidden_dim=768, mlp_dim=3072, num_classes=10)


def maxvit():
    """maxvit_t's blocks (MBConv, block and grid attention) at a 64x64 image: two stages
    of one layer, partitions of 2."""
    from torchvision.models.maxvit import MaxVit
    return MaxVit(input_size=(64, 64), stem_channels=16, partition_size=2,
                  block_channels=[16, 32], block_layers=[1, 1], head_dim=8,
                  stochastic_depth_prob=0.2, num_classes=10)


def mvit():
    """mvit_v2_s's blocks (pooled attention with relative positions, residual pooling) for a
    4x32x32 clip: three of its sixteen, one of them downsampling."""
    from torchvision.models.video.mvit import MViT, MSBlockConfig
    blocks = [MSBlockConfig(num_heads=h, input_channels=i, output_channels=o,
                            kernel_q=[3, 3, 3], kernel_kv=[3, 3, 3], stride_q=sq,
                            stride_kv=skv)
              for h, i, o, sq, skv in [(1, 24, 24, [1, 1, 1], [1, 2, 2]),
                                       (2, 24, 48, [1, 2, 2], [1, 2, 2]),
                                       (2, 48, 48, [1, 1, 1], [1, 1, 1])]]
    return MViT(spatial_size=(32, 32), temporal_size=4, block_setting=blocks,
                residual_pool=True, residual_with_cls_embed=False, rel_pos_embed=True,
                proj_after_attn=True, stochastic_depth_prob=0.2, num_classes=10)


def raft_small():
    import torchvision
    return torchvision.models.optical_flow.raft_small(weights=None)


def transforms(*make):
    """torchvision's tensor transforms, scripted as a preprocessing module is: each transform
    built by make(T, InterpolationMode), applied in turn. Random ones are given ranges of
    one value (an angle of 30 to 30 degrees), so that PyTorch and tscript draw alike."""
    import torchvision.transforms as T
    from torchvision.transforms import InterpolationMode
    return lambda: nn.Sequential(*[m(T, InterpolationMode) for m in make])


def uint8_image(size=(70, 90)):
    return ((torch.rand(3, *size) * 255).to(torch.uint8),)


def frozen(build):
    """The model as torch.jit.freeze leaves it: attributes folded into the code as
    CONSTANTS.cN, batch norms into convolutions."""
    return lambda: torch.jit.freeze(torch.jit.script(build().eval()))


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        layer = nn.TransformerEncoderLayer(32, 4, 64, dropout=0.1, batch_first=True)
        self.enc = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return self.enc(x, src_key_padding_mask=mask)


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.dec = nn.TransformerDecoderLayer(32, 4, 64, dropout=0.1, norm_first=True)

    def forward(self, tgt: torch.Tensor, memory: torch.Tensor) -> torch.Tensor:
        mask = torch.triu(torch.full((tgt.size(0), tgt.size(0)), float("-inf")), 1)
        return self.dec(tgt, memory, tgt_mask=mask)


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.mha = nn.MultiheadAttention(16, 2)

    def forward(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor):
        return self.mha(q, k, v, need_weights=True, average_attn_weights=False)


class Recurrent(nn.Module):
    """nn.LSTM / nn.GRU scripted alone have two forwards (padded and packed): a model
    calls one."""

    def __init__(self, rnn: nn.Module):
        super().__init__()
        self.rnn = rnn

    def forward(self, x: torch.Tensor):
        return self.rnn(x)


def no_mask(n, s):
    m = torch.zeros(n, s, dtype=torch.bool)
    m[0, -2:] = True
    return m


# name: (builder, inputs, needs torchvision's operators[, relative tolerance]); a builder
# returns the nn.Module to script, or a ScriptModule to save as it is.
MODELS = {
    "resnet18": (tv("resnet18"), lambda: image(), False),
    "mobilenet_v2": (tv("mobilenet_v2"), lambda: image(), False),
    "mobilenet_v3_small": (tv("mobilenet_v3_small"), lambda: image(), False),
    "squeezenet1_1": (tv("squeezenet1_1"), lambda: image(), False),
    "shufflenet_v2_x0_5": (tv("shufflenet_v2_x0_5"), lambda: image(), False),
    "densenet121": (tv("densenet121"), lambda: image(size=64), False),
    "googlenet": (tv("googlenet", aux_logits=False, init_weights=False),
                  lambda: image(size=96), False),
    "efficientnet_b0": (tv("efficientnet_b0"), lambda: image(), False),
    "regnet_y_400mf": (tv("regnet_y_400mf"), lambda: image(), False),
    "mnasnet0_5": (tv("mnasnet0_5"), lambda: image(), False),
    "convnext_tiny": (tv("convnext_tiny"), lambda: image(size=64), False),
    "vit_small": (vit, lambda: image(2, 32), False),
    "lraspp_mobilenet_v3_large": (tvs("lraspp_mobilenet_v3_large"), lambda: image(size=64),
                                  False),
    "deeplabv3_mobilenet_v3_large": (tvs("deeplabv3_mobilenet_v3_large", aux_loss=False),
                                     lambda: image(size=64), False),
    "fasterrcnn_mobilenet_v3_large_320_fpn": (
        tvd("fasterrcnn_mobilenet_v3_large_320_fpn"),
        lambda: ([torch.rand(3, 120, 160), torch.rand(3, 100, 100)],), True),
    "ssdlite320_mobilenet_v3_large": (
        tvd("ssdlite320_mobilenet_v3_large"),
        lambda: ([torch.rand(3, 120, 160)],), True),
    "r3d_18": (video("r3d_18"), lambda: (torch.randn(1, 3, 4, 32, 32),), False),
    "inception_v3": (tv("inception_v3", aux_logits=False, init_weights=False),
                     lambda: image(size=80), False),
    "alexnet": (tv("alexnet"), lambda: image(size=64), False),
    "resnext50_32x4d": (tv("resnext50_32x4d"), lambda: image(size=32), False),
    "mobilenet_v3_large": (tv("mobilenet_v3_large"), lambda: image(size=64), False),
    "efficientnet_v2_s": (tv("efficientnet_v2_s"), lambda: image(size=32), False),
    "regnet_x_400mf": (tv("regnet_x_400mf"), lambda: image(size=64), False),
    "swin_t": (tv("swin_t"), lambda: (torch.randn(1, 3, 75, 53),), False),
    "swin_v2_t": (tv("swin_v2_t"), lambda: image(size=64), False),
    "maxvit": (maxvit, lambda: image(size=64), False),
    "vit_b_32": (vit_b_32, lambda: image(2, 64), False),
    "mc3_18": (video("mc3_18"), lambda: (torch.randn(1, 3, 4, 32, 32),), False),
    "r2plus1d_18": (video("r2plus1d_18"), lambda: (torch.randn(1, 3, 4, 32, 32),), False),
    "s3d": (video("s3d"), lambda: (torch.randn(1, 3, 16, 224, 224),), False),
    "mvit": (mvit, lambda: (torch.randn(1, 3, 4, 32, 32),), False),
    "fcn_resnet50": (tvs("fcn_resnet50", aux_loss=True), lambda: image(size=64), False),
    "deeplabv3_resnet50": (tvs("deeplabv3_resnet50", aux_loss=False), lambda: image(size=64),
                           False),
    "raft_small": (raft_small, lambda: (torch.rand(1, 3, 64, 64), torch.rand(1, 3, 64, 64)),
                   False),
    "retinanet_resnet50_fpn": (
        tvd("retinanet_resnet50_fpn", min_size=128, max_size=160, score_thresh=0.005,
            detections_per_img=20),
        lambda: ([torch.rand(3, 120, 160)],), True),
    "fcos_resnet50_fpn": (
        tvd("fcos_resnet50_fpn", min_size=128, max_size=160, score_thresh=0.01,
            detections_per_img=20),
        lambda: ([torch.rand(3, 120, 160)],), True),
    # its masks are probabilities resampled from 28x28: PyTorch's own float32 masks differ
    # from its float64 ones by 2e-4
    "maskrcnn_resnet50_fpn": (
        tvd("maskrcnn_resnet50_fpn", min_size=128, max_size=160, box_detections_per_img=10),
        lambda: ([torch.rand(3, 120, 160)],), True, 1e-3),
    "keypointrcnn_resnet50_fpn": (
        tvd("keypointrcnn_resnet50_fpn", min_size=128, max_size=160),
        lambda: ([torch.rand(3, 120, 160)],), True),
    "ssd300_vgg16": (tvd("ssd300_vgg16"), lambda: ([torch.rand(3, 120, 160)],), True),
    "mobilenet_v2_frozen": (frozen(tv("mobilenet_v2")), lambda: image(), False),
    "transforms_classification": (
        lambda: __import__("torchvision").transforms._presets.ImageClassification(
            crop_size=32, resize_size=40),
        lambda: (torch.rand(2, 3, 70, 90),), False),
    "transforms_resize_crop_uint8": (
        transforms(lambda T, I: T.Resize([33, 41]), lambda T, I: T.CenterCrop(24),
                   lambda T, I: T.ConvertImageDtype(torch.float)),
        uint8_image, False),
    "transforms_resize_bicubic": (
        transforms(lambda T, I: T.Resize([33], I.BICUBIC, antialias=True)),
        lambda: (torch.rand(2, 3, 70, 90),), False),
    "transforms_ten_crop": (lambda: __import__("torchvision").transforms.TenCrop(20),
                            lambda: (torch.rand(2, 3, 50, 60),), False),
    "transforms_color": (
        transforms(lambda T, I: T.Grayscale(3), lambda T, I: T.ColorJitter(hue=(0.2, 0.2)),
                   lambda T, I: T.GaussianBlur(5, 1.3), lambda T, I: T.RandomInvert(1.0),
                   lambda T, I: T.RandomAdjustSharpness(2.0, 1.0)),
        lambda: (torch.rand(2, 3, 40, 50),), False),
    "transforms_geometry": (
        transforms(lambda T, I: T.RandomAffine((30, 30), scale=(1.2, 1.2), shear=(10, 10)),
                   lambda T, I: T.RandomRotation((25, 25), expand=True),
                   lambda T, I: T.Pad([2, 3, 4, 1], padding_mode="reflect")),
        lambda: (torch.rand(2, 3, 40, 50),), False),
    "transformer_encoder": (Encoder, lambda: (torch.randn(2, 7, 32), no_mask(2, 7)), False),
    "transformer_decoder_layer": (Decoder, lambda: (torch.randn(5, 2, 32),
                                                    torch.randn(7, 2, 32)), False),
    "lstm_bidirectional": (lambda: Recurrent(nn.LSTM(8, 16, num_layers=2, bidirectional=True)),
                           lambda: (torch.randn(5, 3, 8),), False),
    "gru_batch_first": (lambda: Recurrent(nn.GRU(8, 12, num_layers=3, batch_first=True,
                                                 bidirectional=True)),
                        lambda: (torch.randn(2, 6, 8),), False),
    "lstm_frozen": (frozen(lambda: Recurrent(nn.LSTM(8, 16, num_layers=2,
                                                     bidirectional=True))),
                    lambda: (torch.randn(5, 3, 8),), False),
    "multihead_attention": (Attention, lambda: (torch.randn(4, 2, 16), torch.randn(6, 2, 16),
                                                torch.randn(6, 2, 16)), False),
    "embedding_bag": (lambda: nn.EmbeddingBag(20, 6, mode="mean"),
                      lambda: (torch.tensor([1, 2, 4, 5, 4, 3, 2, 9]),
                               torch.tensor([0, 4])), False),
    "conv_transpose2d": (lambda: nn.ConvTranspose2d(4, 6, 3, stride=2, padding=1,
                                                     output_padding=1, groups=2, dilation=2),
                         lambda: (torch.randn(1, 4, 7, 5),), False),
    "group_norm": (lambda: nn.GroupNorm(3, 6), lambda: (torch.randn(2, 6, 4, 4),), False),
}


def flatten(v, out):
    """The tensors and numbers of a (nested) result, in order."""
    if isinstance(v, torch.Tensor):
        out.append(v.detach().double())
    elif isinstance(v, (list, tuple)):
        for x in v:
            flatten(x, out)
    elif isinstance(v, dict):
        for k in v:
            out.append(("key", k))
            flatten(v[k], out)
    elif isinstance(v, (int, float, bool)):
        out.append(torch.tensor(float(v), dtype=torch.float64))
    elif v is not None:
        out.append(("other", repr(v)))
    return out


def compare(want, got, rel=1e-4):
    """None when got matches want, else what differs."""
    a, b = flatten(want, []), flatten(got, [])
    if len(a) != len(b):
        return "%d values expected, %d returned" % (len(a), len(b))
    for i, (x, y) in enumerate(zip(a, b)):
        if isinstance(x, tuple) or isinstance(y, tuple):
            if x != y:
                return "item %d: %r != %r" % (i, x, y)
            continue
        if x.shape != y.shape:
            return "item %d: shape %s != %s" % (i, list(x.shape), list(y.shape))
        if x.numel() == 0:
            continue
        scale = float(x.abs().max())
        diff = (x - y).abs()
        bad = diff > (rel * x.abs() + rel * max(scale, 1e-3))
        if bool(bad.any()):
            return "item %d: max difference %g (scale %g)" % (i, float(diff.max()), scale)
    return None


def check(tscript, name, tmp, config):
    builder, inputs, needs_tv = MODELS[name][:3]
    rel = MODELS[name][3] if len(MODELS[name]) > 3 else 1e-4
    torch.manual_seed(0)
    model = builder()
    scripted = (model if isinstance(model, torch.jit.ScriptModule)
                else torch.jit.script(model.eval()))
    cmd = [tscript]
    if needs_tv:
        cmd += ["--config", TV_CONFIG]
    elif config:
        cmd += ["--config", config]
    start = time.time()
    want, got, why = run_both(cmd, scripted, inputs, tmp, name)
    took = time.time() - start
    return (why if why else compare(want, got, rel)), took


def run_both(cmd, scripted, inputs, tmp, name, timeout=600, raises=False):
    """Saves the ScriptModule scripted, runs its forward on inputs() (drawn after
    torch.manual_seed(1)) in PyTorch after torch.jit.load and in tscript (the command cmd,
    then `run MODEL.pt --output OUT.pt @INPUT...`): (PyTorch's result, tscript's, None), or
    None, None and why tscript failed. With raises, both must fail: (PyTorch's exception,
    tscript's stderr, None), or None, None and why not."""
    path = os.path.join(tmp, name + ".pt")
    torch.jit.save(scripted, path)
    torch.manual_seed(1)
    args = inputs()
    files = []
    for k, a in enumerate(args):
        f = os.path.join(tmp, "%s_in%d.pt" % (name, k))
        torch.save(a, f)
        files.append("@" + f)
    try:
        with torch.no_grad():
            want = torch.jit.load(path)(*args)
    except Exception as e:
        if not raises:
            raise
        want = e
    else:
        if raises:
            return None, None, "PyTorch did not raise"
    out = os.path.join(tmp, name + "_out.pt")
    r = subprocess.run(cmd + ["run", path, "--output", out] + files, capture_output=True,
                       text=True, timeout=timeout)
    if raises:
        if r.returncode == 0:
            return None, None, "tscript did not fail (PyTorch raised %s)" % str(want)[-300:]
        return want, r.stderr, None
    if r.returncode != 0:
        return None, None, "tscript exited %d: %s" % (r.returncode, r.stderr[-1500:])
    return want, torch.load(out), None


def main():
    argv = sys.argv[1:]
    tscript = argv.pop(0)
    config = None
    if argv[:1] == ["--config"]:
        config = argv[1]
        argv = argv[2:]
    names = argv or list(MODELS)
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for n, name in enumerate(names, 1):
            try:
                why, took = check(tscript, name, tmp, config)
            except Exception as e:   # a model PyTorch itself cannot script, save or run
                why, took = "%s: %s" % (type(e).__name__, str(e)[-800:]), 0
            if why is None:
                print("ok %d - %s runs as in PyTorch (%.1f s)" % (n, name, took))
            else:
                failed += 1
                print("not ok %d - %s runs as in PyTorch" % (n, name))
                for line in why.splitlines():
                    print("# " + line)
            sys.stdout.flush()
            for f in os.listdir(tmp):
                os.remove(os.path.join(tmp, f))
    print("1..%d" % len(names))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
