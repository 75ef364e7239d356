# expect: error expected an expression
# A lone carriage return ends the file: the error is at the end, past the line's text once
# the \r is stripped, and the excerpt's marker width wrapped around (found by
# t/fuzz/emit_fuzz: a hang printing ~ until out of memory).
+