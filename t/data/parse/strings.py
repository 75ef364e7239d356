s = 'a' "b" '''c''' """d"""
s = "tab\tnl\n\"q\" \\ \x41"
s = r"raw\n"
s = 'x' 'y'
s = f"x={x}"
s = f"{a}{b}" f"c{d!r}"
s = f"{x:>3}"
s = f"{{x}} {y}"
s = "p" f"{q}"
s = f'{d["k"]}'
s = b"bytes"
s = u"unicode"
