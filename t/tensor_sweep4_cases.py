# t/tensor_sweep4_cases.py — the fourth tensor sweep, checked against PyTorch 1.13: the text
# print() and str() give for tensors of every dtype and shape (0-dim, empty, long rows, 3-d
# and 4-d slices, scientific notation, scale factors, inf/nan/-0, integral floats, tensors in
# containers, requires_grad), tolist() and item(); the random ops, which draw from PyTorch's
# CPU generator in its order so that a seeded program prints PyTorch's numbers (rand, randn
# with normal_fill and its cached pair, randint, the _like forms, normal's overloads, the
# in-place fills, bernoulli, randperm, multinomial, the dropout forms, gumbel_softmax);
# advanced indexing and the index/scatter ops (index_reduce among them); and dtype promotion
# corners (integer division and remainder signs, uint8 wrap, half and bfloat16 rounding,
# result_type, out-of-range casts, integer powers). The test_* functions assert PyTorch
# 1.13's results; each err_* function fails with the message in its `# raises:` line.
# t/tensor_sweep4_cases.sh runs both kinds through tscript; they behave the same under PyTorch:
#     /usr/bin/python3 t/tensor_sweep4_cases.py     (scripts and runs each one)
import torch
import torch.nn.functional as F
from typing import List, Optional


def test_print_dtypes():
    x = torch.tensor([1.5, -2.25, 0.0, 3.0])
    r = ""
    for dt in [torch.float16, torch.bfloat16, torch.float64, torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8, torch.bool]:
        r += str(x.to(dt)) + str(x.to(dt).reshape(2, 2))
    r = r
    assert r == ' 1.5000\n-2.2500\n 0.0000\n 3.0000\n[ CPUHalfType{4} ] 1.5000 -2.2500\n 0.0000  3.0000\n[ CPUHalfType{2,2} ] 1.5000\n-2.2500\n 0.0000\n 3.0000\n[ CPUBFloat16Type{4} ] 1.5000 -2.2500\n 0.0000  3.0000\n[ CPUBFloat16Type{2,2} ] 1.5000\n-2.2500\n 0.0000\n 3.0000\n[ CPUDoubleType{4} ] 1.5000 -2.2500\n 0.0000  3.0000\n[ CPUDoubleType{2,2} ] 1\n-2\n 0\n 3\n[ CPUCharType{4} ] 1 -2\n 0  3\n[ CPUCharType{2,2} ] 1\n-2\n 0\n 3\n[ CPUShortType{4} ] 1 -2\n 0  3\n[ CPUShortType{2,2} ] 1\n-2\n 0\n 3\n[ CPUIntType{4} ] 1 -2\n 0  3\n[ CPUIntType{2,2} ] 1\n-2\n 0\n 3\n[ CPULongType{4} ] 1 -2\n 0  3\n[ CPULongType{2,2} ]   1\n 254\n   0\n   3\n[ CPUByteType{4} ]   1  254\n   0    3\n[ CPUByteType{2,2} ] 1\n 1\n 0\n 1\n[ CPUBoolType{4} ] 1  1\n 0  1\n[ CPUBoolType{2,2} ]', r


def test_print_zero_dim():
    r = str(torch.tensor(3.5)) + str(torch.tensor(2)) + str(torch.tensor(True)) + str(torch.tensor(1.0, dtype=torch.float16)) + str(torch.tensor(-7, dtype=torch.int8)) + str(torch.tensor(1e10)) + str(torch.tensor(1e-10)) + str(torch.tensor(float('inf'))) + str(torch.tensor(2.5, dtype=torch.bfloat16))
    assert r == '3.5\n[ CPUFloatType{} ]2\n[ CPULongType{} ]1\n[ CPUBoolType{} ]1\n[ CPUHalfType{} ]-7\n[ CPUCharType{} ]1e+10\n[ CPUFloatType{} ]1e-10\n[ CPUFloatType{} ]inf\n[ CPUFloatType{} ]2.5\n[ CPUBFloat16Type{} ]', r


def test_print_empty():
    r = str(torch.zeros(0, 3)) + str(torch.zeros(0)) + str(torch.zeros(2, 0, dtype=torch.int64)) + str(torch.zeros(0, dtype=torch.bool)) + str(torch.zeros(3, 0, 2))
    assert r == '[ CPUFloatType{0,3} ][ CPUFloatType{0} ][ CPULongType{2,0} ][ CPUBoolType{0} ][ CPUFloatType{3,0,2} ]', r


def test_print_summarize_1d():
    r = str(torch.arange(1001.)[-20:]) + str(torch.arange(40)) + str(torch.arange(30.) * 1000)
    assert r == '  981\n  982\n  983\n  984\n  985\n  986\n  987\n  988\n  989\n  990\n  991\n  992\n  993\n  994\n  995\n  996\n  997\n  998\n  999\n 1000\n[ CPUFloatType{20} ]  0\n  1\n  2\n  3\n  4\n  5\n  6\n  7\n  8\n  9\n 10\n 11\n 12\n 13\n 14\n 15\n 16\n 17\n 18\n 19\n 20\n 21\n 22\n 23\n 24\n 25\n 26\n 27\n 28\n 29\n 30\n 31\n 32\n 33\n 34\n 35\n 36\n 37\n 38\n 39\n[ CPULongType{40} ]     0\n  1000\n  2000\n  3000\n  4000\n  5000\n  6000\n  7000\n  8000\n  9000\n 10000\n 11000\n 12000\n 13000\n 14000\n 15000\n 16000\n 17000\n 18000\n 19000\n 20000\n 21000\n 22000\n 23000\n 24000\n 25000\n 26000\n 27000\n 28000\n 29000\n[ CPUFloatType{30} ]', r


def test_print_summarize_2d():
    r = str(torch.arange(90).reshape(3, 30)) + str(torch.arange(60.).reshape(20, 3) / 3)
    assert r == 'Columns 1 to 20  0   1   2   3   4   5   6   7   8   9  10  11  12  13  14  15  16  17  18  19\n 30  31  32  33  34  35  36  37  38  39  40  41  42  43  44  45  46  47  48  49\n 60  61  62  63  64  65  66  67  68  69  70  71  72  73  74  75  76  77  78  79\n\nColumns 21 to 30 20  21  22  23  24  25  26  27  28  29\n 50  51  52  53  54  55  56  57  58  59\n 80  81  82  83  84  85  86  87  88  89\n[ CPULongType{3,30} ]  0.0000   0.3333   0.6667\n  1.0000   1.3333   1.6667\n  2.0000   2.3333   2.6667\n  3.0000   3.3333   3.6667\n  4.0000   4.3333   4.6667\n  5.0000   5.3333   5.6667\n  6.0000   6.3333   6.6667\n  7.0000   7.3333   7.6667\n  8.0000   8.3333   8.6667\n  9.0000   9.3333   9.6667\n 10.0000  10.3333  10.6667\n 11.0000  11.3333  11.6667\n 12.0000  12.3333  12.6667\n 13.0000  13.3333  13.6667\n 14.0000  14.3333  14.6667\n 15.0000  15.3333  15.6667\n 16.0000  16.3333  16.6667\n 17.0000  17.3333  17.6667\n 18.0000  18.3333  18.6667\n 19.0000  19.3333  19.6667\n[ CPUFloatType{20,3} ]', r


def test_print_summarize_3d():
    r = str(torch.arange(180).reshape(2, 3, 30))
    assert r == '(1,.,.) = \n Columns 1 to 19   0   1   2   3   4   5   6   7   8   9  10  11  12  13  14  15  16  17  18\n  30  31  32  33  34  35  36  37  38  39  40  41  42  43  44  45  46  47  48\n  60  61  62  63  64  65  66  67  68  69  70  71  72  73  74  75  76  77  78\n\nColumns 20 to 30  19  20  21  22  23  24  25  26  27  28  29\n  49  50  51  52  53  54  55  56  57  58  59\n  79  80  81  82  83  84  85  86  87  88  89\n\n(2,.,.) = \n Columns 1 to 15   90   91   92   93   94   95   96   97   98   99  100  101  102  103  104\n  120  121  122  123  124  125  126  127  128  129  130  131  132  133  134\n  150  151  152  153  154  155  156  157  158  159  160  161  162  163  164\n\nColumns 16 to 30  105  106  107  108  109  110  111  112  113  114  115  116  117  118  119\n  135  136  137  138  139  140  141  142  143  144  145  146  147  148  149\n  165  166  167  168  169  170  171  172  173  174  175  176  177  178  179\n[ CPULongType{2,3,30} ]', r


def test_print_summarize_4d():
    r = str(torch.arange(240.).reshape(2, 2, 2, 30) / 7)
    assert r == '(1,1,.,.) = \n Columns 1 to 9  0.0000  0.1429  0.2857  0.4286  0.5714  0.7143  0.8571  1.0000  1.1429\n  4.2857  4.4286  4.5714  4.7143  4.8571  5.0000  5.1429  5.2857  5.4286\n\nColumns 10 to 18  1.2857  1.4286  1.5714  1.7143  1.8571  2.0000  2.1429  2.2857  2.4286\n  5.5714  5.7143  5.8571  6.0000  6.1429  6.2857  6.4286  6.5714  6.7143\n\nColumns 19 to 27  2.5714  2.7143  2.8571  3.0000  3.1429  3.2857  3.4286  3.5714  3.7143\n  6.8571  7.0000  7.1429  7.2857  7.4286  7.5714  7.7143  7.8571  8.0000\n\nColumns 28 to 30  3.8571  4.0000  4.1429\n  8.1429  8.2857  8.4286\n\n(2,1,.,.) = \n Columns 1 to 8  17.1429  17.2857  17.4286  17.5714  17.7143  17.8571  18.0000  18.1429\n  21.4286  21.5714  21.7143  21.8571  22.0000  22.1429  22.2857  22.4286\n\nColumns 9 to 16  18.2857  18.4286  18.5714  18.7143  18.8571  19.0000  19.1429  19.2857\n  22.5714  22.7143  22.8571  23.0000  23.1429  23.2857  23.4286  23.5714\n\nColumns 17 to 24  19.4286  19.5714  19.7143  19.8571  20.0000  20.1429  20.2857  20.4286\n  23.7143  23.8571  24.0000  24.1429  24.2857  24.4286  24.5714  24.7143\n\nColumns 25 to 30  20.5714  20.7143  20.8571  21.0000  21.1429  21.2857\n  24.8571  25.0000  25.1429  25.2857  25.4286  25.5714\n\n(1,2,.,.) = \n Columns 1 to 8   8.5714   8.7143   8.8571   9.0000   9.1429   9.2857   9.4286   9.5714\n  12.8571  13.0000  13.1429  13.2857  13.4286  13.5714  13.7143  13.8571\n\nColumns 9 to 16   9.7143   9.8571  10.0000  10.1429  10.2857  10.4286  10.5714  10.7143\n  14.0000  14.1429  14.2857  14.4286  14.5714  14.7143  14.8571  15.0000\n\nColumns 17 to 24  10.8571  11.0000  11.1429  11.2857  11.4286  11.5714  11.7143  11.8571\n  15.1429  15.2857  15.4286  15.5714  15.7143  15.8571  16.0000  16.1429\n\nColumns 25 to 30  12.0000  12.1429  12.2857  12.4286  12.5714  12.7143\n  16.2857  16.4286  16.5714  16.7143  16.8571  17.0000\n\n(2,2,.,.) = \n Columns 1 to 8  25.7143  25.8571  26.0000  26.1429  26.2857  26.4286  26.5714  26.7143\n  30.0000  30.1429  30.2857  30.4286  30.5714  30.7143  30.8571  31.0000\n\nColumns 9 to 16  26.8571  27.0000  27.1429  27.2857  27.4286  27.5714  27.7143  27.8571\n  31.1429  31.2857  31.4286  31.5714  31.7143  31.8571  32.0000  32.1429\n\nColumns 17 to 24  28.0000  28.1429  28.2857  28.4286  28.5714  28.7143  28.8571  29.0000\n  32.2857  32.4286  32.5714  32.7143  32.8571  33.0000  33.1429  33.2857\n\nColumns 25 to 30  29.1429  29.2857  29.4286  29.5714  29.7143  29.8571\n  33.4286  33.5714  33.7143  33.8571  34.0000  34.1429\n[ CPUFloatType{2,2,2,30} ]', r


def test_print_summarize_dtypes():
    r = str(torch.arange(30).to(torch.bool)) + str(torch.arange(30, dtype=torch.float16) * 100) + str(torch.arange(30, dtype=torch.float64) * 1e6)
    assert r == ' 0\n 1\n 1\n 1\n 1\n 1\n 1\n 1\n 1\n 1\n 1\n 1\n 1\n 1\n 1\n 1\n 1\n 1\n 1\n 1\n 1\n 1\n 1\n 1\n 1\n 1\n 1\n 1\n 1\n 1\n[ CPUBoolType{30} ]    0\n  100\n  200\n  300\n  400\n  500\n  600\n  700\n  800\n  900\n 1000\n 1100\n 1200\n 1300\n 1400\n 1500\n 1600\n 1700\n 1800\n 1900\n 2000\n 2100\n 2200\n 2300\n 2400\n 2500\n 2600\n 2700\n 2800\n 2900\n[ CPUHalfType{30} ]        0\n    1e+06\n    2e+06\n    3e+06\n    4e+06\n    5e+06\n    6e+06\n    7e+06\n    8e+06\n    9e+06\n    1e+07\n  1.1e+07\n  1.2e+07\n  1.3e+07\n  1.4e+07\n  1.5e+07\n  1.6e+07\n  1.7e+07\n  1.8e+07\n  1.9e+07\n    2e+07\n  2.1e+07\n  2.2e+07\n  2.3e+07\n  2.4e+07\n  2.5e+07\n  2.6e+07\n  2.7e+07\n  2.8e+07\n  2.9e+07\n[ CPUDoubleType{30} ]', r


def test_print_scientific():
    r = str(torch.tensor([1e-5, 1.0, 2.0])) + str(torch.tensor([1e8, 1.0, 2.5])) + str(torch.tensor([123456789.0, 1.0])) + str(torch.tensor([1e-4, 1e4])) + str(torch.tensor([1e20, -1e20])) + str(torch.tensor([1e-20]))
    assert r == ' 1.0000e-05\n 1.0000e+00\n 2.0000e+00\n[ CPUFloatType{3} ] 1.0000e+08\n 1.0000e+00\n 2.5000e+00\n[ CPUFloatType{3} ]1.23457e+08\n         1\n[ CPUFloatType{2} ] 1.0000e-04\n 1.0000e+04\n[ CPUFloatType{2} ] 1.0000e+20\n-1.0000e+20\n[ CPUFloatType{2} ]1e-21 *\n10.0000\n[ CPUFloatType{1} ]', r


def test_print_scale_factor():
    r = str(torch.tensor([[1500.25, 2.5], [3.0, 4.125]])) + str(torch.tensor([1234.5, 1.0, 2.5])) + str(torch.tensor([12345.5, 1.0, 2.5])) + str(torch.tensor([0.00012345, 0.5])) + str(torch.tensor([0.001, 0.0002]))
    assert r == ' 1500.2500     2.5000\n    3.0000     4.1250\n[ CPUFloatType{2,2} ] 1234.5000\n    1.0000\n    2.5000\n[ CPUFloatType{3} ] 12345.5000\n     1.0000\n     2.5000\n[ CPUFloatType{3} ] 0.0001\n 0.5000\n[ CPUFloatType{2} ]0.001 *\n 1.0000\n 0.2000\n[ CPUFloatType{2} ]', r


def test_print_scale_other_dtypes():
    r = str(torch.tensor([1e5, 1e-5], dtype=torch.float64)) + str(torch.tensor([65504.0, 1.0], dtype=torch.float16)) + str(torch.tensor([3.0e38, 1.0], dtype=torch.bfloat16))
    assert r == ' 1.0000e+05\n 1.0000e-05\n[ CPUDoubleType{2} ] 65504\n     1\n[ CPUHalfType{2} ] 3.0041e+38\n 1.0000e+00\n[ CPUBFloat16Type{2} ]', r


def test_print_inf_nan():
    r = str(torch.tensor([float('inf'), float('-inf'), float('nan'), 1.5])) + str(torch.tensor([float('inf'), 1.0, 2.0])) + str(torch.tensor([float('nan'), 1.0, 2.0])) + str(torch.tensor([1e10, float('inf'), 1.0])) + str(torch.tensor([0.1, float('nan'), 1e-8]))
    assert r == '    inf\n   -inf\n    nan\n 1.5000\n[ CPUFloatType{4} ]inf\n 1\n 2\n[ CPUFloatType{3} ]nan\n 1\n 2\n[ CPUFloatType{3} ] 1.0000e+10\n        inf\n 1.0000e+00\n[ CPUFloatType{3} ] 1.0000e-01\n        nan\n 1.0000e-08\n[ CPUFloatType{3} ]', r


def test_print_negative_zero():
    a = torch.zeros(2)
    b = a.neg()
    r = str(b) + str(b // 1) + str(torch.tensor([-0.5, 0.5]).round()) + str(b.half()) + str(torch.cat([b, torch.tensor([2.5])]))
    assert r == '-0\n-0\n[ CPUFloatType{2} ]-0\n-0\n[ CPUFloatType{2} ]-0\n 0\n[ CPUFloatType{2} ]-0\n-0\n[ CPUHalfType{2} ]-0.0000\n-0.0000\n 2.5000\n[ CPUFloatType{3} ]', r


def test_print_integral_floats():
    r = str(torch.tensor([1.0, 2.0, 3.0])) + str(torch.tensor([1.0, -2.0, 300.0])) + str(torch.tensor([100000000.0, 1.0])) + str(torch.tensor([-1.0, 1e15])) + str(torch.tensor([1e16, 1.0]))
    assert r == ' 1\n 2\n 3\n[ CPUFloatType{3} ]   1\n  -2\n 300\n[ CPUFloatType{3} ]     1e+08\n         1\n[ CPUFloatType{2} ]-1.0000e+00\n 1.0000e+15\n[ CPUFloatType{2} ] 1.0000e+16\n 1.0000e+00\n[ CPUFloatType{2} ]', r


def test_print_in_containers():
    a = torch.tensor([1.0, 2.0])
    r = str([a, a * 2]) + str((a, 3)) + str({'a': a}) + str([torch.tensor(1), torch.tensor(2.5)])
    assert r == '[ 1\n 2\n[ CPUFloatType{2} ],  2\n 4\n[ CPUFloatType{2} ]]( 1\n 2\n[ CPUFloatType{2} ], 3){a:  1\n 2\n[ CPUFloatType{2} ]}[1\n[ CPULongType{} ], 2.5\n[ CPUFloatType{} ]]', r


def test_print_attrs():
    a = torch.zeros(2, 3, 4)
    r = str(a.dtype) + str(a.shape) + str(a.device) + str(a.size()) + str(a.stride()) + str(a.transpose(0, 2).stride()) + str(a[:, 1].stride()) + str(torch.tensor(1).shape)
    assert r == '6[2, 3, 4]cpu[2, 3, 4][12, 4, 1][1, 4, 12][12, 1][]', r


def test_print_dtype_names():
    r = ""
    for dt in [torch.float16, torch.bfloat16, torch.uint8, torch.bool, torch.int8, torch.int16, torch.int32, torch.float64]:
        r += str(torch.zeros(1, dtype=dt).dtype) + ","
    r = r
    assert r == '5,15,0,11,1,2,3,7,', r


def test_print_requires_grad():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor(3.0, requires_grad=True)
    r = str(a) + str(a * 2) + str(a.sum()) + str(a.detach()) + str(b) + str(b.requires_grad) + str((b * 2).requires_grad)
    assert r == ' 1\n 2\n[ CPUFloatType{2} ] 2\n 4\n[ CPUFloatType{2} ]3\n[ CPUFloatType{} ] 1\n 2\n[ CPUFloatType{2} ]3\n[ CPUFloatType{} ]TrueTrue', r


def test_tolist_nested():
    x: List[List[bool]] = torch.tensor([[True, False]]).tolist()
    y: List[float] = torch.tensor([1.5, 2.5], dtype=torch.float64).tolist()
    z: List[List[List[float]]] = torch.arange(6.).reshape(1, 2, 3).tolist()
    w: List[List[int]] = torch.arange(6).reshape(2, 3).tolist()
    r = str(x) + str(y) + str(z) + str(w)
    assert r == '[[True, False]][1.5, 2.5][[[0., 1., 2.], [3., 4., 5.]]][[0, 1, 2], [3, 4, 5]]', r


def test_item_dtypes():
    r = str(torch.tensor(1.5).item()) + str(torch.tensor(3).item()) + str(torch.tensor(True).item()) + str(torch.tensor(1.1, dtype=torch.float16).item()) + str(torch.tensor(1.1, dtype=torch.bfloat16).item()) + str(torch.tensor(250, dtype=torch.uint8).item()) + str(torch.tensor(-3, dtype=torch.int8).item()) + str(torch.tensor(0.1).item())
    assert r == '1.53True1.0996093751.1015625250-30.10000000149011612', r


def test_print_mixed_signs():
    r = str(torch.tensor([-1.5, 2.25, -3.125])) + str(torch.tensor([[-1, 200], [3, -4000]])) + str(torch.tensor([1/3, 2/3], dtype=torch.float64)) + str(torch.tensor([123.456789, 0.000123]))
    assert r == '-1.5000\n 2.2500\n-3.1250\n[ CPUFloatType{3} ]  -1  200\n   3 -4000\n[ CPULongType{2,2} ] 0.3333\n 0.6667\n[ CPUDoubleType{2} ] 1.2346e+02\n 1.2300e-04\n[ CPUFloatType{2} ]', r


def test_print_half_values():
    x = torch.tensor([0.1, 0.2, 0.3333, 1000.0, 65000.0])
    r = str(x.half()) + str(x.double()) + str(x.to(torch.bfloat16))
    assert r == ' 9.9976e-02\n 1.9995e-01\n 3.3325e-01\n 1.0000e+03\n 6.4992e+04\n[ CPUHalfType{5} ] 1.0000e-01\n 2.0000e-01\n 3.3330e-01\n 1.0000e+03\n 6.5000e+04\n[ CPUDoubleType{5} ] 1.0010e-01\n 2.0020e-01\n 3.3398e-01\n 1.0000e+03\n 6.5024e+04\n[ CPUBFloat16Type{5} ]', r


def test_print_4d_bool():
    r = str(torch.arange(16.).reshape(2, 2, 2, 2)) + str(torch.arange(8).reshape(1, 2, 1, 4) > 3) + str(torch.zeros(2, 1, 0, 3))
    assert r == '(1,1,.,.) = \n  0  1\n  2  3\n\n(2,1,.,.) = \n   8   9\n  10  11\n\n(1,2,.,.) = \n  4  5\n  6  7\n\n(2,2,.,.) = \n  12  13\n  14  15\n[ CPUFloatType{2,2,2,2} ](1,1,.,.) = \n  0  0  0  0\n\n(1,2,.,.) = \n  1  1  1  1\n[ CPUBoolType{1,2,1,4} ][ CPUFloatType{2,1,0,3} ]', r


def test_index_bool_mask():
    a = torch.arange(12).reshape(3, 4)
    r = str(a[a > 5]) + str(a[torch.tensor([True, False, True])]) + str(a[:, torch.tensor([True, False, True, False])])
    a[a % 2 == 0] = -1
    r = r + str(a)
    assert r == '  6\n  7\n  8\n  9\n 10\n 11\n[ CPULongType{6} ]  0   1   2   3\n  8   9  10  11\n[ CPULongType{2,4} ]  0   2\n  4   6\n  8  10\n[ CPULongType{3,2} ] -1   1  -1   3\n -1   5  -1   7\n -1   9  -1  11\n[ CPULongType{3,4} ]', r


def test_index_int_lists():
    a = torch.arange(24).reshape(2, 3, 4)
    r = str(a[[0, 1]]) + str(a[[1, 0], [2, 1]]) + str(a[:, [0, 2]]) + str(a[[0, 1], :, [1, 2]]) + str(a[:, [0, 2], [1, 3]])
    assert r == '(1,.,.) = \n   0   1   2   3\n   4   5   6   7\n   8   9  10  11\n\n(2,.,.) = \n  12  13  14  15\n  16  17  18  19\n  20  21  22  23\n[ CPULongType{2,3,4} ] 20  21  22  23\n  4   5   6   7\n[ CPULongType{2,4} ](1,.,.) = \n   0   1   2   3\n   8   9  10  11\n\n(2,.,.) = \n  12  13  14  15\n  20  21  22  23\n[ CPULongType{2,2,4} ]  1   5   9\n 14  18  22\n[ CPULongType{2,3} ]  1  11\n 13  23\n[ CPULongType{2,2} ]', r


def test_index_tensors_broadcast():
    a = torch.arange(24).reshape(2, 3, 4)
    i = torch.tensor([[0], [1]])
    j = torch.tensor([1, 2, 0])
    r = str(a[i, j]) + str(a[i, :, j].shape) + str(a[:, i, j].shape) + str(a[i, j, j]) + str(a[torch.tensor(1)]) + str(a[torch.tensor([-1])])
    assert r == '(1,.,.) = \n   4   5   6   7\n   8   9  10  11\n   0   1   2   3\n\n(2,.,.) = \n  16  17  18  19\n  20  21  22  23\n  12  13  14  15\n[ CPULongType{2,3,4} ][2, 3, 3][2, 2, 3]  5  10   0\n 17  22  12\n[ CPULongType{2,3} ] 12  13  14  15\n 16  17  18  19\n 20  21  22  23\n[ CPULongType{3,4} ](1,.,.) = \n  12  13  14  15\n  16  17  18  19\n  20  21  22  23\n[ CPULongType{1,3,4} ]', r


def test_index_none_ellipsis():
    a = torch.arange(24).reshape(2, 3, 4)
    r = str(a[None].shape) + str(a[..., None].shape) + str(a[:, None, 1].shape) + str(a[None, ..., 0].shape) + str(a[1, ..., None, 2]) + str(a[None, None, 0, 1:, ::2]) + str(a[0, None, [0, 2]].shape) + str(a[[0], None, [1]].shape)
    assert r == '[1, 2, 3, 4][2, 3, 4, 1][2, 1, 4][1, 2, 3] 14\n 18\n 22\n[ CPULongType{3,1} ](1,1,.,.) = \n   4   6\n   8  10\n[ CPULongType{1,1,2,2} ][1, 2, 4][1, 1, 4]', r


def test_index_put_accumulate():
    a = torch.zeros(5)
    a.index_put_((torch.tensor([0, 1, 1]),), torch.tensor([1., 2., 3.]), accumulate=True)
    b = torch.zeros(3, 4)
    b.index_put_((torch.tensor([0, 2]),), torch.tensor([1., 2., 3., 4.]))
    b.index_put_((torch.tensor([0, 2]), torch.tensor([1, 3])), torch.tensor(9.))
    c = torch.zeros(3, 3, dtype=torch.int64)
    c.index_put_((torch.tensor([0, 0, 2]), torch.tensor([1, 1, 2])), torch.tensor([5, 6, 7]), True)
    r = str(a) + str(b) + str(c) + str(torch.zeros(4).index_put((torch.tensor([True, False, True, False]),), torch.tensor(2.)))
    assert r == ' 1\n 5\n 0\n 0\n 0\n[ CPUFloatType{5} ] 1  9  3  4\n 0  0  0  0\n 1  2  3  9\n[ CPUFloatType{3,4} ]  0  11   0\n  0   0   0\n  0   0   7\n[ CPULongType{3,3} ] 2\n 0\n 2\n 0\n[ CPUFloatType{4} ]', r


def test_masked_ops():
    a = torch.arange(6.).reshape(2, 3)
    m = torch.tensor([[True, False, True], [False, True, False]])
    r = str(a.masked_fill(m, -1.)) + str(a.masked_fill(torch.tensor([True, False, False]), torch.tensor(5.))) + str(a.masked_scatter(m, torch.tensor([10., 20., 30., 40.]))) + str(a.masked_select(m)) + str(a.masked_select(torch.tensor([True, False, True]))) + str(torch.arange(3).masked_fill(torch.tensor([True, False, True]), 2.7))
    assert r == '-1  1 -1\n 3 -1  5\n[ CPUFloatType{2,3} ] 5  1  2\n 5  4  5\n[ CPUFloatType{2,3} ] 10   1  20\n  3  30   5\n[ CPUFloatType{2,3} ] 0\n 2\n 4\n[ CPUFloatType{3} ] 0\n 2\n 3\n 5\n[ CPUFloatType{4} ] 2\n 1\n 2\n[ CPULongType{3} ]', r


def test_negative_indices():
    a = torch.arange(10)
    b = torch.arange(12).reshape(3, 4)
    r = str(a[-1]) + str(a[-3:]) + str(a[:-7]) + str(a[torch.tensor([-1, -2])]) + str(a[[-1, 0]]) + str(b[-1, -1]) + str(b[-2:, -3]) + str(b[:, -1])
    assert r == '9\n[ CPULongType{} ] 7\n 8\n 9\n[ CPULongType{3} ] 0\n 1\n 2\n[ CPULongType{3} ] 9\n 8\n[ CPULongType{2} ] 9\n 0\n[ CPULongType{2} ]11\n[ CPULongType{} ] 5\n 9\n[ CPULongType{2} ]  3\n  7\n 11\n[ CPULongType{3} ]', r


def test_setitem_other_dtypes():
    a = torch.zeros(4)
    a[1] = torch.tensor(3)
    a[2:] = torch.tensor([True, False])
    b = torch.zeros(4, dtype=torch.int64)
    b[0] = 2.7
    b[1:3] = torch.tensor([1.9, -1.9])
    b[torch.tensor([3])] = torch.tensor(7, dtype=torch.int64)
    d = torch.zeros(2, 2, dtype=torch.bool)
    d[0] = torch.tensor([2, 0])
    r = str(a) + str(b) + str(d)
    assert r == ' 0\n 3\n 1\n 0\n[ CPUFloatType{4} ] 2\n 1\n-1\n 7\n[ CPULongType{4} ] 1  0\n 0  0\n[ CPUBoolType{2,2} ]', r


def test_setitem_broadcast():
    a = torch.zeros(3, 4)
    a[:, 1] = torch.tensor([1., 2., 3.])
    a[0] = 5
    a[[1, 2], [0, 0]] = torch.tensor([7., 8.])
    a[a > 6] += 1
    b = torch.zeros(2, 3)
    b[:, [0, 2]] = torch.tensor([[1.], [2.]])
    r = str(a) + str(b)
    assert r == ' 5  5  5  5\n 8  2  0  0\n 9  3  0  0\n[ CPUFloatType{3,4} ] 1  0  1\n 2  0  2\n[ CPUFloatType{2,3} ]', r


def test_index_add_copy_fill():
    a = torch.zeros(3, 4)
    r = str(a.index_add(0, torch.tensor([0, 2, 0]), torch.ones(3, 4))) + str(a.index_add(1, torch.tensor([1, 1]), torch.ones(3, 2), alpha=2)) + str(a.index_copy(0, torch.tensor([2, 0]), torch.arange(8.).reshape(2, 4))) + str(a.index_fill(1, torch.tensor([0, 3]), -2.)) + str(a.index_fill(0, torch.tensor([1]), torch.tensor(4.)))
    assert r == ' 2  2  2  2\n 0  0  0  0\n 1  1  1  1\n[ CPUFloatType{3,4} ] 0  4  0  0\n 0  4  0  0\n 0  4  0  0\n[ CPUFloatType{3,4} ] 4  5  6  7\n 0  0  0  0\n 0  1  2  3\n[ CPUFloatType{3,4} ]-2  0  0 -2\n-2  0  0 -2\n-2  0  0 -2\n[ CPUFloatType{3,4} ] 0  0  0  0\n 4  4  4  4\n 0  0  0  0\n[ CPUFloatType{3,4} ]', r


def test_index_reduce_all():
    a = torch.ones(3, 2) * 2
    src = torch.tensor([[1., 2.], [3., 4.], [5., 6.]])
    idx = torch.tensor([0, 0, 2])
    r = ""
    for red in ['prod', 'mean', 'amax', 'amin']:
        r += red + str(a.index_reduce(0, idx, src, red)) + str(a.index_reduce(0, idx, src, red, include_self=False))
    r = r
    assert r == 'prod  6  16\n  2   2\n 10  12\n[ CPUFloatType{3,2} ] 3  8\n 2  2\n 5  6\n[ CPUFloatType{3,2} ]mean 2.0000  2.6667\n 2.0000  2.0000\n 3.5000  4.0000\n[ CPUFloatType{3,2} ] 2  3\n 2  2\n 5  6\n[ CPUFloatType{3,2} ]amax 3  4\n 2  2\n 5  6\n[ CPUFloatType{3,2} ] 3  4\n 2  2\n 5  6\n[ CPUFloatType{3,2} ]amin 1  2\n 2  2\n 2  2\n[ CPUFloatType{3,2} ] 1  2\n 2  2\n 5  6\n[ CPUFloatType{3,2} ]', r


def test_index_reduce_dims():
    src = torch.tensor([[1., 2.], [3., 4.], [5., 6.]])
    b = torch.zeros(2, 3, 4)
    b.index_reduce_(2, torch.tensor([3, 0]), torch.arange(12.).reshape(2, 3, 2), 'amax', include_self=False)
    r = str((torch.ones(3, 2) * 2).index_reduce(1, torch.tensor([1, 1]), src, 'prod')) + str(torch.tensor([1, 2, 3]).index_reduce(0, torch.tensor([0, 0, 0]), torch.tensor([4, 5, 6]), 'mean', include_self=False)) + str(b)
    assert r == '  2   4\n  2  24\n  2  60\n[ CPUFloatType{3,2} ] 5\n 2\n 3\n[ CPULongType{3} ](1,.,.) = \n  1  0  0  0\n  3  0  0  2\n  5  0  0  4\n\n(2,.,.) = \n   7   0   0   6\n   9   0   0   8\n  11   0   0  10\n[ CPUFloatType{2,3,4} ]', r


def test_scatter_forms():
    a = torch.zeros(3, 4)
    idx = torch.tensor([[0, 1, 2, 0], [2, 0, 0, 1]])
    src = torch.arange(1., 9.).reshape(2, 4)
    r = str(a.scatter(0, idx, src)) + str(a.scatter(0, idx, 5.)) + str(a.scatter_add(0, idx, src)) + str(a.scatter(0, idx, src, reduce='add')) + str((a + 2).scatter(0, idx, src, reduce='multiply')) + str((a + 2).scatter(0, idx, 3.0, reduce='multiply'))
    assert r == ' 1  6  7  4\n 0  2  0  8\n 5  0  3  0\n[ CPUFloatType{3,4} ] 5  5  5  5\n 0  5  0  5\n 5  0  5  0\n[ CPUFloatType{3,4} ] 1  6  7  4\n 0  2  0  8\n 5  0  3  0\n[ CPUFloatType{3,4} ] 1  6  7  4\n 0  2  0  8\n 5  0  3  0\n[ CPUFloatType{3,4} ]  2  12  14   8\n  2   4   2  16\n 10   2   6   2\n[ CPUFloatType{3,4} ] 6  6  6  6\n 2  6  2  6\n 6  2  6  2\n[ CPUFloatType{3,4} ]', r


def test_scatter_reduce_all():
    a = torch.ones(3, 4)
    idx = torch.tensor([[0, 1, 2, 0], [0, 0, 0, 1]])
    src = torch.arange(1., 9.).reshape(2, 4)
    r = ""
    for red in ['sum', 'prod', 'mean', 'amax', 'amin']:
        r += red + str(a.scatter_reduce(0, idx, src, red)) + str(a.scatter_reduce(0, idx, src, red, include_self=False))
    ai = torch.ones(3, 4, dtype=torch.int64)
    r = r + str(ai.scatter_reduce(0, idx, src.long(), 'mean')) + str(ai.scatter_reduce(0, idx, src.long(), 'mean', include_self=False))
    assert r == 'sum 7  7  8  5\n 1  3  1  9\n 1  1  4  1\n[ CPUFloatType{3,4} ] 6  6  7  4\n 1  2  1  8\n 1  1  3  1\n[ CPUFloatType{3,4} ]prod 5  6  7  4\n 1  2  1  8\n 1  1  3  1\n[ CPUFloatType{3,4} ] 5  6  7  4\n 1  2  1  8\n 1  1  3  1\n[ CPUFloatType{3,4} ]mean 2.3333  3.5000  4.0000  2.5000\n 1.0000  1.5000  1.0000  4.5000\n 1.0000  1.0000  2.0000  1.0000\n[ CPUFloatType{3,4} ] 3  6  7  4\n 1  2  1  8\n 1  1  3  1\n[ CPUFloatType{3,4} ]amax 5  6  7  4\n 1  2  1  8\n 1  1  3  1\n[ CPUFloatType{3,4} ] 5  6  7  4\n 1  2  1  8\n 1  1  3  1\n[ CPUFloatType{3,4} ]amin 1  1  1  1\n 1  1  1  1\n 1  1  1  1\n[ CPUFloatType{3,4} ] 1  6  7  4\n 1  2  1  8\n 1  1  3  1\n[ CPUFloatType{3,4} ] 2  3  4  2\n 1  1  1  4\n 1  1  2  1\n[ CPULongType{3,4} ] 3  6  7  4\n 1  2  1  8\n 1  1  3  1\n[ CPULongType{3,4} ]', r


def test_gather_forms():
    a = torch.arange(12).reshape(3, 4)
    r = str(a.gather(1, torch.tensor([[0, 0], [3, 1], [2, 2]]))) + str(a.gather(0, torch.tensor([[2, 1, 0, 0]]))) + str(torch.gather(a, -1, torch.tensor([[1], [0], [3]])))
    assert r == '  0   0\n  7   5\n 10  10\n[ CPULongType{3,2} ] 8  5  2  3\n[ CPULongType{1,4} ]  1\n  4\n 11\n[ CPULongType{3,1} ]', r


def test_nonzero_forms():
    a = torch.tensor([[0, 1, 0], [2, 0, 3]])
    r = str(a.nonzero()) + str(torch.tensor(5).nonzero()) + str(torch.zeros(2, 0).nonzero()) + str(torch.tensor(0).nonzero()) + str(torch.argwhere(a))
    assert r == ' 0  1\n 1  0\n 1  2\n[ CPULongType{3,2} ][ CPULongType{1,0} ][ CPULongType{0,2} ][ CPULongType{0,0} ] 0  1\n 1  0\n 1  2\n[ CPULongType{3,2} ]', r


def test_where_scalars():
    a = torch.arange(6.).reshape(2, 3)
    ai = torch.arange(6).reshape(2, 3)
    r = str(torch.where(a > 2, a, 0.)) + str(torch.where(a > 2, 1.5, a)) + str(torch.where(a > 2, 1, 0)) + str(torch.where(a > 2, torch.tensor(1, dtype=torch.int32), 2)) + str(torch.where(ai > 2, ai, 2.5)) + str(torch.where(ai > 2, ai.to(torch.uint8), -1)) + str(torch.where(torch.tensor([True, False]), torch.tensor([1, 2], dtype=torch.int8), torch.tensor([1.5, 2.5], dtype=torch.float16)))
    assert r == ' 0  0  0\n 3  4  5\n[ CPUFloatType{2,3} ] 0.0000  1.0000  2.0000\n 1.5000  1.5000  1.5000\n[ CPUFloatType{2,3} ] 0  0  0\n 1  1  1\n[ CPULongType{2,3} ] 2  2  2\n 1  1  1\n[ CPUIntType{2,3} ] 2.5000  2.5000  2.5000\n 3.0000  4.0000  5.0000\n[ CPUFloatType{2,3} ] 255  255  255\n   3    4    5\n[ CPUByteType{2,3} ] 1.0000\n 2.5000\n[ CPUHalfType{2} ]', r


def test_int_division():
    a = torch.tensor([7, -7, 5])
    r = str(a / 2) + str(a / torch.tensor(2)) + str(torch.tensor(3) / 2) + str(a // -2) + str(a // 2) + str(torch.tensor([7, -7]) // torch.tensor([-2, 2])) + str(torch.tensor([7, -7], dtype=torch.int8) // 2) + str(torch.tensor([200], dtype=torch.uint8) // 3) + str(torch.tensor([-7.0, 7.0]) // 2)
    assert r == ' 3.5000\n-3.5000\n 2.5000\n[ CPUFloatType{3} ] 3.5000\n-3.5000\n 2.5000\n[ CPUFloatType{3} ]1.5\n[ CPUFloatType{} ]-4\n 3\n-3\n[ CPULongType{3} ] 3\n-4\n 2\n[ CPULongType{3} ]-4\n-4\n[ CPULongType{2} ] 3\n-4\n[ CPUCharType{2} ] 66\n[ CPUByteType{1} ]-4\n 3\n[ CPUFloatType{2} ]', r


def test_remainder_signs():
    a = torch.tensor([7, -7, 5])
    r = str(a % 3) + str(a % -3) + str(torch.tensor([7.5, -7.5]) % 2) + str(torch.tensor([7.5, -7.5]) % -2) + str(torch.fmod(a, -3)) + str(torch.remainder(a, -3)) + str(torch.fmod(torch.tensor([-7.5]), 2))
    assert r == ' 1\n 2\n 2\n[ CPULongType{3} ]-2\n-1\n-1\n[ CPULongType{3} ] 1.5000\n 0.5000\n[ CPUFloatType{2} ]-0.5000\n-1.5000\n[ CPUFloatType{2} ] 1\n-1\n 2\n[ CPULongType{3} ]-2\n-1\n-1\n[ CPULongType{3} ]-1.5000\n[ CPUFloatType{1} ]', r


def test_div_modes():
    a = torch.tensor([7, -7, 5])
    r = str(torch.div(a, 2, rounding_mode='floor')) + str(torch.div(a, 2, rounding_mode='trunc')) + str(torch.div(a, -2, rounding_mode='trunc')) + str(a.true_divide(3))
    assert r == ' 3\n-4\n 2\n[ CPULongType{3} ] 3\n-3\n 2\n[ CPULongType{3} ]-3\n 3\n-2\n[ CPULongType{3} ] 2.3333\n-2.3333\n 1.6667\n[ CPUFloatType{3} ]', r


def test_float_div_by_zero():
    a = torch.tensor([1.0, -1.0, 0.0])
    r = str(a / 0) + str(a // 0) + str(a % 0) + str(torch.tensor([1, 0]) / 0)
    assert r == 'inf\n-inf\n-nan\n[ CPUFloatType{3} ]inf\n-inf\n-nan\n[ CPUFloatType{3} ]-nan\n-nan\n-nan\n[ CPUFloatType{3} ]inf\n-nan\n[ CPUFloatType{2} ]', r


def test_bool_arith():
    a = torch.tensor([True, False])
    r = str(a + a) + str(a * a) + str(a + 1) + str(a * 1.5) + str(a & a) + str(a | torch.tensor([False, False])) + str(a ^ a) + str(~a)
    assert r == ' 1\n 0\n[ CPUBoolType{2} ] 1\n 0\n[ CPUBoolType{2} ] 2\n 1\n[ CPULongType{2} ] 1.5000\n 0.0000\n[ CPUFloatType{2} ] 1\n 0\n[ CPUBoolType{2} ] 1\n 0\n[ CPUBoolType{2} ] 0\n 0\n[ CPUBoolType{2} ] 0\n 1\n[ CPUBoolType{2} ]', r


def test_uint8_wrap():
    a = torch.tensor([250, 5], dtype=torch.uint8)
    r = str(a + 10) + str(a * 2) + str(a - 10) + str(-a) + str(a + torch.tensor([10], dtype=torch.int8)) + str(a + 300) + str(torch.tensor([127], dtype=torch.int8) + 1) + str(torch.tensor([2**31 - 1], dtype=torch.int32) + 1) + str(torch.tensor([-128], dtype=torch.int8).abs())
    assert r == '  4\n 15\n[ CPUByteType{2} ] 244\n  10\n[ CPUByteType{2} ] 240\n 251\n[ CPUByteType{2} ]   6\n 251\n[ CPUByteType{2} ] 260\n  15\n[ CPUShortType{2} ] 38\n 49\n[ CPUByteType{2} ]-128\n[ CPUCharType{1} ]-2.1475e+09\n[ CPUIntType{1} ]-128\n[ CPUCharType{1} ]', r


def test_half_rounding():
    a = torch.tensor([0.1, 1000.0, 3.0], dtype=torch.float16)
    b = torch.tensor([0.2, 0.1, 1/3], dtype=torch.float16)
    r = str(a + b) + str(a * b) + str(a / b) + str(a - b) + str(a.sum()) + str(a.mean()) + str(a * 100) + str((a * 100) * 100) + str(a.float().exp().half())
    assert r == '    0.2998\n 1000.0000\n    3.3340\n[ CPUHalfType{3} ]   0.0200\n 100.0000\n   1.0000\n[ CPUHalfType{3} ] 5.0000e-01\n 1.0000e+04\n 9.0000e+00\n[ CPUHalfType{3} ]-9.9976e-02\n 1.0000e+03\n 2.6660e+00\n[ CPUHalfType{3} ]1003\n[ CPUHalfType{} ]334.25\n[ CPUHalfType{} ]  10\n inf\n 300\n[ CPUHalfType{3} ]  1000\n   inf\n 30000\n[ CPUHalfType{3} ]  1.1055\n     inf\n 20.0781\n[ CPUHalfType{3} ]', r


def test_bfloat16_rounding():
    c = torch.tensor([0.1, 1000.0, 3.0], dtype=torch.bfloat16)
    d = torch.tensor([0.2, 0.1, 1/3], dtype=torch.bfloat16)
    r = str(c + d) + str(c * d) + str(c / d) + str(c - d) + str(c.sum()) + str(c.mean()) + str(c + 1e-3) + str(c.exp())
    assert r == '    0.3008\n 1000.0000\n    3.3281\n[ CPUBFloat16Type{3} ]   0.0200\n 100.0000\n   1.0000\n[ CPUBFloat16Type{3} ]    0.5000\n 9984.0000\n    9.0000\n[ CPUBFloat16Type{3} ]   -0.1001\n 1000.0000\n    2.6719\n[ CPUBFloat16Type{3} ]1004\n[ CPUBFloat16Type{} ]334\n[ CPUBFloat16Type{} ]    0.1011\n 1000.0000\n    3.0000\n[ CPUBFloat16Type{3} ]  1.1016\n     inf\n 20.1250\n[ CPUBFloat16Type{3} ]', r


def test_half_bfloat16_promotion():
    a = torch.tensor([0.1, 1000.0, 3.0], dtype=torch.float16)
    c = torch.tensor([0.1, 1000.0, 3.0], dtype=torch.bfloat16)
    r = str(a + c) + str((a + 1.0).dtype) + str((a + torch.tensor(1.0)).dtype) + str((c + torch.tensor([1.0])).dtype)
    assert r == '    0.2001\n 2000.0000\n    6.0000\n[ CPUFloatType{3} ]556', r


def test_mixed_comparisons():
    a = torch.tensor([1, 2, 3])
    b = torch.tensor([1.0, 2.5, 3.0])
    r = str(a == b) + str(a < b) + str(a == 2.0) + str(a > 1.5) + str(b >= 2) + str(torch.tensor([True]) == 1) + str(torch.tensor([255], dtype=torch.uint8) == -1) + str(torch.tensor([1], dtype=torch.int8) < torch.tensor([1.5], dtype=torch.float16)) + str(torch.tensor([2**53 + 1]) == torch.tensor([2.**53], dtype=torch.float64))
    assert r == ' 1\n 0\n 1\n[ CPUBoolType{3} ] 0\n 1\n 0\n[ CPUBoolType{3} ] 0\n 1\n 0\n[ CPUBoolType{3} ] 0\n 1\n 1\n[ CPUBoolType{3} ] 0\n 1\n 1\n[ CPUBoolType{3} ] 1\n[ CPUBoolType{1} ] 1\n[ CPUBoolType{1} ] 1\n[ CPUBoolType{1} ] 1\n[ CPUBoolType{1} ]', r


def test_result_types():
    a = torch.tensor([1, 2])
    r = str(torch.result_type(a, 1.0)) + str(torch.result_type(a, torch.tensor(1.0, dtype=torch.float64))) + str(torch.result_type(torch.tensor([1], dtype=torch.uint8), torch.tensor([1], dtype=torch.int8))) + str(torch.result_type(torch.tensor([True]), 1)) + str(torch.result_type(torch.tensor([1.0], dtype=torch.float16), torch.tensor([1.0], dtype=torch.bfloat16))) + str(torch.result_type(torch.tensor(1, dtype=torch.int32), torch.tensor([1], dtype=torch.int8))) + str(torch.result_type(torch.tensor([1], dtype=torch.int8), 1000)) + str(torch.result_type(torch.tensor([1.], dtype=torch.float16), 1e10)) + str(torch.result_type(2, torch.tensor([1.5], dtype=torch.float16)))
    assert r == '672461155', r


def test_type_as():
    a = torch.tensor([1.7, -1.7, 300.5])
    r = str(a.type_as(torch.tensor([1]))) + str(a.type_as(torch.tensor([1], dtype=torch.uint8))) + str(a.type_as(torch.tensor([True]))) + str(torch.tensor([1, 2]).type_as(a))
    assert r == '   1\n  -1\n 300\n[ CPULongType{3} ]   1\n 255\n  44\n[ CPUByteType{3} ] 1\n 1\n 1\n[ CPUBoolType{3} ] 1\n 2\n[ CPUFloatType{2} ]', r


def test_to_out_of_range():
    a = torch.tensor([300.7, -1.5, -300.2, 1e10, float('inf')])
    r = str(a.to(torch.int8)) + str(a.to(torch.uint8)) + str(a.to(torch.int16)) + str(a.to(torch.int32)) + str(a.to(torch.int64)) + str(a.to(torch.bool)) + str(a.to(torch.float16)) + str(torch.tensor([70000.0, 1e-8]).half()) + str(torch.tensor([1e39], dtype=torch.float64).float())
    assert r == ' 44\n -1\n-44\n  0\n  0\n[ CPUCharType{5} ]  44\n 255\n 212\n   0\n   0\n[ CPUByteType{5} ] 300\n  -1\n-300\n   0\n   0\n[ CPUShortType{5} ] 300\n  -1\n-300\n-2.14748e+09\n-2.14748e+09\n[ CPUIntType{5} ] 3.0000e+02\n-1.0000e+00\n-3.0000e+02\n 1.0000e+10\n-9.2234e+18\n[ CPULongType{5} ] 1\n 1\n 1\n 1\n 1\n[ CPUBoolType{5} ] 300.7500\n  -1.5000\n-300.2500\n      inf\n      inf\n[ CPUHalfType{5} ]inf\n 0\n[ CPUHalfType{2} ]inf\n[ CPUFloatType{1} ]', r


def test_int_pow_tensor_exponent():
    a = torch.tensor([2, 3, -2])
    r = str(a ** 2) + str(a ** 2.0) + str(2 ** a) + str(a.pow(torch.tensor([1, 2, 3]))) + str(torch.tensor([2], dtype=torch.int8) ** 7) + str(torch.tensor([1, -1, 2, 0]) ** torch.tensor([-1, -3, -2, 2])) + str(torch.tensor([2, 3]).pow(torch.tensor(-1)))
    assert r == ' 4\n 9\n 4\n[ CPULongType{3} ] 4\n 9\n 4\n[ CPUFloatType{3} ] 4\n 8\n 0\n[ CPULongType{3} ] 2\n 9\n-8\n[ CPULongType{3} ]-128\n[ CPUCharType{1} ] 1\n-1\n 0\n 0\n[ CPULongType{4} ] 0\n 0\n[ CPULongType{2} ]', r


def test_int_reductions_dtypes():
    a = torch.tensor([7, -7])
    r = str(a.float() / 2) + str(a * 1.5) + str((a > 0) + (a > 0)) + str((a > 0).sum()) + str(a.sum().dtype) + str(torch.tensor([1], dtype=torch.int8).sum().dtype) + str(torch.tensor([True, True]).sum()) + str(torch.tensor([1], dtype=torch.int8) + torch.tensor(1000))
    assert r == ' 3.5000\n-3.5000\n[ CPUFloatType{2} ] 10.5000\n-10.5000\n[ CPUFloatType{2} ] 1\n 0\n[ CPUBoolType{2} ]1\n[ CPULongType{} ]442\n[ CPULongType{} ]-23\n[ CPUCharType{1} ]', r


def test_bitwise_ints():
    a = torch.tensor([5, -6, 12])
    r = str(a & 3) + str(a | 8) + str(a ^ 1) + str(~a) + str(a << 2) + str(a >> 1) + str(torch.tensor([200], dtype=torch.uint8) << 1) + str(torch.tensor([-128], dtype=torch.int8) >> 1)
    assert r == ' 1\n 2\n 0\n[ CPULongType{3} ] 13\n -6\n 12\n[ CPULongType{3} ]  4\n -5\n 13\n[ CPULongType{3} ]-6\n 5\n-13\n[ CPULongType{3} ] 20\n-24\n 48\n[ CPULongType{3} ] 2\n-3\n 6\n[ CPULongType{3} ] 144\n[ CPUByteType{1} ]-64\n[ CPUCharType{1} ]', r


def test_float_floor_div():
    r = str(torch.tensor([5.0, -5.0, 0.3]) // torch.tensor([0.1, 0.1, 0.1])) + str(torch.tensor([1e308]) // 1e-308) + str(torch.tensor([5.0, -5.5]) % torch.tensor([float('inf'), float('inf')])) + str(torch.tensor([5.0]) % float('-inf'))
    assert r == ' 49\n-50\n  3\n[ CPUFloatType{3} ]inf\n[ CPUFloatType{1} ] 5\ninf\n[ CPUFloatType{2} ]-inf\n[ CPUFloatType{1} ]', r


def test_multinomial_degenerate():
    torch.manual_seed(0)
    r = str(torch.multinomial(torch.tensor([0.0, 1.0, 0.0]), 4, True)) + str(torch.multinomial(torch.tensor([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]]), 4, True)) + str(torch.multinomial(torch.tensor([0.0, 1.0, 0.0]), 1)) + str(torch.multinomial(torch.tensor([0.0, 1.0, 2.0]), 2).sort()[0]) + str(torch.multinomial(torch.ones(3), 3).sort()[0]) + str(torch.multinomial(torch.ones(2, 5, dtype=torch.float64), 5).sort(1)[0])
    assert r == ' 1\n 1\n 1\n 1\n[ CPULongType{4} ] 1  1  1  1\n 0  0  0  0\n[ CPULongType{2,4} ] 1\n[ CPULongType{1} ] 1\n 2\n[ CPULongType{2} ] 0\n 1\n 2\n[ CPULongType{3} ] 0  1  2  3  4\n 0  1  2  3  4\n[ CPULongType{2,5} ]', r


def test_random_rand_dtypes():
    torch.manual_seed(0)
    r = str(torch.rand(5)) + str(torch.rand(2, 3, dtype=torch.float64)) + str(torch.rand(3, dtype=torch.float16)) + str(torch.rand(3, dtype=torch.bfloat16))
    assert r == ' 0.4963\n 0.7682\n 0.0885\n 0.1320\n 0.3074\n[ CPUFloatType{5} ] 0.0726  0.1716  0.0585\n 0.2137  0.3509  0.1482\n[ CPUDoubleType{2,3} ] 0.6934\n 0.1533\n 0.3442\n[ CPUHalfType{3} ] 0.8984\n 0.1523\n 0.3398\n[ CPUBFloat16Type{3} ]', r


def test_random_randn_sizes():
    torch.manual_seed(0)
    r = str(torch.randn(3)) + str(torch.randn(16)) + str(torch.randn(21)) + str(torch.randn(4, 5, dtype=torch.float64)) + str(torch.randn(17, dtype=torch.float64))
    assert r == ' 1.5410\n-0.2934\n-2.1788\n[ CPUFloatType{3} ]-0.3561\n 0.4372\n 0.4913\n-0.2041\n-0.0885\n 0.5239\n-0.6659\n 0.8504\n-1.0438\n-1.3453\n 0.7854\n 0.9928\n-0.1932\n-0.3090\n 0.5026\n-0.8594\n[ CPUFloatType{16} ] 0.4681\n-0.1577\n 1.4437\n 0.2660\n 0.1665\n-0.6787\n 0.9383\n 0.4889\n-0.6731\n 0.8728\n 1.0554\n 0.1778\n-0.2303\n-0.3067\n-1.5810\n 1.7066\n-0.4462\n 0.7440\n 1.5210\n 3.4105\n-1.5312\n[ CPUFloatType{21} ]-1.3571 -0.6836 -1.1026  2.2824  0.6521\n 2.9994  0.1498  1.7333 -0.9325  0.9168\n-0.2509  0.8608  1.3969 -1.0018  2.2897\n-1.3841 -0.9828  0.3078 -1.3866 -1.1094\n[ CPUDoubleType{4,5} ] 1.6321\n 0.8840\n-1.3806\n 0.5199\n 0.5414\n-0.1011\n 0.3021\n 0.5081\n-0.3994\n 0.7951\n 0.8444\n 0.8055\n 0.9474\n-1.2260\n 0.6255\n-1.6311\n 0.4418\n[ CPUDoubleType{17} ]', r


def test_random_randn_cached_pair():
    torch.manual_seed(0)
    r = str(torch.randn(3)) + str(torch.randn(1)) + str(torch.randn(2, dtype=torch.float64)) + str(torch.rand(1)) + str(torch.randn(1))
    assert r == ' 1.5410\n-0.2934\n-2.1788\n[ CPUFloatType{3} ] 0.5684\n[ CPUFloatType{1} ]-1.0845\n-1.3986\n[ CPUDoubleType{2} ]0.01 *\n 2.2326\n[ CPUFloatType{1} ]-0.3354\n[ CPUFloatType{1} ]', r


def test_random_randn_half_bfloat16():
    torch.manual_seed(0)
    a = torch.zeros(18, dtype=torch.float16)
    b = torch.zeros(18, dtype=torch.bfloat16)
    r = str(torch.randn(20, dtype=torch.float16)) + str(torch.randn(40, dtype=torch.bfloat16)) + str(a.normal_(2., 3.)) + str(b.normal_(2., 3.)) + str(torch.randn(5, dtype=torch.float16))
    assert r == '-0.9009\n 0.4812\n 1.1982\n 0.9053\n-1.3936\n 0.7725\n-0.2142\n 0.3987\n 1.6650\n-1.0234\n-1.2783\n 0.4429\n 0.8540\n 0.1735\n 0.2023\n-0.1366\n 0.6133\n 0.1521\n 1.3848\n-0.6416\n[ CPUHalfType{20} ] 2.9531\n 0.6523\n-1.3516\n-1.4844\n-0.8281\n-0.5703\n 1.3672\n 0.0576\n-0.9609\n 0.5625\n-0.6836\n-0.7500\n-0.2949\n-0.8086\n 1.3672\n-1.5312\n-0.1748\n 1.5938\n 0.2969\n-0.4863\n-0.1069\n 1.3672\n 1.6562\n-1.3359\n-0.0198\n 0.9727\n-0.5391\n 0.1025\n 1.0469\n-0.4062\n-1.1016\n 0.0854\n 0.8594\n-0.7031\n-0.8672\n 0.5898\n 1.2188\n 0.3027\n 0.2451\n 0.0234\n[ CPUBFloat16Type{40} ] 1.2520\n 5.6094\n-0.9648\n-1.3271\n-0.3765\n-0.3665\n-6.3984\n 4.7422\n 5.3711\n 1.1836\n-0.4785\n 2.7227\n 4.0664\n 5.2148\n 5.0898\n 8.0391\n 0.0458\n 7.5156\n[ CPUHalfType{18} ] 3.9531\n-0.2188\n-3.0938\n 3.5781\n 1.0312\n-1.9688\n 6.4375\n 1.5859\n 2.0000\n-1.6875\n 3.8125\n 4.8125\n-4.3750\n 2.1250\n 4.8125\n-1.5000\n 2.0000\n 2.6406\n[ CPUBFloat16Type{18} ] 0.1318\n 1.0195\n-0.4468\n 0.4519\n-0.9761\n[ CPUHalfType{5} ]', r


def test_random_randint():
    torch.manual_seed(0)
    r = str(torch.randint(10, (8,))) + str(torch.randint(-5, 5, (2, 3))) + str(torch.randint(0, 1099511627776, (3,))) + str(torch.randint(3, (4,), dtype=torch.int32))
    assert r == ' 4\n 9\n 3\n 0\n 3\n 9\n 7\n 3\n[ CPULongType{8} ] 2 -2 -4\n 1  1  4\n[ CPULongType{2,3} ] 3.0089e+11\n 3.7913e+11\n 2.5116e+11\n[ CPULongType{3} ] 2\n 2\n 2\n 2\n[ CPUIntType{4} ]', r


def test_random_like():
    torch.manual_seed(0)
    a = torch.zeros(2, 3)
    r = str(torch.rand_like(a)) + str(torch.randn_like(a)) + str(torch.randint_like(a, 10)) + str(torch.randint_like(a, 5, 9)) + str(torch.randn_like(torch.zeros(20, dtype=torch.float64)))
    assert r == ' 0.4963  0.7682  0.0885\n 0.1320  0.3074  0.6341\n[ CPUFloatType{2,3} ] 1.2645 -0.6874  0.1604\n-0.6065 -0.7831  1.0622\n[ CPUFloatType{2,3} ] 4  3  6\n 9  1  4\n[ CPUFloatType{2,3} ] 5  6  6\n 6  6  5\n[ CPUFloatType{2,3} ]-1.0662\n 0.1535\n-0.6333\n-1.2609\n-1.2177\n-1.2655\n-1.1195\n 1.1665\n 0.9262\n 0.7970\n 0.2117\n 0.1356\n 1.8728\n-0.3099\n 0.2402\n-1.3488\n 0.2444\n-0.0137\n-0.1996\n-1.6564\n[ CPUDoubleType{20} ]', r


def test_random_normal_overloads():
    torch.manual_seed(0)
    r = str(torch.normal(torch.zeros(3), torch.ones(3))) + str(torch.normal(2.0, torch.arange(1., 4.))) + str(torch.normal(torch.arange(4.), 0.5)) + str(torch.normal(2.0, 3.0, [2, 2])) + str(torch.normal(torch.zeros(20), 2.0))
    assert r == ' 1.5410\n-0.2934\n-2.1788\n[ CPUFloatType{3} ] 2.5684\n-0.1690\n-2.1958\n[ CPUFloatType{3} ] 0.2017\n 1.4190\n 1.6404\n 2.7983\n[ CPUFloatType{4} ] 0.2101  2.5461\n-0.5700  5.3018\n[ CPUFloatType{2,2} ] 0.3329\n 1.7488\n-0.2869\n-0.2232\n-1.3462\n 1.7457\n 2.1107\n 0.3557\n-0.4607\n-0.7835\n 1.0866\n-0.7903\n-0.8924\n 1.4880\n 3.0420\n 6.8210\n-3.0624\n-2.4683\n 3.6395\n-1.1031\n[ CPUFloatType{20} ]', r


def test_random_inplace_fills():
    torch.manual_seed(0)
    a = torch.zeros(4)
    r = str(a.uniform_(-2., 5.)) + str(a.normal_(1., 2.)) + str(a.normal_())
    r = r + str(torch.zeros(2, 2, dtype=torch.float64).uniform_()) + str(torch.zeros(20).normal_(3., 0.5))
    assert r == ' 1.4738\n 3.3776\n-1.3807\n-1.0758\n[ CPUFloatType{4} ]-3.3576\n 2.1369\n-1.1690\n-1.7972\n[ CPUFloatType{4} ] 0.4033\n 0.8380\n-0.7193\n-0.4033\n[ CPUFloatType{4} ] 0.4529  0.1768\n 0.3553  0.6219\n[ CPUDoubleType{2,2} ] 3.0832\n 3.4372\n 2.9283\n 2.9442\n 2.6635\n 3.4364\n 3.5277\n 3.0889\n 2.8848\n 2.8041\n 3.2716\n 2.8024\n 2.7769\n 3.3720\n 3.7605\n 4.7053\n 2.2344\n 2.3829\n 3.9099\n 2.7242\n[ CPUFloatType{20} ]', r


def test_random_random_():
    torch.manual_seed(0)
    r = str(torch.zeros(6, dtype=torch.int64).random_(3, 7)) + str(torch.zeros(4, dtype=torch.uint8).random_(10)) + str(torch.zeros(4).random_(0, 100)) + str(torch.zeros(3, dtype=torch.int32).random_(-1048576, 1048576))
    assert r == ' 3\n 6\n 4\n 3\n 6\n 6\n[ CPULongType{6} ] 7\n 3\n 7\n 3\n[ CPUByteType{4} ]  1\n 66\n 56\n 99\n[ CPUFloatType{4} ]-312250\n-737832\n 170584\n[ CPUIntType{3} ]', r


def test_random_distributions():
    torch.manual_seed(0)
    r = str(torch.zeros(4).cauchy_()) + str(torch.zeros(4, dtype=torch.float64).log_normal_()) + str(torch.zeros(4).geometric_(0.3)) + str(torch.zeros(4).exponential_(2.0)) + str(torch.zeros(4, dtype=torch.int64).geometric_(0.5))
    assert r == ' 10.5977\n  0.7648\n -0.1283\n  3.9331\n[ CPUFloatType{4} ]  0.3107\n  0.1658\n  6.0903\n 14.5276\n[ CPUDoubleType{4} ] 2\n 4\n 3\n 5\n[ CPUFloatType{4} ] 0.2195\n 0.4863\n 0.3287\n 0.2906\n[ CPUFloatType{4} ] 2\n 3\n 1\n 1\n[ CPULongType{4} ]', r


def test_random_bernoulli():
    torch.manual_seed(0)
    r = str(torch.zeros(8).bernoulli_(0.3)) + str(torch.bernoulli(torch.full((6,), 0.5))) + str(torch.bernoulli(torch.full((6,), 0.5, dtype=torch.float64))) + str(torch.zeros(5).bernoulli_(torch.tensor([0.1, 0.5, 0.9, 0.5, 0.5]))) + str(torch.bernoulli(torch.zeros(3), 0.7))
    assert r == ' 0\n 0\n 0\n 0\n 0\n 0\n 1\n 0\n[ CPUFloatType{8} ] 0\n 0\n 1\n 1\n 0\n 0\n[ CPUFloatType{6} ] 1\n 1\n 0\n 1\n 1\n 1\n[ CPUDoubleType{6} ] 0\n 1\n 1\n 0\n 0\n[ CPUFloatType{5} ] 0\n 0\n 1\n[ CPUFloatType{3} ]', r


def test_random_randperm():
    torch.manual_seed(0)
    r = str(torch.randperm(10)) + str(torch.randperm(5, dtype=torch.float32)) + str(torch.randperm(70000)[:6]) + str(torch.randperm(1))
    assert r == ' 4\n 1\n 7\n 5\n 3\n 9\n 0\n 8\n 6\n 2\n[ CPULongType{10} ] 3\n 2\n 4\n 0\n 1\n[ CPUFloatType{5} ] 51399\n   596\n 57336\n 47446\n 16792\n 26439\n[ CPULongType{6} ] 0\n[ CPULongType{1} ]', r


def test_random_multinomial():
    torch.manual_seed(0)
    p = torch.tensor([0.1, 0.2, 0.3, 0.4])
    r = str(torch.multinomial(p, 2)) + str(torch.multinomial(p, 6, True)) + str(torch.multinomial(p.reshape(2, 2), 1)) + str(p.multinomial(4)) + str(torch.multinomial(torch.tensor([[1., 2., 3.], [3., 2., 1.]], dtype=torch.float64), 5, True)) + str(torch.multinomial(torch.ones(2, 10), 3))
    assert r == ' 2\n 1\n[ CPULongType{2} ] 3\n 3\n 1\n 2\n 2\n 1\n[ CPULongType{6} ] 1\n 0\n[ CPULongType{2,1} ] 3\n 2\n 1\n 0\n[ CPULongType{4} ] 2  2  1  2  0\n 1  0  1  1  1\n[ CPULongType{2,5} ] 5  4  1\n 9  3  2\n[ CPULongType{2,3} ]', r


def test_random_dropout():
    torch.manual_seed(0)
    x = torch.arange(1., 13.).reshape(3, 4)
    r = str(F.dropout(x, 0.5, True)) + str(F.dropout(x, 0.2, True)) + str(F.dropout(x.double(), 0.3, True)) + str(torch.dropout(x, 0.25, True)) + str(F.dropout(x.t(), 0.5, True))
    assert r == '  0   0   6   0\n  0   0  14  16\n  0  20  22  24\n[ CPUFloatType{3,4} ]  1.2500   2.5000   3.7500   5.0000\n  6.2500   7.5000   8.7500  10.0000\n 11.2500  12.5000  13.7500  15.0000\n[ CPUFloatType{3,4} ]  1.4286   2.8571   4.2857   5.7143\n  0.0000   8.5714   0.0000  11.4286\n 12.8571  14.2857  15.7143   0.0000\n[ CPUDoubleType{3,4} ]  1.3333   2.6667   0.0000   5.3333\n  6.6667   8.0000   9.3333  10.6667\n 12.0000  13.3333   0.0000  16.0000\n[ CPUFloatType{3,4} ]  0   0   0\n  4  12   0\n  0  14   0\n  0  16   0\n[ CPUFloatType{4,3} ]', r


def test_random_dropout_variants():
    torch.manual_seed(0)
    x = torch.arange(1., 25.).reshape(2, 3, 4)
    y = F.alpha_dropout(x.clone(), 0.5, True, True)
    r = str(F.alpha_dropout(x, 0.3, True)) + str(F.feature_alpha_dropout(x, 0.4, True)) + str(F.dropout2d(x.reshape(2, 3, 2, 2), 0.5, True)) + str(F.dropout1d(x, 0.5, True)) + str(F.dropout3d(x.reshape(1, 2, 3, 2, 2), 0.5, True)) + str(y)
    assert r == '(1,.,.) = \n  1.3150  2.1760  3.0369  3.8979\n -1.0595  5.6198 -1.0595  7.3417\n  8.2027  9.0636  9.9246 -1.0595\n\n(2,.,.) = \n  11.6465  12.5074  -1.0595  14.2293\n  15.0903  15.9512  -1.0595  17.6731\n  18.5341  19.3951  -1.0595  21.1170\n[ CPUFloatType{2,3,4} ](1,.,.) = \n -0.9106 -0.9106 -0.9106 -0.9106\n -0.9106 -0.9106 -0.9106 -0.9106\n -0.9106 -0.9106 -0.9106 -0.9106\n\n(2,.,.) = \n  11.8298  12.6931  13.5563  14.4196\n  15.2829  16.1462  17.0095  17.8727\n  -0.9106  -0.9106  -0.9106  -0.9106\n[ CPUFloatType{2,3,4} ](1,1,.,.) = \n  0  0\n  0  0\n\n(2,1,.,.) = \n  0  0\n  0  0\n\n(1,2,.,.) = \n  10  12\n  14  16\n\n(2,2,.,.) = \n  34  36\n  38  40\n\n(1,3,.,.) = \n  0  0\n  0  0\n\n(2,3,.,.) = \n  0  0\n  0  0\n[ CPUFloatType{2,3,2,2} ](1,.,.) = \n   0   0   0   0\n  10  12  14  16\n  18  20  22  24\n\n(2,.,.) = \n   0   0   0   0\n   0   0   0   0\n  42  44  46  48\n[ CPUFloatType{2,3,4} ](1,1,1,.,.) = \n  2  4\n  6  8\n\n(1,2,1,.,.) = \n  0  0\n  0  0\n\n(1,1,2,.,.) = \n  10  12\n  14  16\n\n(1,2,2,.,.) = \n  0  0\n  0  0\n\n(1,1,3,.,.) = \n  18  20\n  22  24\n\n(1,2,3,.,.) = \n  0  0\n  0  0\n[ CPUFloatType{1,2,3,2,2} ](1,.,.) = \n  -0.7792  -0.7792   3.4384  -0.7792\n  -0.7792  -0.7792   6.9840   7.8704\n  -0.7792   9.6432  10.5296  11.4161\n\n(2,.,.) = \n  12.3025  -0.7792  14.0753  14.9617\n  15.8481  16.7345  -0.7792  -0.7792\n  19.3937  -0.7792  21.1665  -0.7792\n[ CPUFloatType{2,3,4} ]', r


def test_random_gumbel_softmax():
    torch.manual_seed(0)
    x = torch.tensor([[1.0, 2.0, 3.0], [0.5, 0.5, 0.1]])
    r = str(F.gumbel_softmax(x, tau=0.5)) + str(F.gumbel_softmax(x, hard=True))
    assert r == ' 0.0005  0.0327  0.9668\n 0.1224  0.7335  0.1441\n[ CPUFloatType{2,3} ] 0  0  1\n 0  0  1\n[ CPUFloatType{2,3} ]', r


def test_random_reseed_repeats():
    torch.manual_seed(7)
    a = torch.randn(3)
    torch.manual_seed(7)
    b = torch.randn(3)
    r = str(a) + str(b) + str(torch.equal(a, b))
    assert r == '-0.1468\n 0.7861\n 0.9468\n[ CPUFloatType{3} ]-0.1468\n 0.7861\n 0.9468\n[ CPUFloatType{3} ]True', r


def test_random_strided_fills():
    torch.manual_seed(0)
    a = torch.zeros(4, 5).t()
    a.uniform_()
    b = torch.zeros(20, 2)[:, 0]
    b.normal_()
    c = torch.zeros(3, 4).t()
    c.bernoulli_(torch.full((4, 3), 0.5))
    r = str(a) + str(b) + str(c)
    assert r == ' 0.4963  0.6341  0.3489  0.5185\n 0.7682  0.4901  0.4017  0.6977\n 0.0885  0.8964  0.0223  0.8000\n 0.1320  0.4556  0.1689  0.1610\n 0.3074  0.6323  0.2939  0.2823\n[ CPUFloatType{5,4} ]-0.5966\n 0.1820\n-0.8567\n 1.1006\n-1.0712\n 0.1227\n-0.5663\n 0.3731\n-0.8920\n-1.5091\n 0.3704\n 1.4565\n 0.9398\n 0.7748\n 0.1919\n 1.2638\n-1.2904\n-0.7911\n-0.0209\n-0.7185\n[ CPUFloatType{20} ] 0  0  0\n 0  1  0\n 1  0  1\n 0  0  1\n[ CPUFloatType{4,3} ]', r


def test_random_poisson():
    torch.manual_seed(0)
    r = str(torch.poisson(torch.tensor([1.0, 5.0, 0.0, 12.0, 30.0, 3.5]))) + str(torch.poisson(torch.full((2, 3), 100.0, dtype=torch.float64)))
    assert r == '  2\n  6\n  0\n 11\n 28\n  3\n[ CPUFloatType{6} ] 105   91   85\n  91  102  108\n[ CPUDoubleType{2,3} ]', r


def test_random_binomial():
    torch.manual_seed(0)
    r = str(torch.binomial(torch.tensor([10.0, 5.0, 100.0, 40.0, 7.0]), torch.tensor([0.3, 1.0, 0.4, 0.8, 0.9]))) + str(torch.binomial(torch.full((4,), 50.0, dtype=torch.float64), torch.full((4,), 0.5, dtype=torch.float64)))
    assert r == '  6\n  5\n 38\n 32\n  5\n[ CPUFloatType{5} ] 27\n 25\n 26\n 27\n[ CPUDoubleType{4} ]', r


def test_random_standard_gamma():
    torch.manual_seed(0)
    r = str(torch._standard_gamma(torch.tensor([1.0, 2.0, 0.5, 10.0]))) + str(torch._standard_gamma(torch.tensor([0.3, 3.0], dtype=torch.float64)))
    assert r == ' 2.8824\n 1.3158\n 0.1699\n 7.9011\n[ CPUFloatType{4} ] 0.1580\n 2.9751\n[ CPUDoubleType{2} ]', r


def test_random_sample_dirichlet():
    torch.manual_seed(0)
    r = str(torch._sample_dirichlet(torch.tensor([1.0, 2.0, 3.0]))) + str(torch._sample_dirichlet(torch.tensor([[0.5, 0.5], [2.0, 5.0]], dtype=torch.float64)))
    assert r == ' 0.5282\n 0.2411\n 0.2307\n[ CPUFloatType{3} ] 0.2194  0.7806\n 0.4134  0.5866\n[ CPUDoubleType{2,2} ]', r


def test_index_list_of_bools_and_floats():
    a = torch.arange(6).reshape(2, 3)
    r = str(a[[True, False]]) + str(a[:, [False, True, True]]) + str(a[[1.0, 0.0]])
    assert r == ' 3  4  5\n 0  1  2\n[ CPULongType{2,3} ] 0  1  1\n 3  4  4\n[ CPULongType{2,3} ] 3  4  5\n 0  1  2\n[ CPULongType{2,3} ]', r


def test_random_int64_full_range():
    torch.manual_seed(0)
    x: List[int] = torch.zeros(12, dtype=torch.int64).random_().tolist()
    y: List[int] = torch.zeros(4, dtype=torch.int64).random_(-5, None).tolist()
    z: List[int] = torch.randint(-1099511627776, 1099511627776, (3,)).tolist()
    r = str(x) + str(y) + str(z)
    assert r == '[900450186894289455, 3969543146641149120, 1895649597198586619, 827948490035658087, 7815051614634499795, 2691271404617651954, 8072059273656089175, 7226936298635050456, 8553068346248842636, 7073247613084517057, 5381377035038509607, 533017224590379182][1255200654889945927, 7850872175371829775, 1310383996493862979, 1607251845270378383][-604008803376, -51723624763, 1091524495183]', r


def test_random_default_ranges():
    torch.manual_seed(0)
    r = str(torch.zeros(3, dtype=torch.int32).random_()) + str(torch.zeros(3).random_()) + str(torch.zeros(3, dtype=torch.float64).random_()) + str(torch.zeros(4, dtype=torch.bool).random_()) + str(torch.zeros(3, dtype=torch.int8).random_()) + str(torch.zeros(3, dtype=torch.float16).random_()) + str(torch.zeros(3, dtype=torch.uint8).random_(200, None))
    assert r == '2.09652e+08\n3.98765e+08\n9.24231e+08\n[ CPUIntType{3} ]2.21489e+06\n5.15754e+06\n1.06379e+07\n[ CPUFloatType{3} ] 8.2934e+15\n 5.8099e+15\n 7.1260e+15\n[ CPUDoubleType{3} ] 0\n 1\n 0\n 0\n[ CPUBoolType{4} ] 88\n 12\n 58\n[ CPUCharType{3} ] 930\n 833\n  29\n[ CPUHalfType{3} ] 239\n 230\n 232\n[ CPUByteType{3} ]', r


def test_random_multinomial_one_sample_rows():
    torch.manual_seed(0)
    p = torch.rand(4, 6)
    r = str(torch.multinomial(p, 1)) + str(torch.multinomial(p, 1, True)) + str(torch.multinomial(p, 6)) + str(torch.multinomial(p, 10, True)) + str(torch.rand(2))
    assert r == ' 5\n 4\n 5\n 3\n[ CPULongType{4,1} ] 3\n 2\n 5\n 3\n[ CPULongType{4,1} ] 1  0  5  4  3  2\n 1  5  3  0  4  2\n 3  4  5  2  0  1\n 0  3  4  2  1  5\n[ CPULongType{4,6} ] 3  0  1  5  0  5  5  5  1  4\n 0  1  1  1  2  1  1  1  1  1\n 3  4  4  3  4  3  4  5  5  1\n 4  2  2  2  4  4  2  5  4  3\n[ CPULongType{4,10} ] 0.6808\n 0.5633\n[ CPUFloatType{2} ]', r


def err_multinomial_too_many():
    # raises: cannot sample n_sample > prob_dist.size(-1) samples without replacement
    print(torch.multinomial(torch.tensor([0.5, 0.5]), 3))


def err_multinomial_negative():
    # raises: probability tensor contains either `inf`, `nan` or element < 0
    print(torch.multinomial(torch.tensor([-0.5, 0.5]), 1))


def err_multinomial_infinite():
    # raises: probability tensor contains either `inf`, `nan` or element < 0
    print(torch.multinomial(torch.tensor([0.0, 1.0, float('inf')]), 2))


def err_multinomial_zero_sum():
    # raises: invalid multinomial distribution (sum of probabilities <= 0)
    print(torch.multinomial(torch.tensor([0.0, 0.0]), 1))


def err_multinomial_zero_row_replacement():
    # raises: invalid multinomial distribution (sum of probabilities <= 0)
    print(torch.multinomial(torch.tensor([[1.0, 1.0], [0.0, 0.0]]), 2, True))


def err_multinomial_integer():
    # raises: multinomial only supports floating-point dtypes for input, got: Long
    print(torch.multinomial(torch.tensor([1, 2]), 1))


def err_multinomial_three_dims():
    # raises: prob_dist must be 1 or 2 dim
    print(torch.multinomial(torch.ones(2, 2, 2), 1))


def err_multinomial_no_samples():
    # raises: cannot sample n_sample <= 0 samples
    print(torch.multinomial(torch.tensor([0.5, 0.5]), 0))


def err_multinomial_nan_replacement():
    # raises: invalid multinomial distribution (encountering probability entry < 0)
    print(torch.multinomial(torch.tensor([0.0, 1.0, float('nan')]), 2, True))


def err_multinomial_half_replacement():
    # raises: multinomial is not implemented for half on CPU
    print(torch.multinomial(torch.ones(3, dtype=torch.float16), 1, True))


def err_exponential_negative_rate():
    # raises: exponential_ expects lambda >= 0.0, but found lambda=-1
    print(torch.zeros(3).exponential_(-1.0))


def err_log_normal_zero_std():
    # raises: log_normal_ expects std > 0.0, but found std=0
    print(torch.zeros(3).log_normal_(1., 0.))


def err_geometric_certain():
    # raises: geometric_ expects p to be in (0, 1), but got p=1
    print(torch.zeros(3).geometric_(1.))


def err_cauchy_integer():
    # raises: "cauchy_cpu" not implemented for 'Long'
    print(torch.zeros(3, dtype=torch.int64).cauchy_())


def err_random_empty_range():
    # raises: random_ expects 'from' to be less than 'to', but got from=7 >= to=3
    print(torch.zeros(3).random_(7, 3))


def err_random_byte_bound():
    # raises: to - 1 is out of bounds for unsigned char
    print(torch.zeros(3, dtype=torch.uint8).random_(300))


def err_normal_negative_std_tensor():
    # raises: normal expects all elements of std >= 0.0
    a = torch.ones(3)
    print(torch.normal(a, -a))


def err_normal_negative_std_float():
    # raises: normal expects std >= 0.0, but found std -1
    print(torch.normal(torch.ones(3), -1.0))


def err_normal_integer_mean():
    # raises: "normal_kernel_cpu" not implemented for 'Long'
    print(torch.normal(torch.ones(3, dtype=torch.int64), 1.))


def err_index_reduce_sum():
    # raises: index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got sum.
    print(torch.ones(3).index_reduce(0, torch.tensor([0]), torch.ones(1), 'sum'))


def err_index_reduce_count():
    # raises: index_reduce_(): Number of indices (2) should be equal to source.size(dim): (3), for dim: 0
    print(torch.ones(3, 2).index_reduce(0, torch.tensor([0, 0]), torch.ones(3, 2), 'prod'))


def err_index_reduce_dtypes():
    # raises: index_reduce_(): self (Float) and source (Double) must have the same scalar type
    print(torch.ones(3, 2).index_reduce(0, torch.tensor([0, 0, 2]), torch.ones(3, 2, dtype=torch.float64), 'prod'))


def err_index_reduce_out_of_range():
    # raises: index out of range in self
    print(torch.ones(3).index_reduce(0, torch.tensor([3]), torch.ones(1), 'prod'))


def err_int_negative_scalar_power():
    # raises: Integers to negative integer powers are not allowed.
    print(torch.tensor([2, 3]) ** -1)


def err_feature_dropout_one_dim():
    # raises: Feature dropout requires at least 2 dimensions in the input
    print(torch.nn.functional.feature_alpha_dropout(torch.ones(3), 0.5, True))


def err_setitem_index_put_dtype():
    # raises: Index put requires the source and destination dtypes match, got Long for the destination and Double for the source.
    b = torch.zeros(4, dtype=torch.int64)
    b[torch.tensor([3])] = torch.tensor(7.5, dtype=torch.float64)
    print(b)


def err_index_past_end():
    # raises: index 10 is out of bounds for dimension 0 with size 10
    a = torch.arange(10)
    print(a[10])


def err_index_tensor_past_end():
    # raises: index 12 is out of bounds for dimension 0 with size 10
    a = torch.arange(10)
    print(a[torch.tensor([1, 12])])


def err_integer_floor_divide_by_zero():
    # raises: ZeroDivisionError
    print(torch.tensor([1, 2]) // torch.tensor([0, 1]))


def err_bool_subtraction():
    # raises: Subtraction, the `-` operator, with two bool tensors is not supported.
    a = torch.tensor([True, False])
    print(a - a)


def err_bool_negation():
    # raises: Negation, the `-` operator, on a bool tensor is not supported.
    print(-torch.tensor([True, False]))


def err_poisson_negative_rate():
    # raises: invalid Poisson rate, expected rate to be non-negative
    print(torch.poisson(torch.tensor([-1.0])))


# ---- t.type(dtype, non_blocking) is t.to(...) as PyTorch emits it ------------------------

def test_tensor_type_is_to():
    x = torch.tensor([1, 2])
    d: Optional[int] = None
    assert x.type(torch.float64).dtype == torch.float64
    assert x.type(torch.float32, True).dtype == torch.float32
    assert x.type().dtype == torch.int64
    assert x.type(d).dtype == torch.int64
    assert x.type(dtype=torch.int8).dtype == torch.int8
    assert x.type(x.dtype, non_blocking=True).dtype == torch.int64
    assert torch.equal(x.type(torch.float64), torch.tensor([1.0, 2.0], dtype=torch.float64))


def err_tensor_type_str():
    # raises: Invalid device string: 'torch.DoubleTensor'
    x = torch.tensor([1, 2])
    return x.type("torch.DoubleTensor")


if __name__ == "__main__":
    import casedriver
    casedriver.run(dict(globals()))
