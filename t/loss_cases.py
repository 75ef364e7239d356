# t/loss_cases.py — torch.nn.functional's losses, distances and the other F functions
# PyTorch writes in Python (schemas/torch.nn.functional.py) over the aten kernels of
# schemas/aten_loss.yaml (loss_more.c, ctc.c, distance.c, unpool.c, tensordot.c), and
# torch.cdist / torch.tensordot (schemas/torch.functional.py), run as TorchScript. The test_*
# functions assert PyTorch 1.13's results (reduction none/sum/mean, weights, margins, p norms,
# batched and unbatched inputs, both cdist paths); each err_* function fails with the message
# in its `# raises:` line. t/loss_cases.sh runs them through tscript; under PyTorch:
#     /usr/bin/python3 t/loss_cases.py
import torch
import torch.nn.functional as F


def close(a: torch.Tensor, b: torch.Tensor) -> bool:
    return a.dtype == b.dtype and a.size() == b.size() and bool(torch.allclose(a, b, 1e-4, 1e-5))


def test_cosine_hinge_ranking_soft():
    a = torch.tensor([[0.2, 0.4, -0.1], [-0.5, 1.0, 0.3]])
    b = torch.tensor([[0.1, -0.4, 0.2], [0.5, 0.5, -0.2]])
    y = torch.tensor([[1., -1., 1.], [-1., 1., 1.]])
    assert close(F.cosine_embedding_loss(a, b, torch.tensor([1., -1.])),
                 torch.tensor(0.9926320910453796, dtype=torch.float32))
    assert close(F.cosine_embedding_loss(a, b, torch.tensor([1., -1.]), margin=0.1, reduction='none'),
                 torch.tensor([1.7619047164916992, 0.12335943430662155], dtype=torch.float32))
    assert close(F.cosine_embedding_loss(a[0], b[0], torch.tensor(-1.), margin=-0.5, reduction='sum'),
                 torch.tensor(0.0, dtype=torch.float32))
    assert close(F.hinge_embedding_loss(a, y),
                 torch.tensor(0.5833333134651184, dtype=torch.float32))
    assert close(F.hinge_embedding_loss(a, y, margin=0.3, reduction='none'),
                 torch.tensor([[0.20000000298023224, 0.0, -0.10000000149011612], [0.800000011920929, 1.0, 0.30000001192092896]], dtype=torch.float32))
    assert close(F.hinge_embedding_loss(a, y[0], reduction='sum'),
                 torch.tensor(0.5, dtype=torch.float32))
    assert close(F.margin_ranking_loss(a[0], b[0], torch.tensor([1., -1., 1.])),
                 torch.tensor(0.36666667461395264, dtype=torch.float32))
    assert close(F.margin_ranking_loss(a, b, y, margin=0.2, reduction='none'),
                 torch.tensor([[0.10000000149011612, 1.0, 0.5], [0.0, 0.0, 0.0]], dtype=torch.float32))
    assert close(F.margin_ranking_loss(a, b, y, reduction='sum'),
                 torch.tensor(1.100000023841858, dtype=torch.float32))
    assert close(F.soft_margin_loss(a, y),
                 torch.tensor(0.5995407700538635, dtype=torch.float32))
    assert close(F.soft_margin_loss(a, y, reduction='none'),
                 torch.tensor([[0.5981389284133911, 0.9130152463912964, 0.7443966865539551], [0.4740769863128662, 0.31326165795326233, 0.554355263710022]], dtype=torch.float32))
    assert close(F.soft_margin_loss(a.double(), y.double(), reduction='sum'),
                 torch.tensor(3.597244695958069, dtype=torch.float64))


def test_triplet_poisson_gaussian():
    a = torch.tensor([[0.2, 0.4, -0.1], [-0.5, 1.0, 0.3]])
    b = torch.tensor([[0.1, -0.4, 0.2], [0.5, 0.5, -0.2]])
    y = torch.tensor([[1., -1., 1.], [-1., 1., 1.]])
    assert close(F.triplet_margin_loss(a, b, b.flip(0)),
                 torch.tensor(1.1134411096572876, dtype=torch.float32))
    assert close(F.triplet_margin_loss(a, b, b.flip(0), swap=True, p=1.0),
                 torch.tensor(1.5000009536743164, dtype=torch.float32))
    assert close(F.triplet_margin_loss(a[0], b[0], b[1], margin=0.5, reduction='none'),
                 torch.tensor(1.0285717248916626, dtype=torch.float32))
    assert close(F.triplet_margin_loss(a, b, b.flip(0), p=3.0, reduction='none'),
                 torch.tensor([1.507095456123352, 0.641243577003479], dtype=torch.float32))
    assert close(F.poisson_nll_loss(a.exp(), b.abs()),
                 torch.tensor(4.720275402069092, dtype=torch.float32))
    assert close(F.poisson_nll_loss(a.abs(), b.abs() * 3, log_input=False, full=True, reduction='none'),
                 torch.tensor([[0.682831346988678, 1.5284342765808105, 1.4815510511398315], [1.7695894241333008, 1.2298686504364014, 1.022383689880371]], dtype=torch.float32))
    assert close(F.poisson_nll_loss(a, b * 4, full=True, reduction='sum'),
                 torch.tensor(9.476348876953125, dtype=torch.float32))
    assert close(F.gaussian_nll_loss(a, b, torch.ones(2, 3) * 0.5),
                 torch.tensor(0.02675974927842617, dtype=torch.float32))
    assert close(F.gaussian_nll_loss(a, b, torch.tensor([0.5, 2.0]), full=True, reduction='none'),
                 torch.tensor([[0.5823649168014526, 1.212364912033081, 0.6623649597167969], [1.5155121088027954, 1.3280121088027954, 1.3280121088027954]], dtype=torch.float32))
    assert close(F.gaussian_nll_loss(a, b, torch.tensor([[0.5], [2.0]]), reduction='sum'),
                 torch.tensor(1.1150000095367432, dtype=torch.float32))


def test_class_margins():
    a = torch.tensor([[0.2, 0.4, -0.1], [-0.5, 1.0, 0.3]])
    b = torch.tensor([[0.1, -0.4, 0.2], [0.5, 0.5, -0.2]])
    y = torch.tensor([[1., -1., 1.], [-1., 1., 1.]])
    assert close(F.multi_margin_loss(a, torch.tensor([1, 0])),
                 torch.tensor(0.9333333373069763, dtype=torch.float32))
    assert close(F.multi_margin_loss(a, torch.tensor([1, 2]), p=2, margin=0.5, weight=torch.tensor([1., 2., 3.]), reduction='none'),
                 torch.tensor([0.06000000238418579, 1.440000057220459], dtype=torch.float32))
    assert close(F.multi_margin_loss(a[1], torch.tensor(2), reduction='sum'),
                 torch.tensor(0.6333333849906921, dtype=torch.float32))
    assert close(F.multi_margin_loss(a.double(), torch.tensor([2, 0]), reduction='none'),
                 torch.tensor([0.9333333373069763, 1.4333333373069763], dtype=torch.float64))
    assert close(F.multilabel_margin_loss(a, torch.tensor([[1, -1, 0], [0, 2, -1]])),
                 torch.tensor(0.9166666269302368, dtype=torch.float32))
    assert close(F.multilabel_margin_loss(a, torch.tensor([[2, 1, 0], [1, -1, 2]]), reduction='none'),
                 torch.tensor([0.0, 0.10000000149011612], dtype=torch.float32))
    assert close(F.multilabel_margin_loss(a[0], torch.tensor([2, -1, 0]), reduction='sum'),
                 torch.tensor(0.9333333969116211, dtype=torch.float32))
    assert close(F.multilabel_soft_margin_loss(a, torch.tensor([[1., 0., 1.], [0., 1., 0.]])),
                 torch.tensor(0.6495407819747925, dtype=torch.float32))
    assert close(F.multilabel_soft_margin_loss(a, torch.tensor([[1., 0., 1.], [0., 1., 0.]]), weight=torch.tensor([1., 2., 3.]), reduction='none'),
                 torch.tensor([1.5524530410766602, 1.221221923828125], dtype=torch.float32))


def test_ctc():
    a = torch.tensor([[0.2, 0.4, -0.1], [-0.5, 1.0, 0.3]])
    b = torch.tensor([[0.1, -0.4, 0.2], [0.5, 0.5, -0.2]])
    y = torch.tensor([[1., -1., 1.], [-1., 1., 1.]])
    assert close(F.ctc_loss(torch.log_softmax(torch.arange(30.).reshape(5, 1, 6).sin(), 2), torch.tensor([[1, 2, 2]]), torch.tensor([5]), torch.tensor([3])),
                 torch.tensor(2.034883975982666, dtype=torch.float32))
    assert close(F.ctc_loss(torch.log_softmax(torch.arange(60.).reshape(5, 2, 6).cos(), 2), torch.tensor([1, 2, 2, 3]), torch.tensor([5, 4]), torch.tensor([3, 1]), reduction='none'),
                 torch.tensor([5.509320259094238, 4.830056667327881], dtype=torch.float32))
    assert close(F.ctc_loss(torch.log_softmax(torch.arange(60.).reshape(5, 2, 6).cos(), 2), torch.tensor([[1, 2, 2], [3, 0, 0]]), torch.tensor([5, 4]), torch.tensor([3, 1]), reduction='sum'),
                 torch.tensor(10.339376449584961, dtype=torch.float32))
    assert close(F.ctc_loss(torch.log_softmax(torch.arange(60.).reshape(5, 2, 6).cos(), 2), torch.tensor([[1, 2, 2], [3, 0, 0]]), torch.tensor([5, 4]), torch.tensor([3, 1]), blank=5),
                 torch.tensor(4.601253986358643, dtype=torch.float32))
    assert close(F.ctc_loss(torch.log_softmax(torch.arange(30.).reshape(5, 6).sin(), 1), torch.tensor([1, 2]), torch.tensor(5), torch.tensor(2)),
                 torch.tensor(2.1547200679779053, dtype=torch.float32))
    assert close(F.ctc_loss(torch.log_softmax(torch.arange(60.).reshape(5, 2, 6).cos(), 2), torch.tensor([[1, 1, 1], [3, 0, 0]]), torch.tensor([2, 4]), torch.tensor([3, 1]), reduction='none'),
                 torch.tensor([float('inf'), 4.830056667327881], dtype=torch.float32))
    assert close(F.ctc_loss(torch.log_softmax(torch.arange(60.).reshape(5, 2, 6).cos(), 2), torch.tensor([[1, 1, 1], [3, 0, 0]]), torch.tensor([2, 4]), torch.tensor([3, 1]), reduction='none', zero_infinity=True),
                 torch.tensor([0.0, 4.830056667327881], dtype=torch.float32))
    assert close(torch.ctc_loss(torch.log_softmax(torch.arange(60.).reshape(5, 2, 6).cos(), 2).double(), torch.tensor([1, 2, 2, 3]).int(), [5, 5], [3, 1], 0, 1, False),
                 torch.tensor(3.872166642863503, dtype=torch.float64))


def test_distances():
    a = torch.tensor([[0.2, 0.4, -0.1], [-0.5, 1.0, 0.3]])
    b = torch.tensor([[0.1, -0.4, 0.2], [0.5, 0.5, -0.2]])
    y = torch.tensor([[1., -1., 1.], [-1., 1., 1.]])
    assert close(F.pdist(a),
                 torch.tensor([1.0049875974655151], dtype=torch.float32))
    assert close(F.pdist(torch.cat([a, b]), 1.0),
                 torch.tensor([1.6999999284744263, 1.2000000476837158, 0.5, 2.0999999046325684, 2.0, 1.6999999284744263], dtype=torch.float32))
    assert close(F.pdist(torch.cat([a, b]), 0.0),
                 torch.tensor([3.0, 3.0, 3.0, 3.0, 3.0, 3.0], dtype=torch.float32))
    assert close(F.pdist(torch.cat([a, b]), float('inf')),
                 torch.tensor([0.699999988079071, 0.800000011920929, 0.30000001192092896, 1.399999976158142, 1.0, 0.8999999761581421], dtype=torch.float32))
    assert close(F.pdist(torch.cat([a, b]).double(), 3.0),
                 torch.tensor([0.8540750136493297, 0.8143252971128643, 0.3072316792534025, 1.435972548591122, 1.0772173482262999, 0.9498614817907904], dtype=torch.float64))
    assert close(torch.cdist(a, b),
                 torch.tensor([[0.8602325916290283, 0.33166247606277466], [1.5264337062835693, 1.2247449159622192]], dtype=torch.float32))
    assert close(torch.cdist(a, b, p=1.0),
                 torch.tensor([[1.2000000476837158, 0.5], [2.0999999046325684, 2.0]], dtype=torch.float32))
    assert close(torch.cdist(a.unsqueeze(0).expand(2, 2, 3), b.flip(0), p=0.5),
                 torch.tensor([[[1.3928204774856567, 3.0918915271759033], [5.828427791595459, 5.171259880065918]], [[1.3928204774856567, 3.0918915271759033], [5.828427791595459, 5.171259880065918]]], dtype=torch.float32))
    assert close(torch.cdist(a, b, compute_mode='use_mm_for_euclid_dist'),
                 torch.tensor([[0.8602325916290283, 0.33166250586509705], [1.5264338254928589, 1.2247449159622192]], dtype=torch.float32))
    assert close(torch.cdist(torch.arange(90.).reshape(30, 3).sin(), torch.arange(6.).reshape(2, 3).cos()),
                 torch.tensor([[1.687455177307129, 1.8991767168045044], [1.6476538181304932, 1.6834721565246582], [1.9041963815689087, 1.6494479179382324], [1.3646373748779297, 1.9041259288787842], [2.08673095703125, 1.363242506980896], [1.0514378547668457, 2.0915207862854004], [2.2326831817626953, 1.0482205152511597], [0.7163897752761841, 2.24255108833313], [2.3394527435302734, 0.7128902077674866], [0.3684120178222656, 2.3538291454315186], [2.404214382171631, 0.3660665452480316], [0.016453702002763748, 2.421834945678711], [2.424116373062134, 0.01633736863732338], [0.33102408051490784, 2.4432404041290283], [2.3966383934020996, 0.3284258544445038], [0.6664830446243286, 2.4153456687927246], [2.3200368881225586, 0.6613543033599854], [0.9835729598999023, 2.3365421295166016], [2.19378924369812, 0.9767793416976929], [1.2772221565246582, 2.2067177295684814], [2.018955945968628, 1.270166039466858], [1.5435266494750977, 2.027540445327759], [1.7983992099761963, 1.5378972291946411], [1.7794798612594604, 1.802569031715393], [1.536818027496338, 1.7769321203231812], [1.9826035499572754, 1.537173867225647], [1.2405948638916016, 1.984431505203247], [2.150574207305908, 1.238278865814209], [0.917469322681427, 2.157445192337036], [2.280937671661377, 0.9139511585235596]], dtype=torch.float32))
    assert close(torch.cdist(torch.arange(90.).reshape(30, 3).sin(), torch.arange(6.).reshape(2, 3).cos(), compute_mode='donot_use_mm_for_euclid_dist'),
                 torch.tensor([[1.687455177307129, 1.8991767168045044], [1.6476538181304932, 1.6834721565246582], [1.9041963815689087, 1.6494477987289429], [1.3646372556686401, 1.9041260480880737], [2.08673095703125, 1.3632423877716064], [1.0514378547668457, 2.0915207862854004], [2.2326831817626953, 1.0482206344604492], [0.7163897752761841, 2.24255108833313], [2.3394527435302734, 0.7128902673721313], [0.36841198801994324, 2.3538291454315186], [2.404214382171631, 0.36606669425964355], [0.016454437747597694, 2.421834945678711], [2.4241161346435547, 0.016332905739545822], [0.33102408051490784, 2.4432404041290283], [2.3966383934020996, 0.3284258544445038], [0.6664829254150391, 2.4153456687927246], [2.3200368881225586, 0.6613543629646301], [0.9835730791091919, 2.3365418910980225], [2.193789005279541, 0.9767793416976929], [1.2772221565246582, 2.2067177295684814], [2.018955945968628, 1.270166039466858], [1.5435266494750977, 2.027540683746338], [1.7983993291854858, 1.5378972291946411], [1.7794798612594604, 1.8025691509246826], [1.536818027496338, 1.7769321203231812], [1.9826034307479858, 1.537173867225647], [1.2405948638916016, 1.984431505203247], [2.150574207305908, 1.2382789850234985], [0.9174692630767822, 2.1574454307556152], [2.280937671661377, 0.9139511585235596]], dtype=torch.float32))
    assert torch.cdist(a, torch.zeros(0, 3)).size() == [2, 0]


def test_contractions():
    a = torch.tensor([[0.2, 0.4, -0.1], [-0.5, 1.0, 0.3]])
    b = torch.tensor([[0.1, -0.4, 0.2], [0.5, 0.5, -0.2]])
    y = torch.tensor([[1., -1., 1.], [-1., 1., 1.]])
    assert close(torch.tensordot(torch.arange(24.).reshape(2, 3, 4), torch.arange(12.).reshape(3, 4), 2),
                 torch.tensor([506.0, 1298.0], dtype=torch.float32))
    assert close(torch.tensordot(torch.arange(24.).reshape(2, 3, 4), torch.arange(12.).reshape(4, 3), ([1, 2], [1, 0])),
                 torch.tensor([440.0, 1232.0], dtype=torch.float32))
    assert close(torch.tensordot(torch.arange(24.).reshape(2, 3, 4), torch.arange(8.).reshape(2, 4), [[0], [0]]),
                 torch.tensor([[[48.0, 60.0, 72.0, 84.0], [52.0, 66.0, 80.0, 94.0], [56.0, 72.0, 88.0, 104.0], [60.0, 78.0, 96.0, 114.0]], [[64.0, 84.0, 104.0, 124.0], [68.0, 90.0, 112.0, 134.0], [72.0, 96.0, 120.0, 144.0], [76.0, 102.0, 128.0, 154.0]], [[80.0, 108.0, 136.0, 164.0], [84.0, 114.0, 144.0, 174.0], [88.0, 120.0, 152.0, 184.0], [92.0, 126.0, 160.0, 194.0]]], dtype=torch.float32))
    assert close(torch.tensordot(torch.arange(6).reshape(2, 3), torch.arange(6).reshape(3, 2), torch.tensor(1)),
                 torch.tensor([[10, 13], [28, 40]], dtype=torch.int64))
    assert close(torch.tensordot(torch.arange(6.).reshape(2, 3), torch.arange(6.).reshape(2, 3), torch.tensor([[0, 1], [0, 1]])),
                 torch.tensor(55.0, dtype=torch.float32))
    assert close(torch.tensordot(torch.ones(2, 1), torch.arange(12.).reshape(3, 4), ([1], [0])),
                 torch.tensor([[12.0, 15.0, 18.0, 21.0], [12.0, 15.0, 18.0, 21.0]], dtype=torch.float32))
    assert close(torch.tensordot(a, b, 0),
                 torch.tensor([[[[0.020000001415610313, -0.08000000566244125, 0.04000000283122063], [0.10000000149011612, 0.10000000149011612, -0.04000000283122063]], [[0.04000000283122063, -0.1600000113248825, 0.08000000566244125], [0.20000000298023224, 0.20000000298023224, -0.08000000566244125]], [[-0.010000000707805157, 0.04000000283122063, -0.020000001415610313], [-0.05000000074505806, -0.05000000074505806, 0.020000001415610313]]], [[[-0.05000000074505806, 0.20000000298023224, -0.10000000149011612], [-0.25, -0.25, 0.10000000149011612]], [[0.10000000149011612, -0.4000000059604645, 0.20000000298023224], [0.5, 0.5, -0.20000000298023224]], [[0.030000001192092896, -0.12000000476837158, 0.06000000238418579], [0.15000000596046448, 0.15000000596046448, -0.06000000238418579]]]], dtype=torch.float32))
    assert close(F.bilinear(a, b, torch.arange(36.).reshape(4, 3, 3) / 10),
                 torch.tensor([[-0.006000000983476639, -0.05099997669458389, -0.09600001573562622, -0.14099997282028198], [0.3919999599456787, 0.9679999947547913, 1.5440000295639038, 2.119999885559082]], dtype=torch.float32))
    assert close(F.bilinear(a, b, torch.arange(36.).reshape(4, 3, 3) / 10, torch.tensor([1., 2., 3., 4.])),
                 torch.tensor([[0.9940000176429749, 1.9490000009536743, 2.9040000438690186, 3.8589999675750732], [1.3919999599456787, 2.9679999351501465, 4.544000148773193, 6.119999885559082]], dtype=torch.float32))
    assert close(F.bilinear(a[0], b[0], torch.arange(18.).reshape(2, 3, 3) / 10),
                 torch.tensor([-0.006000000983476639, -0.05099997669458389], dtype=torch.float32))
    assert close(F.bilinear(a.double().unsqueeze(0), b.double().unsqueeze(0), torch.ones(2, 3, 3).double()),
                 torch.tensor([[[-0.05000000149011613, -0.05000000149011613], [0.6400000071525573, 0.6400000071525573]]], dtype=torch.float64))


def test_unpool_shuffle_pools():
    a = torch.tensor([[0.2, 0.4, -0.1], [-0.5, 1.0, 0.3]])
    b = torch.tensor([[0.1, -0.4, 0.2], [0.5, 0.5, -0.2]])
    y = torch.tensor([[1., -1., 1.], [-1., 1., 1.]])
    assert close(F.max_unpool2d(torch.tensor([[[[5., 7.], [13., 15.]]]]), torch.tensor([[[[5, 7], [13, 15]]]]), 2),
                 torch.tensor([[[[0.0, 0.0, 0.0, 0.0], [0.0, 5.0, 0.0, 7.0], [0.0, 0.0, 0.0, 0.0], [0.0, 13.0, 0.0, 15.0]]]], dtype=torch.float32))
    assert close(F.max_unpool2d(torch.tensor([[[5., 7.]]]), torch.tensor([[[5, 2]]]), 2, output_size=[3, 3]),
                 torch.tensor([[[0.0, 0.0, 7.0], [0.0, 0.0, 5.0], [0.0, 0.0, 0.0]]], dtype=torch.float32))
    assert close(F.max_unpool1d(torch.tensor([[[3., 5.]]]), torch.tensor([[[1, 3]]]), 2),
                 torch.tensor([[[0.0, 3.0, 0.0, 5.0]]], dtype=torch.float32))
    assert close(F.max_unpool1d(torch.tensor([[3., 5.]]), torch.tensor([[0, 4]]), 2, stride=3),
                 torch.tensor([[3.0, 0.0, 0.0, 0.0, 5.0]], dtype=torch.float32))
    assert close(F.max_unpool3d(torch.tensor([[[[[1., 2.]]]]]), torch.tensor([[[[[0, 7]]]]]), 2),
                 torch.tensor([[[[[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 2.0]], [[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]]]]], dtype=torch.float32))
    assert close(F.channel_shuffle(torch.arange(12.).reshape(1, 6, 2), 3),
                 torch.tensor([[[0.0, 1.0], [4.0, 5.0], [8.0, 9.0], [2.0, 3.0], [6.0, 7.0], [10.0, 11.0]]], dtype=torch.float32))
    assert close(F.native_channel_shuffle(torch.arange(16).reshape(2, 4, 2), 2),
                 torch.tensor([[[0, 1], [4, 5], [2, 3], [6, 7]], [[8, 9], [12, 13], [10, 11], [14, 15]]], dtype=torch.int64))
    assert close(F.local_response_norm(torch.arange(24.).reshape(1, 4, 2, 3), 2),
                 torch.tensor([[[[0.0, 0.999962568283081, 1.9997000694274902], [2.998987913131714, 3.9976015090942383, 4.995317459106445]], [[5.991912841796875, 6.986903190612793, 7.979660511016846], [8.969743728637695, 9.956719398498535, 10.940156936645508]], [[11.919633865356445, 12.894728660583496, 13.865034103393555], [14.830146789550781, 15.789674758911133, 16.743227005004883]], [[17.690433502197266, 18.630924224853516, 19.56434440612793], [20.490352630615234, 21.408618927001953, 22.318811416625977]]]], dtype=torch.float32))
    assert close(F.local_response_norm(torch.arange(12.).reshape(1, 4, 3), 3, alpha=0.1, beta=0.5, k=2.0),
                 torch.tensor([[[0.0, 0.6241877675056458, 1.1611695289611816], [1.603567361831665, 1.9518002271652222, 2.2140371799468994], [2.4096579551696777, 2.5560386180877686, 2.6666667461395264], [3.7052414417266846, 3.7886762619018555, 3.84919810295105]]], dtype=torch.float32))
    assert close(F.lp_pool2d(torch.arange(16.).reshape(1, 1, 4, 4), 2.0, 2),
                 torch.tensor([[[[6.480740547180176, 9.899495124816895], [21.40093421936035, 25.337718963623047]]]], dtype=torch.float32))
    assert close(F.lp_pool2d(torch.arange(16.).reshape(1, 1, 4, 4), 3.0, [2, 1], stride=[1, 2]),
                 torch.tensor([[[[4.0, 6.073177814483643], [8.320335388183594, 10.673606872558594], [13.08426570892334, 15.527872085571289]]]], dtype=torch.float32))
    assert close(F.lp_pool1d(torch.arange(6.).reshape(1, 1, 6), 1.0, 2),
                 torch.tensor([[[1.0, 5.0, 9.0]]], dtype=torch.float32))
    assert close(F.lp_pool1d(torch.arange(7.).reshape(1, 7), 2.0, 3, stride=2, ceil_mode=True),
                 torch.tensor([[2.2360680103302, 5.385164737701416, 8.774964332580566]], dtype=torch.float32))
    assert close(F.affine_grid(torch.tensor([[[1., 0.5, 0.], [0., 1., 0.2]]]), [1, 1, 2, 3], align_corners=False),
                 torch.tensor([[[[-0.9166666865348816, -0.30000001192092896], [-0.25, -0.30000001192092896], [0.4166666865348816, -0.30000001192092896]], [[-0.4166666865348816, 0.699999988079071], [0.25, 0.699999988079071], [0.9166666865348816, 0.699999988079071]]]], dtype=torch.float32))
    assert close(F.grid_sample(torch.arange(16.).reshape(1, 1, 4, 4), torch.tensor([[[[0., 0.], [0.5, -0.5]]]]), align_corners=True),
                 torch.tensor([[[[7.5, 5.25]]]], dtype=torch.float32))


def test_forms_agree():
    a = torch.tensor([[0.2, 0.4, -0.1], [-0.5, 1.0, 0.3]])
    t = torch.tensor([[1, -1, 0], [0, 2, -1]])
    out, is_target = torch.ops.aten.multilabel_margin_loss_forward(a, t, 0)
    assert close(out, F.multilabel_margin_loss(a, t, reduction='none'))
    assert close(is_target, torch.tensor([[0., 1., 0.], [1., 0., 1.]]))
    assert close(F.pdist(a), torch.ops.aten._pdist_forward(a, 2.0))
    assert close(torch.ops.aten._euclidean_dist(a, a * 3), torch.cdist(a, a * 3))
    assert close(F.hinge_embedding_loss(a, torch.ones(2, 3), size_average=False),
                 F.hinge_embedding_loss(a, torch.ones(2, 3), reduction='sum'))
    lp = torch.log_softmax(torch.arange(60.).reshape(5, 2, 6).cos(), 2)
    nll, alpha = torch.ops.aten._ctc_loss(lp, torch.tensor([1, 2, 2, 3]), [5, 4], [3, 1], 0, False)
    assert close(nll, F.ctc_loss(lp, torch.tensor([1, 2, 2, 3]), torch.tensor([5, 4]),
                                 torch.tensor([3, 1]), reduction='none'))
    assert alpha.size() == [2, 5, 7]


def err_reduction_string():
    a = torch.ones(2, 3)
    # raises: bad is not a valid value for reduction
    return F.soft_margin_loss(a, a, reduction='bad')


def err_poisson_reduction():
    a = torch.ones(2, 3)
    # raises: bad is not valid
    return F.poisson_nll_loss(a, a, reduction='bad')


def err_cosine_target_dims():
    a = torch.ones(2, 3)
    # raises: 0D or 1D target tensor expected, multi-target not supported
    return F.cosine_embedding_loss(a, a, torch.ones(2, 1))


def err_cosine_input_dims():
    a = torch.ones(2, 3)
    # raises: 1D target tensor expects 2D input tensors, but found inputs with sizes [3] and [2, 3].
    return F.cosine_embedding_loss(a[0], a, torch.ones(2))


def err_ranking_dims():
    a = torch.ones(2, 3)
    # raises: margin_ranking_loss : All input tensors should have same dimension but got sizes: input1: [2, 3], input2: [3]
    return F.margin_ranking_loss(a, a[0], torch.ones(2, 3))


def err_triplet_dims():
    a = torch.ones(2, 3)
    # raises: All inputs should have same dimension but got 2D, 1D and 2D inputs.
    return F.triplet_margin_loss(a, a[0], a)


def err_soft_margin_int():
    a = torch.ones(2, 3, dtype=torch.long)
    # raises: result type Float can't be cast to the desired output type Long
    return F.soft_margin_loss(a, a)


def err_multi_margin_p():
    # raises: only p == 1 and p == 2 supported
    return F.multi_margin_loss(torch.ones(2, 3), torch.tensor([0, 1]), p=3)


def err_multi_margin_target_range():
    # raises: target out of range
    return F.multi_margin_loss(torch.ones(2, 3), torch.tensor([0, 3]))


def err_multi_margin_target_size():
    # raises: inconsistent target size, got: [1]
    return F.multi_margin_loss(torch.ones(2, 3), torch.tensor([0]))


def err_multi_margin_long_input():
    # raises: "multi_margin_loss_cpu_kernel" not implemented for 'Long'
    return F.multi_margin_loss(torch.ones(2, 3, dtype=torch.long), torch.tensor([0, 1]))


def err_multilabel_target_size():
    # raises: inconsistent size [1, 3] for argument #2 'target'
    return F.multilabel_margin_loss(torch.ones(2, 3), torch.tensor([[0, 1, -1]]))


def err_multilabel_target_dtype():
    # raises: expected scalar type Long but found Int
    return F.multilabel_margin_loss(torch.ones(2, 3), torch.zeros(2, 3, dtype=torch.int))


def err_gaussian_var_size():
    # raises: var is of incorrect size
    return F.gaussian_nll_loss(torch.ones(2, 3), torch.ones(2, 3), torch.ones(3, 2))


def err_gaussian_var_negative():
    # raises: var has negative entry/entries
    return F.gaussian_nll_loss(torch.ones(2, 3), torch.ones(2, 3), -torch.ones(2, 3))


def err_ctc_input_length():
    lp = torch.zeros(5, 2, 6).log_softmax(2)
    # raises: Expected input_lengths to have value at most 5, but got value 6 (while checking arguments for ctc_loss_cpu)
    return F.ctc_loss(lp, torch.tensor([1, 2, 2, 3]), torch.tensor([5, 6]), torch.tensor([3, 1]))


def err_ctc_targets_size():
    lp = torch.zeros(5, 2, 6).log_softmax(2)
    # raises: Expected tensor to have size 5 at dimension 0, but got size 4 for argument #2 'targets' (while checking arguments for ctc_loss_cpu)
    return F.ctc_loss(lp, torch.tensor([1, 2, 2, 3]), torch.tensor([5, 5]), torch.tensor([3, 2]))


def err_ctc_blank():
    lp = torch.zeros(5, 2, 6).log_softmax(2)
    # raises: blank must be in label range
    return F.ctc_loss(lp, torch.tensor([1, 2, 2, 3]), torch.tensor([5, 5]), torch.tensor([3, 1]), blank=7)


def err_ctc_batch():
    lp = torch.zeros(5, 2, 6).log_softmax(2)
    # raises: input_lengths must be of size batch_size
    return F.ctc_loss(lp, torch.tensor([1, 2, 2, 3]), torch.tensor([5]), torch.tensor([3, 1]))


def err_pdist_dims():
    # raises: pdist only supports 2D tensors, got: 1D
    return F.pdist(torch.ones(3))


def err_pdist_p():
    # raises: pdist only supports non-negative p values
    return F.pdist(torch.ones(2, 3), -1.0)


def err_cdist_columns():
    # raises: X1 and X2 must have the same number of columns. X1: 3 X2: 2
    return torch.cdist(torch.ones(2, 3), torch.ones(2, 2))


def err_cdist_dtype():
    # raises: cdist only supports floating-point dtypes, X2 got: Long
    return torch.cdist(torch.ones(2, 3), torch.ones(2, 3, dtype=torch.long))


def err_cdist_mode():
    # raises: x is not a valid value for compute_mode
    return torch.cdist(torch.ones(2, 3), torch.ones(2, 3), compute_mode='x')


def err_tensordot_sizes():
    # raises: contracted dimensions need to match, but first has size 3 in dim -1 and second has size 2 in dim 0
    return torch.tensordot(torch.ones(2, 3), torch.ones(2, 3), 1)


def err_tensordot_negative():
    # raises: tensordot expects dims >= 0, but got dims=-1
    return torch.tensordot(torch.ones(2, 3), torch.ones(2, 3), -1)


def err_tensordot_lists():
    # raises: both dimension lists should have same length
    return torch.tensordot(torch.ones(2, 3), torch.ones(2, 3), ([0, 1], [1]))


def err_bilinear_weight():
    # raises: bilinear(): input2 size does not match weight size: got 4 but expected 3
    return F.bilinear(torch.ones(2, 3), torch.ones(2, 4), torch.ones(5, 3, 3))


def err_bilinear_bias():
    # raises: bilinear(): bias size does not match weight size: got 4 but expected 5
    return F.bilinear(torch.ones(2, 3), torch.ones(2, 4), torch.ones(5, 3, 4), torch.ones(4))


def err_channel_shuffle_groups():
    # raises: Number of channels must be divisible by groups. Got 4 channels and 3 groups.
    return F.channel_shuffle(torch.ones(1, 4, 2), 3)


def err_channel_shuffle_dims():
    # raises: channel_shuffle expects input with > 2 dims, but got input with sizes [1, 4]
    return F.channel_shuffle(torch.ones(1, 4), 2)


def err_unpool_index():
    # raises: Found an invalid max index: 9
    return F.max_unpool2d(torch.ones(1, 1, 1, 2), torch.tensor([[[[0, 9]]]]), 2, output_size=[1, 3])


def err_unpool_output_size():
    # raises: invalid output_size "[9, 9]" (dim 0 must be between 0 and 4)
    return F.max_unpool2d(torch.ones(1, 1, 1, 2), torch.tensor([[[[0, 1]]]]), 2, output_size=[9, 9])


def err_unpool_indices_dtype():
    # raises: elements in indices should be type int64 but got: Int
    return F.max_unpool2d(torch.ones(1, 1, 1, 2), torch.tensor([[[[0, 1]]]], dtype=torch.int), 2)


def err_local_response_norm_dims():
    # raises: Expected 3D or higher dimensionality
    return F.local_response_norm(torch.ones(2, 3), 2)


if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
