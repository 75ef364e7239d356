def f():
    pass
def g(x: int, y: List[int] = [1], z=None) -> Optional[int]:
    """docstring"""
    return x
def h(x, /, y, *, z: int = 3):
    return
def v(*args, **kwargs):
    pass
@torch.jit.script
def s(x):
    # type: (int) -> int
    return x
@torch.jit.export
@torch.jit.unused
def d(self, x):  # type: (Tensor) -> Tuple[int, str]
    return x
@staticmethod
def st():
    pass
def nested():
    def inner():
        return 1
    return inner()
async def a():
    await b()
def gen():
    yield 1
    yield from x
    y = yield
