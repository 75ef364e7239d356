# str_escapes — printed output checked by t/lang_print.sh against str_escapes.out (PyTorch 1.13):
# escapes of every kind, a NUL byte inside a literal, raw strings, and str in containers
# (printed without quotes or escaping).
def main():
    s = "a\0b"
    print(len(s), s, [s], s[1] == "\x00", s.split("\0"))
    print("\101\102\7|", "\x41\u00e9\U0001F600", len("\u00e9"), r"\n\t\0", len(r"\0"))
    print(["\x7f", "\x1b[0m", "a\rb", "\\n", 'it\'s', "q\"q", "\t"], ("\n", 1))
    print({"k\0": "v\0v"}, "tab\there", """multi
line""")
