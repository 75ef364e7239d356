a = b = c
a, (b, c) = f()
a, *b = c
x[0] = y.z = 1
x: int = 3
y: List[int]
x += 1
x -= 1; x *= 2; x /= 3
x //= 2
x **= 2
x @= y
x <<= 1
x |= 1
del a[0], b.c
pass
print("hi", 1)
assert x, "message"
assert x
raise ValueError("bad")
raise
raise E from None
global g, h
if a:
    pass
elif b:
    pass
else:
    return 1
while x < 3:
    x += 1
    if x:
        break
    continue
while x:
    pass
else:
    pass
for i in range(10):
    pass
for a, b in zip(x, y):
    pass
for i, (a, b) in enumerate(z):
    pass
for x in 1, 2:
    pass
with torch.no_grad():
    pass
with a as b, c() as (d, e):
    pass
if x: y = 1; z = 2
