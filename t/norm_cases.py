# t/norm_cases.py — torch.norm, which PyTorch writes in Python with four @_overload
# signatures (p a str or a number, dim an int or a list) and tscript ships as TorchScript
# (schemas/torch.functional.py), run as TorchScript. The test_* functions assert PyTorch
# 1.13's results; each err_* function fails with the message in its `# raises:` line.
# t/norm_cases.sh runs both kinds through tscript; they behave the same under PyTorch:
#     /usr/bin/python3 t/norm_cases.py
from typing import List, Optional

import torch


def close(a: torch.Tensor, b: torch.Tensor) -> bool:
    return a.dtype == b.dtype and a.size() == b.size() and bool(torch.allclose(a, b, 1e-5, 1e-6))


def test_whole_tensor():
    x = torch.arange(6.0).reshape(2, 3) - 2.0
    assert close(torch.norm(x), torch.tensor(4.3588991))
    assert close(torch.norm(x, 'fro'), torch.tensor(4.3588991))
    assert close(torch.norm(x, 2), torch.tensor(4.3588991))
    assert close(torch.norm(x, 1), torch.tensor(9.0))
    assert close(torch.norm(x, 3.0), torch.tensor(3.5568933))
    assert close(torch.norm(x, None), torch.tensor(4.3588991))
    assert close(torch.norm(x, float('inf')), torch.tensor(3.0))
    assert close(torch.norm(x, 0), torch.tensor(5.0))
    assert close(x.norm(), torch.tensor(4.3588991))


def test_dim_int_and_list():
    x = torch.arange(6.0).reshape(2, 3)
    assert close(torch.norm(x, dim=1), torch.tensor([2.2360680, 7.0710678]))
    assert close(torch.norm(x, 'fro', 0), torch.tensor([3.0, 4.1231055, 5.3851647]))
    assert close(torch.norm(x, 'fro', [0], True), torch.tensor([[3.0, 4.1231055, 5.3851647]]))
    assert close(torch.norm(x, p=3.0, dim=1), torch.tensor([2.0800838, 6.0]))
    assert close(torch.norm(x, 1, [0, 1]), torch.tensor(15.0))
    assert close(torch.norm(x, 2, -1, keepdim=True), torch.tensor([[2.2360680], [7.0710678]]))
    d: List[int] = [1]
    assert close(torch.norm(x, dim=d), torch.tensor([2.2360680, 7.0710678]))


def test_keepdim_dtype_and_out_without_dim():
    x = torch.arange(6.0).reshape(2, 3)
    assert close(torch.norm(x, 1, keepdim=True), torch.tensor([[15.0]]))
    assert close(torch.norm(x, 'fro', keepdim=True), torch.tensor([[7.4161985]]))
    assert close(torch.norm(x, 2, dtype=torch.float64), torch.tensor(7.4161985, dtype=torch.float64))
    assert close(torch.norm(x, 2, 0, False, dtype=torch.float64),
                 torch.tensor([3.0, 4.1231055, 5.3851647], dtype=torch.float64))
    out = torch.empty(0)
    torch.norm(x, 2, 1, out=out)
    assert close(out, torch.tensor([2.2360680, 7.0710678]))
    out2 = torch.empty(0)
    torch.norm(x, 'fro', 0, out=out2)
    assert close(out2, torch.tensor([3.0, 4.1231055, 5.3851647]))


def norm_p(x: torch.Tensor, p: str) -> torch.Tensor:
    return torch.norm(x, p)


def norm_of(x: torch.Tensor, p: Optional[float], dim: Optional[List[int]]) -> torch.Tensor:
    return torch.norm(x, p, dim)


def test_arguments_known_at_run_time():
    x = torch.arange(6.0).reshape(2, 3)
    assert close(norm_p(x, 'fro'), torch.tensor(7.4161985))
    assert close(norm_of(x, 1.0, None), torch.tensor(15.0))
    assert close(norm_of(x, None, [1]), torch.tensor([2.2360680, 7.0710678]))
    assert close(norm_of(x, 1.0, [0]), torch.tensor([3.0, 5.0, 7.0]))


def test_integer_input_of_dtype():
    x = torch.tensor([3.0, 4.0])
    assert close(torch.norm(x, 2, 0, dtype=torch.float64), torch.tensor(5.0, dtype=torch.float64))


def err_unknown_str():
    return torch.norm(torch.ones(2, 2), 'bad')
    # raises: only valid string values are 'fro' and 'nuc', found bad


def err_unknown_str_at_run_time():
    return norm_p(torch.ones(2, 2), 'max')
    # raises: only valid string values are 'fro' and 'nuc', found max


def err_fro_dtype():
    return torch.norm(torch.ones(2, 2), 'fro', 0, dtype=torch.float64)
    # raises: dtype argument is not supported in frobenius norm


def err_nuc_dtype():
    return torch.norm(torch.ones(2, 2), 'nuc', [0, 1], dtype=torch.float64)
    # raises: dtype argument is not supported in nuclear norm


def err_dim_of_a_str():
    return torch.norm(torch.ones(2, 2), 2, 'x')
    # raises: Arguments for call are not valid.


if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
