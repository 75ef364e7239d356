# raises: undefined value undefined_in_helper
# Decorated functions and classes compile in the file's order at import, before main is
# compiled: the decorated helper's error comes before main's own.
import torch


@torch.jit.script
def helper(x: int) -> int:
    return x + undefined_in_helper  # noqa: F821


def main():
    print(undefined_in_main)  # noqa: F821
