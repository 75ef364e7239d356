try:
    pass
except ValueError as e:
    pass
except:
    pass
else:
    pass
finally:
    pass
try:
    pass
finally:
    pass
f = lambda x, y=1: x + y
g = lambda: 0
nonlocal n
if (n := 10) > 5:
    pass
async def co():
    async with a as b:
        pass
    async for x in y:
        pass
