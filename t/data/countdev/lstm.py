# The main of t/countdev.sh's program, appended to examples/lstm.py's imports and LSTM
# cell (everything above its main): inputs made by factory functions without device=, three
# steps of the cell, then the results' devices and values; counts() adds the countdev
# plugin's counts of its kernels. t/countdev.sh runs it with default_backend countdev (the
# counting test backend) and with --backend cpu, and compares.


def main():
    batch, inp, hidden = 2, 3, 4
    x = torch.linspace(0.0, 0.5, batch * inp).reshape([batch, inp])
    hx = torch.zeros([batch, hidden])
    cx = torch.ones([batch, hidden])
    w_ih = torch.linspace(-1.0, 1.0, 4 * hidden * inp).reshape([4 * hidden, inp])
    w_hh = torch.linspace(1.0, -1.0, 4 * hidden * hidden).reshape([4 * hidden, hidden])
    b_ih = torch.full([4 * hidden], 0.1)
    b_hh = torch.zeros([4 * hidden])
    for step in range(3):
        hx, cx = cell(x, hx, cx, w_ih, w_hh, b_ih, b_hh)
    print(hx.device, cx.device)
    print(hx.to(torch.device("cpu")))
    print(cx.to(torch.device("cpu")))


def counts():
    main()
    names = ["aten::zeros", "aten::ones", "aten::full", "aten::linspace", "aten::mm",
             "aten::t", "aten::add.Tensor", "aten::mul.Tensor", "aten::sigmoid", "aten::tanh",
             "aten::chunk", "aten::reshape", "prim::device", "aten::to.prim_Device"]
    for name in names:
        print(name, torch.ops.countdev.count(name))
    print("total", torch.ops.countdev.count(""))
