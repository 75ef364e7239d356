/* cpu_print.t — the cpu backend's tensor printer (plugins/aten-cpu/format.c) against the
 * text PyTorch 1.13's TorchScript print() gives for the same tensors: scale factors,
 * exponent form, whole numbers, footers, 0-dim and empty tensors, slices of 3-d and 4-d
 * tensors, column blocks of wide matrices, every dtype, and a strided view. The expected
 * strings were generated with torch.jit.script functions that print each tensor.
 */
#include <stdio.h>
#include <string.h>

#include "kernel.h"

typedef struct PrintCase {
    int dtype, dim;
    int64_t sizes[4];
    double values[40];
    int n;
    const char *want;
} PrintCase;

/* generated from PyTorch 1.13 (torch.jit.script print) */
static const PrintCase print_cases[] = {
    { TS_FLOAT32, 1, { 3 }, { 0.01, 0.02, 0.035 }, 3,
      "0.01 *\n"
      " 1.0000\n"
      " 2.0000\n"
      " 3.5000\n"
      "[ CPUFloatType{3} ]" },
    { TS_FLOAT32, 2, { 2, 2 }, { 0.001, 0.0025, 0.004, 0.0051 }, 4,
      "0.001 *\n"
      " 1.0000  2.5000\n"
      "  4.0000  5.1000\n"
      "[ CPUFloatType{2,2} ]" },
    { TS_FLOAT32, 1, { 3 }, { 1e-08, 2e-08, 5e-08 }, 3,
      "1e-08 *\n"
      " 1.0000\n"
      " 2.0000\n"
      " 5.0000\n"
      "[ CPUFloatType{3} ]" },
    { TS_FLOAT32, 1, { 2 }, { -0.03, 0.015 }, 2,
      "0.01 *\n"
      "-3.0000\n"
      " 1.5000\n"
      "[ CPUFloatType{2} ]" },
    { TS_FLOAT32, 1, { 3 }, { 1000.0, 2500.0, 3000.5 }, 3,
      " 1000.0000\n"
      " 2500.0000\n"
      " 3000.5000\n"
      "[ CPUFloatType{3} ]" },
    { TS_FLOAT32, 1, { 2 }, { 100000.0, 200000.0 }, 2,
      " 100000\n"
      " 200000\n"
      "[ CPUFloatType{2} ]" },
    { TS_FLOAT32, 2, { 2, 2 }, { 12345.0, 2.0, 3.0, 4.0 }, 4,
      " 12345      2\n"
      "     3      4\n"
      "[ CPUFloatType{2,2} ]" },
    { TS_FLOAT32, 2, { 2, 3 }, { 0.0, 0.001, 0.002, 0.003, 0.004, 0.005 }, 6,
      "0.001 *\n"
      " 0.0000  1.0000  2.0000\n"
      "  3.0000  4.0000  5.0000\n"
      "[ CPUFloatType{2,3} ]" },
    { TS_FLOAT32, 2, { 2, 3 }, { 1.5, -2.25, 3.0, 4.0, 5.0, 6.0 }, 6,
      " 1.5000 -2.2500  3.0000\n"
      " 4.0000  5.0000  6.0000\n"
      "[ CPUFloatType{2,3} ]" },
    { TS_FLOAT32, 1, { 3 }, { 1.0, 2.0, 3.0 }, 3,
      " 1\n"
      " 2\n"
      " 3\n"
      "[ CPUFloatType{3} ]" },
    { TS_FLOAT32, 1, { 4 }, { -0.0, 1.0, INFINITY, NAN }, 4,
      "-0\n"
      " 1\n"
      "inf\n"
      "nan\n"
      "[ CPUFloatType{4} ]" },
    { TS_FLOAT32, 1, { 3 }, { NAN, -INFINITY, INFINITY }, 3,
      "nan\n"
      "-inf\n"
      "inf\n"
      "[ CPUFloatType{3} ]" },
    { TS_FLOAT32, 1, { 2 }, { 1e+20, 1.0 }, 2,
      " 1.0000e+20\n"
      " 1.0000e+00\n"
      "[ CPUFloatType{2} ]" },
    { TS_FLOAT32, 1, { 3 }, { 1e-05, 1.0, 123.456 }, 3,
      " 1.0000e-05\n"
      " 1.0000e+00\n"
      " 1.2346e+02\n"
      "[ CPUFloatType{3} ]" },
    { TS_FLOAT32, 1, { 2 }, { 1e+30, 2.5 }, 2,
      " 1.0000e+30\n"
      " 2.5000e+00\n"
      "[ CPUFloatType{2} ]" },
    { TS_FLOAT64, 1, { 3 }, { 1e-300, 1.0, 1e+300 }, 3,
      " 1.0000e-300\n"
      "  1.0000e+00\n"
      " 1.0000e+300\n"
      "[ CPUDoubleType{3} ]" },
    { TS_FLOAT32, 1, { 0 }, { 0 }, 0,
      "[ CPUFloatType{0} ]" },
    { TS_FLOAT32, 2, { 2, 0 }, { 0 }, 0,
      "[ CPUFloatType{2,0} ]" },
    { TS_INT64, 2, { 0, 3 }, { 0 }, 0,
      "[ CPULongType{0,3} ]" },
    { TS_FLOAT32, 0, { 0 }, { 3.5 }, 1,
      "3.5\n"
      "[ CPUFloatType{} ]" },
    { TS_FLOAT32, 0, { 0 }, { -0.001 }, 1,
      "-0.001\n"
      "[ CPUFloatType{} ]" },
    { TS_FLOAT32, 0, { 0 }, { 12345.678 }, 1,
      "12345.7\n"
      "[ CPUFloatType{} ]" },
    { TS_FLOAT32, 0, { 0 }, { 1e+20 }, 1,
      "1e+20\n"
      "[ CPUFloatType{} ]" },
    { TS_FLOAT32, 0, { 0 }, { -0.0 }, 1,
      "-0\n"
      "[ CPUFloatType{} ]" },
    { TS_FLOAT64, 0, { 0 }, { 2.0 }, 1,
      "2\n"
      "[ CPUDoubleType{} ]" },
    { TS_INT32, 0, { 0 }, { -3.0 }, 1,
      "-3\n"
      "[ CPUIntType{} ]" },
    { TS_INT64, 0, { 0 }, { 12345678.0 }, 1,
      "1.23457e+07\n"
      "[ CPULongType{} ]" },
    { TS_BOOL, 0, { 0 }, { 1.0 }, 1,
      "1\n"
      "[ CPUBoolType{} ]" },
    { TS_INT64, 1, { 5 }, { 1.0, -2.0, 30.0, 400.0, 5000.0 }, 5,
      "    1\n"
      "   -2\n"
      "   30\n"
      "  400\n"
      " 5000\n"
      "[ CPULongType{5} ]" },
    { TS_INT64, 1, { 2 }, { 10000000000.0, 1.0 }, 2,
      " 1.0000e+10\n"
      " 1.0000e+00\n"
      "[ CPULongType{2} ]" },
    { TS_INT64, 2, { 2, 2 }, { 1.0, -1.0, 0.0, 7.0 }, 4,
      " 1 -1\n"
      " 0  7\n"
      "[ CPULongType{2,2} ]" },
    { TS_INT8, 1, { 3 }, { -128.0, 0.0, 127.0 }, 3,
      "-128\n"
      "   0\n"
      " 127\n"
      "[ CPUCharType{3} ]" },
    { TS_UINT8, 1, { 2 }, { 0.0, 255.0 }, 2,
      "   0\n"
      " 255\n"
      "[ CPUByteType{2} ]" },
    { TS_INT16, 1, { 1 }, { 7.0 }, 1,
      " 7\n"
      "[ CPUShortType{1} ]" },
    { TS_BOOL, 1, { 3 }, { 1.0, 0.0, 1.0 }, 3,
      " 1\n"
      " 0\n"
      " 1\n"
      "[ CPUBoolType{3} ]" },
    { TS_BOOL, 2, { 2, 2 }, { 1.0, 0.0, 0.0, 1.0 }, 4,
      " 1  0\n"
      " 0  1\n"
      "[ CPUBoolType{2,2} ]" },
    { TS_FLOAT16, 1, { 3 }, { 0.5, 1.0, 1.5 }, 3,
      " 0.5000\n"
      " 1.0000\n"
      " 1.5000\n"
      "[ CPUHalfType{3} ]" },
    { TS_BFLOAT16, 1, { 2 }, { 1.0, 3.0 }, 2,
      " 1\n"
      " 3\n"
      "[ CPUBFloat16Type{2} ]" },
    { TS_FLOAT16, 0, { 0 }, { 0.1 }, 1,
      "0.0999756\n"
      "[ CPUHalfType{} ]" },
    { TS_FLOAT32, 3, { 2, 3, 4 }, { 0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 5.5, 6.0, 6.5, 7.0, 7.5, 8.0, 8.5, 9.0, 9.5, 10.0, 10.5, 11.0, 11.5 }, 24,
      "(1,.,.) = \n"
      "  0.0000  0.5000  1.0000  1.5000\n"
      "  2.0000  2.5000  3.0000  3.5000\n"
      "  4.0000  4.5000  5.0000  5.5000\n"
      "\n"
      "(2,.,.) = \n"
      "   6.0000   6.5000   7.0000   7.5000\n"
      "   8.0000   8.5000   9.0000   9.5000\n"
      "  10.0000  10.5000  11.0000  11.5000\n"
      "[ CPUFloatType{2,3,4} ]" },
    { TS_INT64, 3, { 2, 3, 4 }, { 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0 }, 24,
      "(1,.,.) = \n"
      "   0   1   2   3\n"
      "   4   5   6   7\n"
      "   8   9  10  11\n"
      "\n"
      "(2,.,.) = \n"
      "  12  13  14  15\n"
      "  16  17  18  19\n"
      "  20  21  22  23\n"
      "[ CPULongType{2,3,4} ]" },
    { TS_FLOAT32, 4, { 2, 2, 1, 2 }, { 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0 }, 8,
      "(1,1,.,.) = \n"
      "  0  1\n"
      "\n"
      "(2,1,.,.) = \n"
      "  4  5\n"
      "\n"
      "(1,2,.,.) = \n"
      "  2  3\n"
      "\n"
      "(2,2,.,.) = \n"
      "  6  7\n"
      "[ CPUFloatType{2,2,1,2} ]" },
    { TS_FLOAT32, 3, { 1, 3, 1 }, { 0.0, 0.001, 0.002 }, 3,
      "(1,.,.) = \n"
      " 0.001 *\n"
      "  0.0000\n"
      "   1.0000\n"
      "   2.0000\n"
      "[ CPUFloatType{1,3,1} ]" },
    { TS_FLOAT32, 3, { 2, 1, 2 }, { 1.5, 2.0, 12345678.0, 1.0 }, 4,
      "(1,.,.) = \n"
      "  1.5000  2.0000\n"
      "\n"
      "(2,.,.) = \n"
      " 1.235e+07         1\n"
      "[ CPUFloatType{2,1,2} ]" },
    { TS_FLOAT32, 2, { 2, 15 }, { 0.0, 1.5, 3.0, 4.5, 6.0, 7.5, 9.0, 10.5, 12.0, 13.5, 15.0, 16.5, 18.0, 19.5, 21.0, 22.5, 24.0, 25.5, 27.0, 28.5, 30.0, 31.5, 33.0, 34.5, 36.0, 37.5, 39.0, 40.5, 42.0, 43.5 }, 30,
      "Columns 1 to 8  0.0000   1.5000   3.0000   4.5000   6.0000   7.5000   9.0000  10.5000\n"
      " 22.5000  24.0000  25.5000  27.0000  28.5000  30.0000  31.5000  33.0000\n"
      "\n"
      "Columns 9 to 15 12.0000  13.5000  15.0000  16.5000  18.0000  19.5000  21.0000\n"
      " 34.5000  36.0000  37.5000  39.0000  40.5000  42.0000  43.5000\n"
      "[ CPUFloatType{2,15} ]" },
    { TS_FLOAT32, 2, { 2, 15 }, { 0.0, 0.001, 0.002, 0.003, 0.004, 0.005, 0.006, 0.007, 0.008, 0.009000000000000001, 0.01, 0.011, 0.012, 0.013000000000000001, 0.014, 0.015, 0.016, 0.017, 0.018000000000000002, 0.019, 0.02, 0.021, 0.022, 0.023, 0.024, 0.025, 0.026000000000000002, 0.027, 0.028, 0.029 }, 30,
      "Columns 1 to 100.01 *\n"
      " 0.0000  0.1000  0.2000  0.3000  0.4000  0.5000  0.6000  0.7000  0.8000  0.9000\n"
      "  1.5000  1.6000  1.7000  1.8000  1.9000  2.0000  2.1000  2.2000  2.3000  2.4000\n"
      "\n"
      "Columns 11 to 150.01 *\n"
      " 1.0000  1.1000  1.2000  1.3000  1.4000\n"
      "  2.5000  2.6000  2.7000  2.8000  2.9000\n"
      "[ CPUFloatType{2,15} ]" },
    { TS_FLOAT64, 2, { 2, 20 }, { 0.5, 1000000.5, 2000000.5, 3000000.5, 4000000.5, 5000000.5, 6000000.5, 7000000.5, 8000000.5, 9000000.5, 10000000.5, 11000000.5, 12000000.5, 13000000.5, 14000000.5, 15000000.5, 16000000.5, 17000000.5, 18000000.5, 19000000.5, 20000000.5, 21000000.5, 22000000.5, 23000000.5, 24000000.5, 25000000.5, 26000000.5, 27000000.5, 28000000.5, 29000000.5, 30000000.5, 31000000.5, 32000000.5, 33000000.5, 34000000.5, 35000000.5, 36000000.5, 37000000.5, 38000000.5, 39000000.5 }, 40,
      "Columns 1 to 6 5.0000e-01  1.0000e+06  2.0000e+06  3.0000e+06  4.0000e+06  5.0000e+06\n"
      " 2.0000e+07  2.1000e+07  2.2000e+07  2.3000e+07  2.4000e+07  2.5000e+07\n"
      "\n"
      "Columns 7 to 12 6.0000e+06  7.0000e+06  8.0000e+06  9.0000e+06  1.0000e+07  1.1000e+07\n"
      " 2.6000e+07  2.7000e+07  2.8000e+07  2.9000e+07  3.0000e+07  3.1000e+07\n"
      "\n"
      "Columns 13 to 18 1.2000e+07  1.3000e+07  1.4000e+07  1.5000e+07  1.6000e+07  1.7000e+07\n"
      " 3.2000e+07  3.3000e+07  3.4000e+07  3.5000e+07  3.6000e+07  3.7000e+07\n"
      "\n"
      "Columns 19 to 20 1.8000e+07  1.9000e+07\n"
      " 3.8000e+07  3.9000e+07\n"
      "[ CPUDoubleType{2,20} ]" },
    { TS_FLOAT32, 3, { 1, 2, 3 }, { -0.001, 0.002, 0.003, 4.0, 5.0, 6.0 }, 6,
      "(1,.,.) = \n"
      " -0.0010  0.0020  0.0030\n"
      "  4.0000  5.0000  6.0000\n"
      "[ CPUFloatType{1,2,3} ]" },
    { TS_FLOAT32, 1, { 3 }, { 1234567.0, 2.0, 3.0 }, 3,
      "1.23457e+06\n"
      "       2\n"
      "       3\n"
      "[ CPUFloatType{3} ]" },
    { TS_FLOAT32, 1, { 3 }, { -5.0, 0.25, 100.0 }, 3,
      "  -5.0000\n"
      "   0.2500\n"
      " 100.0000\n"
      "[ CPUFloatType{3} ]" },
    { TS_FLOAT32, 1, { 2 }, { -100.0, 5.5 }, 2,
      "-100.0000\n"
      "   5.5000\n"
      "[ CPUFloatType{2} ]" },
};

/* A float64 tensor with the values, converted to dtype by aten::to (NULL on failure). */
static TsTensor *make(int dtype, int dim, const int64_t *sizes, const double *values, int n)
{
    TsError err = TS_ERROR_INIT;
    TsDevice cpu = { TS_DEV_CPU, -1 };
    TsTensor *t = ts_tensor_empty(ts_runtime_allocator(kt_rt, TS_DEV_CPU), cpu, TS_FLOAT64,
                                  dim, sizes, &err);
    if (!t) {
        diag("%s", err.msg);
        ts_error_clear(&err);
        return NULL;
    }
    if (n)
        memcpy(ts_tensor_data(t), values, (size_t)n * sizeof(double));
    TsValue args[5] = { ts_obj_value(t, TS_TAG_TENSOR), ts_int(dtype), ts_bool(false),
                        ts_bool(false), ts_none() };
    TsValue r;
    if (kt_call("aten::to", "dtype", "cpu", 5, args, &r, &err)) {
        diag("aten::to: %s", err.msg ? err.msg : "?");
        ts_error_clear(&err);
        return NULL;
    }
    return (TsTensor *)r.u.p;
}

/* The printer's text for t (taking t's reference); NULL on failure. */
static char *format(TsTensor *t)
{
    TsError err = TS_ERROR_INIT;
    TsValue r, arg = ts_obj_value(t, TS_TAG_TENSOR);
    if (kt_call("tscript::format_tensor", "", "cpu", 1, &arg, &r, &err)) {
        diag("format_tensor: %s", err.msg ? err.msg : "?");
        ts_error_clear(&err);
        return NULL;
    }
    char *s = r.tag == TS_TAG_STR ? strdup(((TsStr *)r.u.p)->data) : NULL;
    ts_value_release(r);
    return s;
}

static void test_cases(void)
{
    for (size_t i = 0; i < sizeof print_cases / sizeof print_cases[0]; i++) {
        const PrintCase *pc = &print_cases[i];
        TsTensor *t = make(pc->dtype, pc->dim, pc->sizes, pc->values, pc->n);
        char *got = t ? format(t) : NULL;
        is_str(got, pc->want, "case %zu: %s tensor of %d dims prints as PyTorch's", i,
               ts_dtype_name(pc->dtype), pc->dim);
        free(got);
    }
}

static void test_view(void)
{
    static const double v[] = { 1.5, -2.25, 3, 4, 5, 6 };
    TsTensor *t = make(TS_FLOAT32, 2, (int64_t[]){ 2, 3 }, v, 6);
    TsError err = TS_ERROR_INIT;
    TsValue r = ts_none();
    if (t && kt_call("aten::t", "", "cpu", 1, (TsValue[]){ ts_obj_value(t, TS_TAG_TENSOR) }, &r,
                     &err))
        diag("aten::t: %s", err.msg ? err.msg : "?");
    ts_error_clear(&err);
    char *got = r.tag == TS_TAG_TENSOR ? format((TsTensor *)r.u.p) : NULL;
    is_str(got, " 1.5000  4.0000\n-2.2500  5.0000\n 3.0000  6.0000\n[ CPUFloatType{3,2} ]",
           "a transposed view prints in its logical order");
    free(got);
}

int main(void)
{
    if (!kt_open())
        return done_testing();
    test_cases();
    test_view();
    ts_runtime_close(kt_rt);
    return done_testing();
}
