a + b * c - d / e // f % g @ h
-x ** 2
2 ** -1
2 ** 3 ** 2
not a == b
a < b < c
a not in b
a is not None
a is b and c or d and not e
~a | b ^ c & d << e >> f
a if b else c if d else e
x.y.z(1, k=2, *args, **kw)
f(x for x in y)
(1 + 2) * 3
()
(1,)
(a, b, *c)
[]
[1, 2, [3]]
{}
{1: 2, "a": b}
{1, 2}
None, True, False, ...
-1
+x
1_000 + 0xff + 0o17 + 0b11 + 1.5e3 + 2j
