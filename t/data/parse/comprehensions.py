[x * 2 for x in xs]
[x for x in xs if x > 0 if x < 9]
[x + y for x in xs for y in ys]
{k: v for k, v in d.items()}
{x for x in xs}
sum(x for x in xs)
(x for x in xs)
[(i, j) for i, j in zip(a, b)]
