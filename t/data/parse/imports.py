import torch
import torch.nn as nn
import torch.nn.functional as F
import math, os.path
from typing import List, Dict, Optional, Tuple, Union, Any, NamedTuple
from collections import namedtuple
from enum import Enum
from torch import Tensor, nn
from . import sibling
from ..pkg.mod import (a as b, c,)
from x import *
N = 4
if __name__ == "__main__":
    main()
