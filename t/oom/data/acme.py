# acme.py — run with the vendor example's config by the allocation-failure sweep
# (t/oom/cases.sh): calls the acme plugin's operators, so its loading, registration and
# kernels are swept with the standard plugins'.
import torch


def main():
    x = torch.arange(4, dtype=torch.float32)
    print(torch.ops.acme.saxpy(x, torch.ones(4), 2.0), torch.ops.acme.clamp_int(42, 0, 10))
