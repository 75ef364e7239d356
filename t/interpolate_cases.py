# t/interpolate_cases.py — F.interpolate and F.upsample*, which PyTorch writes in Python with
# four @_overload signatures (size an int or a list, scale_factor a float or a list) and
# tscript ships as TorchScript (schemas/torch.nn.functional.py), run as TorchScript: every
# mode at every rank it takes, size against scale_factor, align_corners,
# recompute_scale_factor, and the errors. The test_* functions assert PyTorch 1.13's results
# (a sum and a weighted sum of each output, made by /usr/bin/python3 running F.interpolate);
# each err_* function fails with the message in its `# raises:` line. t/interpolate_cases.sh
# runs both kinds through tscript; they behave the same under PyTorch:
#     /usr/bin/python3 t/interpolate_cases.py
from typing import List, Optional, Tuple

import torch
import torch.nn.functional as F


def near(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-4 + 1e-4 * abs(b)


def sample(rank: int) -> torch.Tensor:
    shape = [1, 2] + [3, 4, 5][:rank - 2]
    n = 1
    for s in shape:
        n *= s
    return torch.arange(float(n)).reshape(shape).sin()


def resample(x: torch.Tensor, mode: str, kind: str, ac: int) -> torch.Tensor:
    # mode, kind and align_corners are values here: the branches are taken at run time
    rank = x.dim()
    corners: Optional[bool] = None
    if ac >= 0:
        corners = ac == 1
    if kind == 'size_int':
        return F.interpolate(x, 5, mode=mode, align_corners=corners)
    if kind == 'size_list':
        return F.interpolate(x, size=[2, 7, 3][:rank - 2], mode=mode, align_corners=corners)
    if kind == 'scale_float':
        return F.interpolate(x, scale_factor=1.7, mode=mode, align_corners=corners)
    if kind == 'scale_list':
        return F.interpolate(x, None, [0.6, 2.0, 1.3][:rank - 2], mode, corners)
    return F.interpolate(x, scale_factor=1.7, mode=mode, align_corners=corners,
                         recompute_scale_factor=True)


def cases() -> List[Tuple[str, int, str, int, List[int], float, float]]:
    # (mode, rank, kind, align_corners (-1 None), output shape, sum, weighted sum)
    return [
    ('nearest', 3, 'size_int', -1, [1, 2, 5], 0.40195, -1.188788),
    ('nearest', 3, 'size_list', -1, [1, 2, 2], 0.225788, 1.145151),
    ('nearest', 3, 'scale_float', -1, [1, 2, 5], 0.40195, -1.188788),
    ('nearest', 3, 'scale_list', -1, [1, 2, 1], 0.14112, 0.076247),
    ('nearest', 3, 'recompute', -1, [1, 2, 5], 0.40195, -1.188788),
    ('nearest', 4, 'size_int', -1, [1, 2, 5, 5], -0.052637, -4.712348),
    ('nearest', 4, 'size_list', -1, [1, 2, 2, 7], -1.14265, 1.184101),
    ('nearest', 4, 'scale_float', -1, [1, 2, 5, 6], -0.285431, -5.628818),
    ('nearest', 4, 'scale_list', -1, [1, 2, 1, 8], 6.832756, 0.268264),
    ('nearest', 4, 'recompute', -1, [1, 2, 5, 6], 1.133494, -7.785259),
    ('nearest', 5, 'size_int', -1, [1, 2, 5, 5, 5], 0.755099, 25.407179),
    ('nearest', 5, 'size_list', -1, [1, 2, 2, 7, 3], -1.324013, 1.926525),
    ('nearest', 5, 'scale_float', -1, [1, 2, 5, 6, 8], -4.244816, -0.028606),
    ('nearest', 5, 'scale_list', -1, [1, 2, 1, 8, 6], -1.101728, -19.392559),
    ('nearest', 5, 'recompute', -1, [1, 2, 5, 6, 8], -1.900612, -4.047801),
    ('nearest-exact', 3, 'size_int', -1, [1, 2, 5], 0.267655, -1.226526),
    ('nearest-exact', 3, 'size_list', -1, [1, 2, 2], 0.091493, 1.381897),
    ('nearest-exact', 3, 'scale_float', -1, [1, 2, 5], 0.267655, -1.226526),
    ('nearest-exact', 3, 'scale_list', -1, [1, 2, 1], 0.14112, 0.076247),
    ('nearest-exact', 3, 'recompute', -1, [1, 2, 5], 0.267655, -1.226526),
    ('nearest-exact', 4, 'size_int', -1, [1, 2, 5, 5], 6.81184, -5.908793),
    ('nearest-exact', 4, 'size_list', -1, [1, 2, 2, 7], 5.826333, -3.689758),
    ('nearest-exact', 4, 'scale_float', -1, [1, 2, 5, 6], 8.498596, -0.382058),
    ('nearest-exact', 4, 'scale_list', -1, [1, 2, 1, 8], 6.832756, 0.268264),
    ('nearest-exact', 4, 'recompute', -1, [1, 2, 5, 6], 6.945939, 1.897563),
    ('nearest-exact', 5, 'size_int', -1, [1, 2, 5, 5, 5], -0.9236, 13.182429),
    ('nearest-exact', 5, 'size_list', -1, [1, 2, 2, 7, 3], -0.032936, -2.651637),
    ('nearest-exact', 5, 'scale_float', -1, [1, 2, 5, 6, 8], 0.068249, -1.854691),
    ('nearest-exact', 5, 'scale_list', -1, [1, 2, 1, 8, 6], -1.084376, -26.578709),
    ('nearest-exact', 5, 'recompute', -1, [1, 2, 5, 6, 8], -0.679906, -0.346895),
    ('area', 3, 'size_int', -1, [1, 2, 5], 0.306577, -1.411412),
    ('area', 3, 'size_list', -1, [1, 2, 2], 0.130415, 1.871093),
    ('area', 3, 'scale_float', -1, [1, 2, 5], 0.306577, -1.411412),
    ('area', 3, 'scale_list', -1, [1, 2, 1], 0.058721, 0.300002),
    ('area', 3, 'recompute', -1, [1, 2, 5], 0.306577, -1.411412),
    ('area', 4, 'size_int', -1, [1, 2, 5, 5], -0.129221, -5.702785),
    ('area', 4, 'size_list', -1, [1, 2, 2, 7], -2.167571, 0.026907),
    ('area', 4, 'scale_float', -1, [1, 2, 5, 6], -0.186862, -3.849192),
    ('area', 4, 'scale_list', -1, [1, 2, 1, 8], 0.653204, -0.113721),
    ('area', 4, 'recompute', -1, [1, 2, 5, 6], -0.186862, -3.849192),
    ('area', 5, 'size_int', -1, [1, 2, 5, 5, 5], -0.132059, 20.738142),
    ('area', 5, 'size_list', -1, [1, 2, 2, 7, 3], -0.145409, -0.491837),
    ('area', 5, 'scale_float', -1, [1, 2, 5, 6, 8], -0.490612, -1.759037),
    ('area', 5, 'scale_list', -1, [1, 2, 1, 8, 6], -0.053436, -9.330167),
    ('area', 5, 'recompute', -1, [1, 2, 5, 6, 8], -0.490612, -1.759037),
    ('linear', 3, 'size_int', -1, [1, 2, 5], 0.298792, -1.374435),
    ('linear', 3, 'size_int', 1, [1, 2, 5], 0.306577, -1.411412),
    ('linear', 3, 'size_int', 0, [1, 2, 5], 0.298792, -1.374435),
    ('linear', 3, 'size_list', -1, [1, 2, 2], 0.110954, 1.626495),
    ('linear', 3, 'size_list', 1, [1, 2, 2], 0.091493, 1.381897),
    ('linear', 3, 'size_list', 0, [1, 2, 2], 0.110954, 1.626495),
    ('linear', 3, 'scale_float', -1, [1, 2, 5], 0.306979, -1.33548),
    ('linear', 3, 'scale_float', 1, [1, 2, 5], 0.306577, -1.411412),
    ('linear', 3, 'scale_float', 0, [1, 2, 5], 0.306979, -1.33548),
    ('linear', 3, 'scale_list', -1, [1, 2, 1], 0.122303, 0.195021),
    ('linear', 3, 'scale_list', 1, [1, 2, 1], 0.14112, 0.076247),
    ('linear', 3, 'scale_list', 0, [1, 2, 1], 0.122303, 0.195021),
    ('linear', 3, 'recompute', -1, [1, 2, 5], 0.298792, -1.374435),
    ('linear', 3, 'recompute', 1, [1, 2, 5], 0.306577, -1.411412),
    ('linear', 3, 'recompute', 0, [1, 2, 5], 0.298792, -1.374435),
    ('bilinear', 4, 'size_int', -1, [1, 2, 5, 5], 1.122908, -6.311734),
    ('bilinear', 4, 'size_int', 1, [1, 2, 5, 5], -0.155718, -5.965199),
    ('bilinear', 4, 'size_int', 0, [1, 2, 5, 5], 1.122908, -6.311734),
    ('bilinear', 4, 'size_list', -1, [1, 2, 2, 7], 2.727545, -1.639108),
    ('bilinear', 4, 'size_list', 1, [1, 2, 2, 7], 8.181281, -3.115034),
    ('bilinear', 4, 'size_list', 0, [1, 2, 2, 7], 2.727545, -1.639108),
    ('bilinear', 4, 'scale_float', -1, [1, 2, 5, 6], 1.970902, -2.495934),
    ('bilinear', 4, 'scale_float', 1, [1, 2, 5, 6], -0.19746, -3.63332),
    ('bilinear', 4, 'scale_float', 0, [1, 2, 5, 6], 1.970902, -2.495934),
    ('bilinear', 4, 'scale_list', -1, [1, 2, 1, 8], 2.42946, 0.590097),
    ('bilinear', 4, 'scale_list', 1, [1, 2, 1, 8], 7.663244, 0.371701),
    ('bilinear', 4, 'scale_list', 0, [1, 2, 1, 8], 2.42946, 0.590097),
    ('bilinear', 4, 'recompute', -1, [1, 2, 5, 6], 1.394963, -2.840649),
    ('bilinear', 4, 'recompute', 1, [1, 2, 5, 6], -0.19746, -3.63332),
    ('bilinear', 4, 'recompute', 0, [1, 2, 5, 6], 1.394963, -2.840649),
    ('bicubic', 4, 'size_int', -1, [1, 2, 5, 5], 1.641475, -7.852414),
    ('bicubic', 4, 'size_int', 1, [1, 2, 5, 5], -1.502512, -6.962087),
    ('bicubic', 4, 'size_int', 0, [1, 2, 5, 5], 1.641475, -7.852414),
    ('bicubic', 4, 'size_list', -1, [1, 2, 2, 7], 2.498353, -1.859884),
    ('bicubic', 4, 'size_list', 1, [1, 2, 2, 7], 8.513766, -3.385438),
    ('bicubic', 4, 'size_list', 0, [1, 2, 2, 7], 2.498353, -1.859884),
    ('bicubic', 4, 'scale_float', -1, [1, 2, 5, 6], 2.271208, -3.19687),
    ('bicubic', 4, 'scale_float', 1, [1, 2, 5, 6], -1.889561, -5.04864),
    ('bicubic', 4, 'scale_float', 0, [1, 2, 5, 6], 2.271208, -3.19687),
    ('bicubic', 4, 'scale_list', -1, [1, 2, 1, 8], 2.269691, 0.710301),
    ('bicubic', 4, 'scale_list', 1, [1, 2, 1, 8], 8.14628, 0.361172),
    ('bicubic', 4, 'scale_list', 0, [1, 2, 1, 8], 2.269691, 0.710301),
    ('bicubic', 4, 'recompute', -1, [1, 2, 5, 6], 1.983766, -3.263901),
    ('bicubic', 4, 'recompute', 1, [1, 2, 5, 6], -1.889561, -5.04864),
    ('bicubic', 4, 'recompute', 0, [1, 2, 5, 6], 1.983766, -3.263901),
    ('trilinear', 5, 'size_int', -1, [1, 2, 5, 5, 5], -0.23106, 19.435806),
    ('trilinear', 5, 'size_int', 1, [1, 2, 5, 5, 5], -0.266818, 20.496799),
    ('trilinear', 5, 'size_int', 0, [1, 2, 5, 5, 5], -0.23106, 19.435806),
    ('trilinear', 5, 'size_list', -1, [1, 2, 2, 7, 3], -0.087408, -0.940797),
    ('trilinear', 5, 'size_list', 1, [1, 2, 2, 7, 3], -0.017287, -0.333746),
    ('trilinear', 5, 'size_list', 0, [1, 2, 2, 7, 3], -0.087408, -0.940797),
    ('trilinear', 5, 'scale_float', -1, [1, 2, 5, 6, 8], -0.160035, -1.297274),
    ('trilinear', 5, 'scale_float', 1, [1, 2, 5, 6, 8], -0.712556, -1.794986),
    ('trilinear', 5, 'scale_float', 0, [1, 2, 5, 6, 8], -0.160035, -1.297274),
    ('trilinear', 5, 'scale_list', -1, [1, 2, 1, 8, 6], -0.841382, -21.749039),
    ('trilinear', 5, 'scale_list', 1, [1, 2, 1, 8, 6], -1.113134, -28.575136),
    ('trilinear', 5, 'scale_list', 0, [1, 2, 1, 8, 6], -0.841382, -21.749039),
    ('trilinear', 5, 'recompute', -1, [1, 2, 5, 6, 8], -0.499849, -1.968594),
    ('trilinear', 5, 'recompute', 1, [1, 2, 5, 6, 8], -0.712556, -1.794986),
    ('trilinear', 5, 'recompute', 0, [1, 2, 5, 6, 8], -0.499849, -1.968594)
    ]


def test_every_mode_rank_and_size_kind():
    for mode, rank, kind, ac, shape, total, weighted in cases():
        y = resample(sample(rank), mode, kind, ac)
        w = (y * torch.arange(y.numel()).reshape(y.size()).cos()).sum().item()
        if y.size() != shape or not near(y.sum().item(), total) or not near(w, weighted):
            print(mode, rank, kind, ac, y.size(), y.sum().item(), w)
            assert False


def test_constant_modes():
    x = torch.arange(16.0).reshape(1, 1, 4, 4)
    assert F.interpolate(x, scale_factor=2.0).size() == [1, 1, 8, 8]
    assert torch.equal(F.interpolate(x, scale_factor=2.0)[0, 0, 0],
                       torch.tensor([0.0, 0.0, 1.0, 1.0, 2.0, 2.0, 3.0, 3.0]))
    b = F.interpolate(x, size=(3, 5), mode='bilinear', align_corners=True)
    assert torch.allclose(b[0, 0, 1], torch.tensor([6.0, 6.75, 7.5, 8.25, 9.0]))
    a = F.interpolate(x, size=3, mode='area')
    assert torch.allclose(a[0, 0, 0], torch.tensor([2.5, 3.5, 4.5]))
    c = F.interpolate(x, scale_factor=0.5, mode='bicubic')
    assert torch.allclose(c[0, 0], torch.tensor([[2.03125, 4.21875], [10.78125, 12.96875]]))
    e = F.interpolate(x, size=[3, 3], mode='nearest-exact')
    assert torch.equal(e[0, 0, 0], torch.tensor([0.0, 2.0, 3.0]))
    l = F.interpolate(x[0], scale_factor=1.5, mode='linear', recompute_scale_factor=True)
    assert l.size() == [1, 4, 6]
    assert torch.allclose(l[0, 0], torch.tensor([0.0, 0.5, 7.0 / 6.0, 11.0 / 6.0, 2.5, 3.0]))
    t = F.interpolate(torch.ones(1, 1, 2, 2, 2), scale_factor=(1.0, 2.0, 0.5), mode='trilinear')
    assert t.size() == [1, 1, 2, 4, 1]


def test_scale_recomputed_or_not():
    # without recompute_scale_factor the operator uses the given scale for the coordinates
    x = torch.arange(5.0).reshape(1, 1, 5)
    plain = F.interpolate(x, scale_factor=1.7, mode='linear')
    again = F.interpolate(x, scale_factor=1.7, mode='linear', recompute_scale_factor=True)
    assert plain.size() == [1, 1, 8] and again.size() == [1, 1, 8]
    assert near(plain[0, 0, 3].item(), 1.5588235) and near(again[0, 0, 3].item(), 1.6875)
    assert F.interpolate(x, scale_factor=1.7, mode='linear',
                         recompute_scale_factor=False).size() == [1, 1, 8]


def test_antialias():
    x = torch.arange(36.0).reshape(1, 1, 6, 6)
    y = F.interpolate(x, size=(3, 3), mode='bilinear', antialias=True)
    assert torch.allclose(y, torch.ops.aten._upsample_bilinear2d_aa(x, [3, 3], False, None))
    z = F.interpolate(x, scale_factor=0.5, mode='bicubic', antialias=True, align_corners=True)
    assert torch.allclose(z, torch.ops.aten._upsample_bicubic2d_aa(x, None, True, [0.5, 0.5]))


def test_upsample_spellings():
    x = torch.arange(4.0).reshape(1, 1, 2, 2)
    assert torch.equal(F.upsample(x, scale_factor=2.0), F.interpolate(x, scale_factor=2.0))
    assert torch.equal(F.upsample(x, size=[3, 3], mode='bilinear'),
                       F.interpolate(x, size=[3, 3], mode='bilinear'))
    assert torch.equal(F.upsample_nearest(x, 3), F.interpolate(x, 3))
    assert torch.allclose(F.upsample_bilinear(x, scale_factor=2.0),
                          F.interpolate(x, scale_factor=2.0, mode='bilinear', align_corners=True))


def interp_mode(x: torch.Tensor, mode: str) -> torch.Tensor:
    return F.interpolate(x, scale_factor=2.0, mode=mode)


def err_both_size_and_scale():
    return F.interpolate(torch.ones(1, 1, 4), size=4, scale_factor=2.0)
    # raises: only one of size or scale_factor should be defined


def err_neither_size_nor_scale():
    return F.interpolate(torch.ones(1, 1, 4))
    # raises: either size or scale_factor should be defined


def err_align_corners_with_nearest():
    return F.interpolate(torch.ones(1, 1, 4), scale_factor=2.0, align_corners=True)
    # raises: align_corners option can only be set with the interpolating modes: linear | bilinear | bicubic | trilinear


def err_size_list_of_the_wrong_length():
    return F.interpolate(torch.ones(1, 1, 4, 4), size=[2, 3, 4])
    # raises: Input and output must have the same number of spatial dimensions, but got input with spatial dimensions of [4, 4] and output size of [2, 3, 4]. Please provide input tensor in (N, C, d1, d2, ...,dK) format and output size in (o1, o2, ...,oK) format.


def err_scale_list_of_the_wrong_length():
    return F.interpolate(torch.ones(1, 1, 4), scale_factor=[2.0, 2.0])
    # raises: Input and scale_factor must have the same number of spatial dimensions, but got input with spatial dimensions of [4] and scale_factor of shape [2., 2.]. Please provide input tensor in (N, C, d1, d2, ...,dK) format and scale_factor in (s1, s2, ...,sK) format.


def err_recompute_with_size():
    return F.interpolate(torch.ones(1, 1, 4), size=8, recompute_scale_factor=True)
    # raises: recompute_scale_factor is not meaningful with an explicit size.


def err_antialias_nearest():
    return F.interpolate(torch.ones(1, 1, 4, 4), scale_factor=0.5, antialias=True)
    # raises: Anti-alias option is only supported for bilinear and bicubic modes


def err_bilinear_of_3d():
    return F.interpolate(torch.ones(1, 1, 4), scale_factor=2.0, mode='bilinear')
    # raises: Got 3D input, but bilinear mode needs 4D input


def err_linear_of_5d():
    return F.interpolate(torch.ones(1, 1, 2, 2, 2), scale_factor=2.0, mode='linear')
    # raises: Got 5D input, but linear mode needs 3D input


def err_trilinear_of_4d():
    return F.interpolate(torch.ones(1, 1, 2, 2), scale_factor=2.0, mode='trilinear')
    # raises: Got 4D input, but trilinear mode needs 5D input


def err_bicubic_of_5d():
    return F.interpolate(torch.ones(1, 1, 2, 2, 2), scale_factor=2.0, mode='bicubic')
    # raises: Input Error: Only 3D, 4D and 5D input Tensors supported (got 5D) for the modes: nearest | linear | bilinear | bicubic | trilinear | area | nearest-exact (got bicubic)


def err_2d_input():
    return F.interpolate(torch.ones(4, 4), scale_factor=2.0)
    # raises: Input Error: Only 3D, 4D and 5D input Tensors supported (got 2D) for the modes: nearest | linear | bilinear | bicubic | trilinear | area | nearest-exact (got nearest)


def err_unknown_mode_at_run_time():
    return interp_mode(torch.ones(1, 1, 4), 'cubic')
    # raises: Input Error: Only 3D, 4D and 5D input Tensors supported (got 3D) for the modes: nearest | linear | bilinear | bicubic | trilinear | area | nearest-exact (got cubic)


def err_size_of_a_str():
    return F.interpolate(torch.ones(1, 1, 4), size='x')
    # raises: Arguments for call are not valid.


if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
