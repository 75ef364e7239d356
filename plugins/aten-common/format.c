/* format.c — a tensor's text, exactly as TorchScript's print() shows it (the C++ format),
 * for every backend: the backend brings the elements to the host as doubles, this file
 * lays them out.
 *
 * Every element is read as a double. A vector or matrix (each 2-d slice of a bigger tensor)
 * picks one format for all its numbers from their magnitudes:
 *   - all whole numbers: plain integers (exponent form with 4 decimals past 10 digits);
 *   - otherwise fixed with 4 decimals, widened for up to 5 integer digits; a larger or
 *     smaller top magnitude prints a shared scale factor line ("0.01 *") and the numbers
 *     divided by it; a range of more than 4 orders of magnitude prints exponent form.
 * PyTorch keeps its output stream's state between slices, so a whole-number slice after a
 * fixed one prints with 4 significant digits ("1.235e+07"); Stream reproduces that state.
 * Its quirks are kept too: matrices wider than 80 columns print in blocks headed "Columns 1
 * to 8" with the first row on the same line, a scaled matrix's rows after the first get one
 * more leading space, and the largest magnitude is searched with a signed comparison.
 * 0-dim tensors print their value with 6 significant digits; the last line is the footer
 * "[ CPUFloatType{2,3} ]" ("CUDAFloatType" on cuda); a tensor with no elements prints the
 * footer alone.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tscript/aten.h"
#include "tscript/strbuf.h"

#define LINE_SIZE 80

typedef enum Notation { DEFAULT, FIXED, SCIENTIFIC } Notation;

/* The part of a C++ output stream's state the format depends on. */
typedef struct Stream {
    TsBuf *out;
    Notation notation;
    int precision;
} Stream;

static void put_number(Stream *s, double v, int width)
{
    char num[400];
    int p = s->precision;
    switch (s->notation) {
    case FIXED: snprintf(num, sizeof num, "%.*f", p, v); break;
    case SCIENTIFIC: snprintf(num, sizeof num, "%.*e", p, v); break;
    default: snprintf(num, sizeof num, "%.*g", p ? p : 1, v); break;
    }
    int len = (int)strlen(num);
    for (int k = len; k < width; k++)
        ts_buf_putc(s->out, ' ');
    ts_buf_add(s->out, num, (size_t)len);
}

static void put_indent(Stream *s, int indent)
{
    for (int k = 0; k < indent; k++)
        ts_buf_putc(s->out, ' ');
}

/* The number of digits before the point of |v| (1 for 0). */
static double digits(double v)
{
    return v != 0 ? floor(log10(v)) + 1 : 1;
}

/* Chooses the notation for n values (n > 0); returns the scale and sets the width. */
static double choose(Stream *s, const double *v, int64_t n, int *width)
{
    bool whole = true;
    for (int64_t i = 0; i < n && whole; i++)
        if (isfinite(v[i]) && v[i] != ceil(v[i]))
            whole = false;
    int64_t first = 0;
    while (first < n && !isfinite(v[first]))
        first++;
    double lo = 1, hi = 1;
    if (first < n) {
        lo = hi = fabs(v[first]);
        for (int64_t i = first; i < n; i++) {
            double z = fabs(v[i]);
            if (!isfinite(z))
                continue;
            if (z < lo)
                lo = z;
            if (v[i] > hi)         /* signed, as PyTorch compares */
                hi = z;
        }
        lo = digits(lo);
        hi = digits(hi);
    }
    double scale = 1;
    if (whole) {
        if (hi > 9) {
            *width = 11;
            s->notation = SCIENTIFIC;
            s->precision = 4;
        } else {
            *width = (int)hi + 1;
            s->notation = DEFAULT;
        }
    } else if (hi - lo > 4) {
        *width = fabs(hi) > 99 || fabs(lo) > 99 ? 12 : 11;
        s->notation = SCIENTIFIC;
        s->precision = 4;
    } else {
        if (hi > 5 || hi < 0) {
            *width = 7;
            scale = pow(10, hi - 1);
        } else {
            *width = hi == 0 ? 7 : (int)hi + 6;
        }
        s->notation = FIXED;
        s->precision = 4;
    }
    return scale;
}

/* The scale line: in the default notation, with the stream's state left as it was. */
static void put_scale(Stream *s, double scale)
{
    Stream tmp = *s;
    tmp.notation = DEFAULT;
    put_number(&tmp, scale, 0);
    ts_buf_puts(s->out, " *\n");
}

static void put_matrix(Stream *s, const double *v, int64_t rows, int64_t cols, int indent)
{
    int width;
    double scale = choose(s, v, rows * cols, &width);
    put_indent(s, indent);
    int64_t per_line = (LINE_SIZE - indent) / (width + 1);
    for (int64_t first = 0; first < cols;) {
        int64_t last = first + per_line <= cols ? first + per_line - 1 : cols - 1;
        if (per_line < cols) {
            if (first != 0)
                ts_buf_putc(s->out, '\n');
            ts_buf_printf(s->out, "Columns %lld to %lld", (long long)first + 1,
                          (long long)last + 1);
            put_indent(s, indent);
        }
        if (scale != 1) {
            put_scale(s, scale);
            put_indent(s, indent);
        }
        for (int64_t r = 0; r < rows; r++)
            for (int64_t c = first; c <= last; c++) {
                put_number(s, v[r * cols + c] / scale, width);
                if (c != last) {
                    ts_buf_putc(s->out, ' ');
                    continue;
                }
                ts_buf_putc(s->out, '\n');
                if (r != rows - 1) {
                    put_indent(s, indent);
                    if (scale != 1)
                        ts_buf_putc(s->out, ' ');
                }
            }
        first = last + 1;
    }
}

/* 2-d slices headed "(i,j,.,.) = ", the first index varying fastest. */
static void put_slices(Stream *s, const double *v, int dim, const int64_t *sizes)
{
    int outer = dim - 2;
    int64_t idx[TS_TENSOR_MAX_DIMS] = { 0 }, rows = sizes[dim - 2];
    int64_t cols = sizes[dim - 1], strides[TS_TENSOR_MAX_DIMS];
    ts_contiguous_strides(dim, sizes, strides);
    for (bool start = true;; start = false) {
        if (!start) {
            int d = 0;
            while (d < outer && ++idx[d] == sizes[d])
                idx[d++] = 0;
            if (d == outer)
                return;
            ts_buf_putc(s->out, '\n');
        }
        int64_t off = 0;
        ts_buf_putc(s->out, '(');
        for (int d = 0; d < outer; d++) {
            ts_buf_printf(s->out, "%lld,", (long long)idx[d] + 1);
            off += idx[d] * strides[d];
        }
        ts_buf_puts(s->out, ".,.) = \n");
        put_matrix(s, v + off, rows, cols, 1);
    }
}

int ts_aten_format_values(const double *v, int dim, const int64_t *sizes, int dtype,
                          const char *backend, TsBuf *out, TsError *err)
{
    const char *type = ts_dtype_type_name(dtype);
    if (ts_aten_promote_types(dtype, dtype) < 0 || !type)
        return ts_error_set(err, TS_ERR_RUNTIME, "cannot print a tensor of dtype %s",
                            type ? type : "?");
    int64_t n = 1;
    for (int d = 0; d < dim; d++)
        n *= sizes[d];
    Stream s = { out, DEFAULT, 6 };
    if (dim == 0) {
        put_number(&s, v[0], 0);
        ts_buf_putc(out, '\n');
    } else if (n > 0 && dim == 1) {
        int width;
        double scale = choose(&s, v, n, &width);
        if (scale != 1)
            put_scale(&s, scale);
        for (int64_t i = 0; i < n; i++) {
            put_number(&s, v[i] / scale, width);
            ts_buf_putc(out, '\n');
        }
    } else if (n > 0 && dim == 2) {
        put_matrix(&s, v, sizes[0], sizes[1], 0);
    } else if (n > 0) {
        put_slices(&s, v, dim, sizes);
    }
    ts_buf_printf(out, "[ %s%sType{", backend, type);
    for (int d = 0; d < dim; d++)
        ts_buf_printf(out, "%s%lld", d ? "," : "", (long long)sizes[d]);
    ts_buf_puts(out, "} ]");
    return ts_buf_check(out, err);
}
