class A:
    pass
class M(nn.Module):
    __constants__ = ["a", "b"]
    w: torch.Tensor

    def __init__(self):
        super().__init__()
        self.w = torch.zeros(3)

    @torch.jit.export
    def forward(self, x: Tensor) -> Tensor:
        return x + self.w
class P(NamedTuple):
    x: int
    y: float = 1.0
class Color(Enum):
    RED = 1
    GREEN = 2
class O(object):
    def __init__(self) -> None:
        self.x: int = 0
class K(Base, metaclass=Meta):
    pass
@dataclass
class D:
    pass
