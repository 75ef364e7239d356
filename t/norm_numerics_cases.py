# t/norm_numerics_cases.py — the normalization kernels compute as PyTorch 1.13's CPU kernels do,
# so that their results agree with PyTorch's to the rounding where the data is badly
# conditioned (a mean near 1000 and a spread of 0.01, where a float's rounding of the mean or
# of the folded scale and shift shows in every output): batch_norm's statistics and its
# fused x * alpha + beta, the running statistics' update, layer_norm's and group_norm's
# cascaded Welford moments, float64 and bfloat16 (whose layer_norm PyTorch takes in bfloat16
# arithmetic), contiguous and channels-last inputs. The wanted values are every 37th element
# of PyTorch 1.13's results (t/norm_numerics_cases.py's data is made without the random
# generator), compared to a relative 1e-6, far below the differences between the algorithms
# (1e-4 and more on such data); well-conditioned data is checked against float64.
# t/norm_numerics_cases.sh runs them through tscript; under PyTorch:
#     /usr/bin/python3 t/norm_numerics_cases.py
from typing import List

import torch
import torch.nn.functional as F


def data(n: int, center: float, spread: float, dtype: int) -> torch.Tensor:
    """n values center + k * spread for k in [-498, 498], in a fixed scrambled order."""
    q = (torch.arange(n, dtype=torch.float64) * 7919) % 997
    return (center + (q - 498.0) * spread).to(dtype)


def agree(y: torch.Tensor, want: List[float], rtol: float, step: int = 37):
    """Every step-th element of y is want's, to a relative rtol (absolute below 1)."""
    got = y.reshape(-1).double()[::step]
    assert got.shape == [len(want)], "expected " + str(len(want)) + " values"
    w = torch.tensor(want, dtype=torch.float64)
    err = ((got - w).abs() / w.abs().clamp(min=1.0)).max().item()
    assert err <= rtol, "relative difference " + str(err)


def bad() -> torch.Tensor:
    return data(800, 1000.0, 2e-5, torch.float32).view(8, 4, 5, 5)


def weight() -> torch.Tensor:
    return data(4, 0.0, 0.0037, torch.float32) + 1.0


def bias() -> torch.Tensor:
    return data(4, 0.0, 0.011, torch.float32)


def test_batch_norm_train_ill_conditioned():
    rm = torch.full([4], 999.0)
    rv = torch.full([4], 1e-3)
    y = F.batch_norm(bad(), rm, rv, weight(), bias(), True, 0.1, 1e-5)
    # the running statistics: the batch mean and the unbiased variance, moved by momentum
    want = [999.0999755859375, 999.0999755859375, 999.0999755859375, 999.0999755859375]
    agree(rm, want, 1e-7, 1)
    want = [0.0009033633978106081, 0.000903254491277039, 0.0009034280083142221,
            0.000903236330486834]
    agree(rv, want, 1e-6, 1)
    want = [-4.183700084686279, 7.982822895050049, 6.138981819152832, -5.845231056213379,
            5.190831661224365, 3.077709197998047, -4.963761329650879, 1.9500874280929565,
            0.7275490164756775, 8.600520133972168, 6.696015357971191, -6.048046588897705,
            5.808528423309326, 3.59765625, -5.166577339172363, 2.5071213245391846,
            1.2474960088729858, 1.1634458303451538, 7.275330543518066, -6.2430620193481445,
            6.426225662231445, 4.138401031494141]
    agree(y, want, 1e-6)


def test_batch_norm_train_without_affine():
    y = F.batch_norm(bad(), None, None, None, None, True, 0.1, 1e-5)
    want = [-1.5388048887252808, 1.1771479845046997, 0.7934684157371521, 0.43310433626174927,
            0.11772960424423218, -0.24221168458461761, -0.6130259037017822, -0.9342669248580933,
            -1.3039031028747559, 1.4115326404571533, 1.023220419883728, 0.6738068461418152,
            0.352114200592041, -0.00732421875, -0.3723233640193939, -0.7045149207115173,
            -1.069015622138977, -1.410457968711853, 1.2621625661849976, 0.9052516222000122,
            0.5864987969398499, 0.23695874214172363]
    agree(y, want, 1e-6)


def test_batch_norm_eval_ill_conditioned():
    rm = torch.full([4], 1000.001)
    rv = torch.full([4], 2e-4)
    y = F.batch_norm(bad(), rm, rv, weight(), bias(), False, 0.1, 1e-5)
    # a channels-last input gets the same values
    x = bad().contiguous(memory_format=torch.channels_last)
    assert torch.equal(F.batch_norm(x, rm, rv, weight(), bias(), False, 0.1, 1e-5), y)
    want = [-4.841880798339844, 6.089620590209961, 4.967343807220459, -5.597793102264404,
            4.835338115692139, 3.2282211780548096, -5.1967692375183105, 3.0475685596466064,
            2.1746885776519775, 6.367116928100586, 5.222632884979248, -5.690064430236816,
            5.1128339767456055, 3.4613037109375, -5.289040565490723, 3.3028576374053955,
            2.407771110534668, 3.0260632038116455, 5.488133907318115, -5.778786659240723,
            5.3903303146362305, 3.703709363937378]
    agree(y, want, 1e-6)


def test_instance_norm_ill_conditioned():
    y = F.instance_norm(bad(), None, None, weight(), bias(), True, 0.1, 1e-5)
    want = [-4.094855785369873, 8.341123580932617, 5.818686008453369, -5.893965721130371,
            4.6139349937438965, 2.492440700531006, -4.991989612579346, 1.7229323387145996,
            1.1688605546951294, 9.378927230834961, 6.134888172149658, -5.965733528137207,
            5.931015968322754, 3.197509765625, -5.428990364074707, 2.643714666366577,
            1.3315789699554443, 1.729137897491455, 7.210758686065674, -6.0842509269714355,
            6.815654277801514, 4.298681735992432]
    agree(y, want, 1e-6)


def test_batch_norm_float64():
    x = data(800, 1000.0, 2e-5, torch.float64).view(8, 4, 5, 5)
    y = F.batch_norm(x, None, None, weight().double(), bias().double(), True, 0.1, 1e-5)
    want = [-4.1810946945903735, 7.970152924401349, 6.156805889451131, -5.847644486306526,
            5.1767624643542645, 3.0794899981927544, -4.965804489154971, 1.9580130112647296,
            0.7281331803478733, 8.593605287931014, 6.719079022739291, -6.044460949451283,
            5.8002148279299535, 3.604285577821972, -5.1626209522852, 2.520286144511381,
            1.2529287599770909, 1.1445640612154953, 7.281352155985943, -6.241277412581511,
            6.423667191459619, 4.129081157489931]
    agree(y, want, 1e-6)


def test_layer_norm_ill_conditioned():
    lw = data(25, 1.0, 0.003, torch.float32).view(5, 5)
    lb = data(25, 0.0, 0.005, torch.float32).view(5, 5)
    y = F.layer_norm(bad(), [5, 5], lw, lb, 1e-5)
    want = [-1.6797583103179932, -0.33536481857299805, 1.5315539836883545, -0.33056941628456116,
            0.7927050590515137, -0.7489229440689087, 0.23707430064678192, -1.0708061456680298,
            -0.6131625175476074, 2.151735544204712, 3.4013588428497314, 1.2507296800613403,
            2.9258878231048584, 0.5215775370597839, 2.162545680999756, -0.00237546325661242,
            -1.928335189819336, -0.7820101976394653, -2.3596322536468506, 3.0405969619750977,
            -1.830662727355957, 2.597193717956543]
    agree(y, want, 1e-6)


def test_layer_norm_without_affine():
    y = F.layer_norm(bad(), [5, 5], None, None, 1e-5)
    want = [-1.6401653289794922, 1.3250229358673096, 0.6441864371299744, 0.5023223757743835,
            -0.08507712930440903, -0.5005373954772949, -0.5636881589889526, -1.0446828603744507,
            -1.1113139390945435, 1.71544349193573, 0.7840226292610168, 0.5774843692779541,
            0.3844965398311615, -0.1790771484375, -0.07778187096118927, -0.6530910730361938,
            -1.0284504890441895, -1.1787149906158447, 1.2327704429626465, 0.7059460282325745,
            0.7450396418571472, 0.31192290782928467]
    agree(y, want, 1e-6)


def test_layer_norm_long_rows_cascade():
    # 1000 elements: several chunks of 16 loads of 8 floats, merged pairwise
    x = data(3000, 1000.0, 2e-5, torch.float32).view(3, 1000)
    y = F.layer_norm(x, [1000], None, None, 1e-5)
    want = [-1.5066533088684082, 1.1743916273117065, 0.8218666911125183, 0.46934178471565247,
            0.1260938048362732, -0.22643114626407623, -0.5789560675621033, -0.9222040772438049,
            -1.2747290134429932, 1.4063159227371216, 1.0537910461425781, 0.7105430364608765,
            0.35801810026168823, 0.0054931640625, -0.3377548158168793, -0.6902797222137451,
            -1.0428047180175781, -1.3860526084899902, 1.2949923276901245, 0.9424673318862915,
            0.5899423956871033, 0.2466944456100464, -0.10583050549030304, -0.45835545659065247,
            -0.8016034364700317, -1.1541283130645752, -1.5066533088684082, 1.1743916273117065,
            0.8057118654251099, 0.46191680431365967, 0.10882997512817383, -0.244256854057312,
            -0.5880519151687622, -0.941138744354248, -1.2942255735397339, 1.3910926580429077,
            1.0472975969314575, 0.6942107677459717, 0.34112393856048584, -0.0026711318641901016,
            -0.3557579517364502, -0.708844780921936, -1.0526398420333862, -1.405726671218872,
            1.2795915603637695, 0.9265047311782837, 0.5827096700668335, 0.22962284088134766,
            -0.12346399575471878, -0.46725907921791077, -0.8203458786010742, -1.17343270778656,
            -1.526519536972046, 1.1587986946105957, 0.8150036334991455, 0.47371169924736023,
            0.12029526382684708, -0.22382071614265442, -0.5772371292114258, -0.9306535720825195,
            -1.2747695446014404, 1.4130553007125854, 1.0596388578414917, 0.7062224745750427,
            0.3621065020561218, 0.008690080605447292, -0.3447263538837433, -0.6888423562049866,
            -1.0422587394714355, -1.3956751823425293, 1.2921496629714966, 0.9480337500572205,
            0.5946173071861267, 0.24120087921619415, -0.10291510820388794, -0.4563315212726593,
            -0.8097479343414307, -1.1631643772125244, -1.5072803497314453, 1.1805444955825806,
            0.8271281123161316, 0.47371169924736023]
    agree(y, want, 1e-6)


def test_layer_norm_float64():
    x = data(800, 1000.0, 2e-5, torch.float64).view(8, 4, 5, 5)
    y = F.layer_norm(x, [4, 5, 5], None, None, 1e-5)
    want = [-1.5925627193758671, 1.116744481874606, 0.7634901415599871, 0.4215184536491642,
            0.07694479592565898, -0.26762886179784623, -0.5674483676530718, -0.9160038760445423,
            -1.2645593844360126, 1.4103289968530053, 1.0514825366089255, 0.6622887086174494,
            0.3147178534624016, -0.032853001709826204, -0.3262376234296255, -0.6711611013471525,
            -1.0160845792646793, -1.3513773921325238, 1.3781777865140006, 0.9162511952418947,
            0.5621652773254006, 0.20807935940890632]
    agree(y, want, 1e-6)


def test_group_norm_ill_conditioned():
    y = F.group_norm(bad(), 2, weight(), bias(), 1e-5)
    want = [-4.1299519538879395, 7.882168769836426, 6.070129871368408, -5.811596870422363,
            5.026595115661621, 3.0795648097991943, -4.964564800262451, 2.094282388687134,
            0.8330118656158447, 8.795232772827148, 6.626034259796143, -6.046743869781494,
            5.7397260665893555, 3.52392578125, -5.205543518066406, 2.6065375804901123,
            1.3090823888778687, 1.3910951614379883, 7.653034210205078, -6.242471218109131,
            6.265268325805664, 4.136411190032959]
    agree(y, want, 1e-6)


def test_group_norm_without_affine():
    y = F.group_norm(bad(), 2, None, None, 1e-5)
    want = [-1.6000611782073975, 1.1361382007598877, 0.7520880103111267, 0.39434340596199036,
            0.055024661123752594, -0.23733194172382355, -0.6057655811309814, -0.8951413035392761,
            -1.2494680881500244, 1.482810378074646, 0.9803884625434875, 0.6776731610298157,
            0.32491180300712585, -0.03664170205593109, -0.31933462619781494, -0.6788530349731445,
            -1.0274531841278076, -1.324249029159546, 1.4051545858383179, 0.8947929739952087,
            0.5330681800842285, 0.24117816984653473]
    agree(y, want, 1e-6)


def test_layer_norm_bfloat16():
    # PyTorch takes a bfloat16 row's moments, rstd and rstd * mean in bfloat16
    x = data(800, 3.0, 1e-3, torch.bfloat16).view(8, 4, 5, 5)
    y = F.layer_norm(x, [5, 5], None, None, 1e-5)
    assert y.dtype == torch.bfloat16
    want = [-1.875, 1.578125, 0.703125, 0.58984375, -0.189453125, -0.59765625, -0.6875, -1.265625,
            -1.125, 2.03125, 0.859375, 0.609375, 0.54296875, -0.25, -0.083984375, -0.78125,
            -1.203125, -1.2265625, 1.453125, 0.79296875, 0.8515625, 0.37890625]
    agree(y, want, 1e-6)


def test_layer_norm_bfloat16_long_rows():
    x = data(3000, 3.0, 1e-3, torch.bfloat16).view(3, 1000)
    y = F.layer_norm(x, [1000], None, None, 1e-5)
    want = [-1.7421875, 1.3359375, 0.90234375, 0.5234375, 0.09228515625, -0.28515625, -0.6640625,
            -1.09375, -1.46875, 1.6015625, 1.171875, 0.79296875, 0.361328125, -0.015625,
            -0.392578125, -0.82421875, -1.203125, -1.578125, 1.4375, 1.0625, 0.6328125,
            0.25390625, -0.12353515625, -0.5546875, -0.93359375, -1.3125, -1.7421875, 1.3359375,
            0.87890625, 0.498046875, 0.1162109375, -0.318359375, -0.69921875, -1.1328125,
            -1.515625, 1.5859375, 1.1484375, 0.76953125, 0.333984375, -0.046875, -0.427734375,
            -0.86328125, -1.2421875, -1.625, 1.421875, 1.0390625, 0.60546875, 0.2255859375,
            -0.15625, -0.58984375, -0.97265625, -1.3515625, -1.7890625, 1.3125, 0.87890625,
            0.498046875, 0.1162109375, -0.318359375, -0.69921875, -1.078125, -1.515625, 1.5859375,
            1.1484375, 0.76953125, 0.388671875, -0.046875, -0.427734375, -0.86328125, -1.2421875,
            -1.625, 1.421875, 1.0390625, 0.60546875, 0.2255859375, -0.15625, -0.58984375,
            -0.97265625, -1.3515625, -1.7890625, 1.3125, 0.87890625, 0.498046875]
    agree(y, want, 1e-6)


def test_group_norm_bfloat16():
    # every step in bfloat16 arithmetic, as PyTorch 1.13 takes it
    x = data(800, 3.0, 1e-3, torch.bfloat16).view(8, 4, 5, 5)
    y = F.group_norm(x, 2, weight().to(torch.bfloat16), bias().to(torch.bfloat16), 1e-5)
    assert y.dtype == torch.bfloat16
    want = [-3.90625, 8.375, 6.25, -5.84375, 5.0, 2.875, -4.90625, 1.75, 0.5, 9.375, 6.875,
            -6.09375, 5.75, 3.625, -5.15625, 2.25, 1.0, 1.0, 8.25, -6.34375, 6.375, 4.25]
    agree(y, want, 1e-6)


def test_group_norm_bfloat16_without_affine():
    x = data(800, 3.0, 1e-3, torch.bfloat16).view(8, 4, 5, 5)
    y = F.group_norm(x, 2, None, None, 1e-5)
    want = [-1.8359375, 1.3359375, 0.87109375, 0.4765625, 0.052978515625, -0.31640625,
            -0.69921875, -1.0390625, -1.421875, 1.6796875, 1.1171875, 0.75390625, 0.32421875, 0.0,
            -0.37109375, -0.8046875, -1.1796875, -1.4921875, 1.625, 1.0078125, 0.55859375,
            0.2734375]
    agree(y, want, 1e-6)


def close_to_float64(y: torch.Tensor, ref: torch.Tensor, tol: float):
    err = (y.double() - ref).abs().max().item()
    assert err <= tol, "difference from float64 " + str(err)


def test_well_conditioned_against_float64():
    x = data(800, 0.5, 2e-3, torch.float64).view(8, 4, 5, 5)
    w = weight().double()
    b = bias().double()
    for cl in [False, True]:
        xf = x.float()
        if cl:
            xf = xf.contiguous(memory_format=torch.channels_last)
        rm = torch.zeros(4)
        rv = torch.ones(4)
        rmd = rm.double()
        rvd = rv.double()
        close_to_float64(F.batch_norm(xf, rm, rv, w.float(), b.float(), True, 0.1, 1e-5),
                         F.batch_norm(x, rmd, rvd, w, b, True, 0.1, 1e-5), 2e-5)
        close_to_float64(rm, rmd, 1e-7)
        close_to_float64(rv, rvd, 1e-7)
        close_to_float64(F.batch_norm(xf, rm, rv, w.float(), b.float(), False, 0.1, 1e-5),
                         F.batch_norm(x, rmd, rvd, w, b, False, 0.1, 1e-5), 2e-5)
        close_to_float64(F.group_norm(xf, 2, w.float(), b.float(), 1e-5),
                         F.group_norm(x, 2, w, b, 1e-5), 2e-5)
        close_to_float64(F.instance_norm(xf, None, None, w.float(), b.float(), True, 0.1, 1e-5),
                         F.instance_norm(x, None, None, w, b, True, 0.1, 1e-5), 2e-5)
    close_to_float64(F.layer_norm(x.float(), [5, 5], None, None, 1e-5),
                     F.layer_norm(x, [5, 5], None, None, 1e-5), 2e-5)
    xl = data(3000, -2.0, 3e-3, torch.float64).view(3, 1000)
    close_to_float64(F.layer_norm(xl.float(), [1000], None, None, 1e-5),
                     F.layer_norm(xl, [1000], None, None, 1e-5), 2e-5)
    xb = data(800, 0.5, 2e-3, torch.bfloat16).view(8, 4, 5, 5)
    ref = F.layer_norm(xb.double(), [5, 5], None, None, 1e-5)
    close_to_float64(F.layer_norm(xb, [5, 5], None, None, 1e-5), ref, 0.05)


if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
