#!/bin/sh
# complex_scalar.sh — the complex calls where PyTorch 1.13 fails (so t/complex_cases.py
# cannot hold them): `z / 2`, `z ** 2`, `2 ** z`, `z == 3` bind the Scalar overloads, whose
# kernels in PyTorch fail an internal assertion. tscript gives Python's results, and
# Python's TypeError for the orders (<, //, %); torch.tensor(z) says complex tensors are
# not supported.
builddir=${TS_BUILDDIR:-$(pwd)}
tmp=${TMPDIR:-/tmp}/complex_scalar.$$
trap 'rm -f "$tmp.py" "$tmp.out"' EXIT
cat >"$tmp.py" <<'PY'
def main():
    z = complex(3, 4)
    assert z / 2 == complex(1.5, 2) and z / 2.5 == complex(1.2, 1.6)
    assert z / 2.0 == complex(1.5, 2)
    assert abs(2 / z - complex(0.24, -0.32)) < 1e-15
    assert abs(2.5 / z - complex(0.3, -0.4)) < 1e-15
    assert z ** 2 == complex(-7, 24) and z ** 0 == complex(1, 0)
    assert abs(z ** -1 - complex(0.12, -0.16)) < 1e-15
    assert abs(2 ** z - complex(-7.461496614688569, 2.885492725513448)) < 1e-12
    assert not (z == 3) and z != 3 and complex(3, 0) == 3
    x = 1 + 0j
    print(z / 2, z ** 2, x == 1)
PY
n=0 failed=0
check() {   # check NAME EXPECTED-PHRASE [FUNCTION-BODY-LINE]
    n=$((n + 1))
    if [ $# -gt 2 ]; then
        printf 'import torch\ndef main():\n    z = complex(3, 4)\n    return %s\n' "$3" >"$tmp.py"
    fi
    "$builddir/tscript" run "$tmp.py" >"$tmp.out" 2>&1
    if grep -qF -- "$2" "$tmp.out"; then
        echo "ok $n - $1"
    else
        failed=$((failed + 1))
        echo "not ok $n - $1"
        sed 's/^/# /' "$tmp.out"
    fi
}
check "complex / int, ** int, == int: Python's results" "1.5+2.j -7.+24.j True"
check "complex < int is a TypeError" "'<' not supported between instances of 'complex' and 'int'" "z < 1"
check "complex < complex is a TypeError" "'>=' not supported between instances of 'complex' and 'complex'" "z >= z"
check "complex // int is a TypeError" "unsupported operand type(s) for //: 'complex' and 'int'" "z // 2"
check "int % complex is a TypeError" "unsupported operand type(s) for %: 'int' and 'complex'" "2 % z"
check "max of complex numbers is a TypeError" "'>' not supported between instances of 'complex' and 'complex'" "max(z, 2j)"
check "torch.tensor(z)" "complex tensors are not supported" "torch.tensor(z)"
echo "1..$n"
[ $failed -eq 0 ]
