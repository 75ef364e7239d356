# raises: TorchScript classes does not support inheritance yet. Please directly inherit from 'object'.
# torch.jit.script refuses a class with a base other than object when it decorates it,
# before compiling anything (an undecorated subclass compiles where main uses it).
import torch


class Base:
    def __init__(self):
        self.x = 1


@torch.jit.script
class Plain(object):
    def __init__(self):
        self.x = 2


@torch.jit.script
class Derived(Base):
    def __init__(self):
        self.x = 3


def main():
    print(Plain().x, Derived().x)
