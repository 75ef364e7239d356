# raises: undefined value undefined_in_init
# A class under @torch.jit.script compiles where Python defines it, before main runs: its
# error is the program's although main never uses the class, and nothing is printed.
import torch


def main():
    print("main runs")


@torch.jit.script
class Unused:
    def __init__(self):
        self.a = undefined_in_init  # noqa: F821
