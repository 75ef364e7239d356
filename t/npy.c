/* npy.c — tests of core/serialize/npy.c: .npy files NumPy wrote read as the same tensors
 * (committed files, and every dtype, byte order and layout made by python3-numpy at test
 * time when it is installed), tensors written here read by np.load, and malformed headers
 * refused with a message (never a crash, never a read past the data).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pickle_env.h"
#include "serialize/npy.h"
#include "serialize_util.h"

/* The canonical text of a tensor read from path, or the error. */
static char *read_canon(const char *path, char **error)
{
    size_t size;
    unsigned char *b = slurp(path, &size);
    TsError err = TS_ERROR_INIT;
    TsTensor *t = b ? ts_npy_read(path, b, size, &err) : NULL;
    free(b);
    if (!t) {
        *error = err.msg ? err.msg : strdup("cannot read the file");
        return NULL;
    }
    char *text = canon_text(ts_obj_value(t, TS_TAG_TENSOR));
    ts_tensor_release(t);
    return text;
}

/* Every file of dir/expected.txt reads as the tensor the line says. */
static void check_cases(const char *dir, const char *what)
{
    char path[4608], line[4096];
    snprintf(path, sizeof path, "%s/expected.txt", dir);
    FILE *f = fopen(path, "r");
    int n = 0, good = 0;
    while (f && fgets(line, sizeof line, f)) {
        char *tab = strchr(line, '\t');
        if (!tab)
            continue;
        *tab = '\0';
        tab[1 + strcspn(tab + 1, "\n")] = '\0';
        snprintf(path, sizeof path, "%s/%s", dir, line);
        char *error = NULL, *got = read_canon(path, &error);
        n++;
        if (got && strcmp(got, tab + 1) == 0)
            good++;
        else
            diag("%s: got %s\n#   want %s", line, got ? got : error, tab + 1);
        free(got);
        free(error);
    }
    if (f)
        fclose(f);
    ok(n > 0 && good == n, "%s: %d of %d files read as the tensors NumPy saved", what, good, n);
}

/* ---- writing ------------------------------------------------------------------------- */

static TsTensor *filled(int dtype, int dim, const int64_t *sizes)
{
    TsTensor *t = ts_tensor_empty(&host, (TsDevice){TS_DEV_CPU, -1}, dtype, dim, sizes, NULL);
    unsigned char *d = ts_tensor_data(t);
    for (size_t i = 0; i < t->storage->nbytes; i++)
        d[i] = dtype == TS_BOOL ? (unsigned char)(i % 3 == 0) : (unsigned char)(i * 13 + 5);
    return t;
}

static void test_write(const char *dir)
{
    static const struct {
        int dtype, dim;
        int64_t sizes[3];
    } shapes[] = {
        {TS_FLOAT32, 2, {2, 3}}, {TS_INT64, 1, {5}}, {TS_BOOL, 1, {4}},
        {TS_COMPLEX128, 0, {0}}, {TS_FLOAT16, 2, {0, 3}}, {TS_INT8, 3, {2, 1, 2}},
        {TS_UINT8, 1, {1}}, {TS_INT16, 1, {3}}, {TS_INT32, 2, {1, 1}},
        {TS_FLOAT64, 1, {2}}, {TS_COMPLEX64, 1, {2}},
    };
    enum { N = sizeof shapes / sizeof *shapes };
    char *want[N], paths[N][512], cmd[8192];
    int round = 0, aligned = 0;
    size_t at = (size_t)snprintf(cmd, sizeof cmd, "%s %s/npy_cases.py --canon",
                                 python_with("numpy") ? python_with("numpy") : "python3",
                                 DATA_DIR);
    for (int i = 0; i < N; i++) {
        TsTensor *t = filled(shapes[i].dtype, shapes[i].dim, shapes[i].sizes);
        TsBuf b = TS_BUF_INIT;
        TsError err = TS_ERROR_INIT;
        want[i] = canon_text(ts_obj_value(t, TS_TAG_TENSOR));
        snprintf(paths[i], sizeof paths[i], "%s/w%d.npy", dir, i);
        if (ts_npy_write(t, &b, &err) == 0 && spit(paths[i], b.p, b.len) == 0) {
            size_t hlen = (unsigned char)b.p[8] | (unsigned char)b.p[9] << 8;
            aligned += (10 + hlen) % 64 == 0;
            char *error = NULL, *got = read_canon(paths[i], &error);
            round += got && strcmp(got, want[i]) == 0;
            free(got);
            free(error);
        } else {
            diag("%s", err.msg);
            ts_error_clear(&err);
        }
        at += (size_t)snprintf(cmd + at, sizeof cmd - at, " '%s'", paths[i]);
        ts_buf_free(&b);
        ts_tensor_release(t);
    }
    is_int(round, N, "tensors of every dtype written read back the same");
    is_int(aligned, N, "their data starts on a 64-byte boundary, as numpy writes it");
    if (!python_with("numpy")) {
        skip("python3 with numpy is not installed", "np.load reads what is written");
    } else {
        char *out = NULL;
        snprintf(cmd + at, sizeof cmd - at, " 2>&1");
        int rc = run(cmd, &out), same = 0;
        char *line = out;
        for (int i = 0; i < N && line && rc == 0; i++) {
            char *nl = strchr(line, '\n');
            if (nl)
                *nl = '\0';
            same += strcmp(line, want[i]) == 0;
            if (strcmp(line, want[i]) != 0)
                diag("np.load of %s: %s\n#   want %s", paths[i], line, want[i]);
            line = nl ? nl + 1 : NULL;
        }
        if (!is_int(same, N, "np.load reads each as the same array"))
            diag("%s", out);
        free(out);
    }
    for (int i = 0; i < N; i++)
        free(want[i]);

    TsError err = TS_ERROR_INIT;
    TsBuf b = TS_BUF_INIT;
    TsTensor *bf = filled(TS_BFLOAT16, 1, (int64_t[]){2});
    ok(ts_npy_write(bf, &b, &err) != 0, "a bfloat16 tensor is refused");
    like(err.msg, "a tensor of dtype bfloat16 has no .npy dtype", "saying so");
    ts_error_clear(&err);
    TsTensor *m = filled(TS_FLOAT32, 2, (int64_t[]){2, 3});
    TsTensor *tr = ts_tensor_new(m->storage, TS_FLOAT32, 2, (int64_t[]){3, 2}, (int64_t[]){1, 3},
                                 0, NULL);
    ok(ts_npy_write(tr, &b, &err) != 0, "a non-contiguous tensor is refused");
    like(err.msg, "needs a contiguous CPU tensor", "saying so");
    ts_error_clear(&err);
    ts_tensor_release(bf);
    ts_tensor_release(m);
    ts_tensor_release(tr);
    ts_buf_free(&b);
}

/* ---- hostile files ------------------------------------------------------------------- */
/* A version 1.0 file with this header text (padded as numpy pads) and data_len bytes. */
static unsigned char *npy_file(const char *header, size_t data_len, size_t *size)
{
    size_t hlen = strlen(header) + 1;
    while ((10 + hlen) % 64)
        hlen++;
    *size = 10 + hlen + data_len;
    unsigned char *b = calloc(1, *size);
    memcpy(b, "\x93NUMPY\x01\x00", 8);
    b[8] = (unsigned char)hlen;
    b[9] = (unsigned char)(hlen >> 8);
    memset(b + 10, ' ', hlen - 1);
    memcpy(b + 10, header, strlen(header));
    b[10 + hlen - 1] = '\n';
    return b;
}

static void refused(const unsigned char *b, size_t size, const char *want, const char *what)
{
    TsError err = TS_ERROR_INIT;
    TsTensor *t = ts_npy_read("bad.npy", b, size, &err);
    if (!ok(t == NULL, "%s: refused", what))
        ts_tensor_release(t);
    like(err.msg, want, "%s: says so", what);
    ts_error_clear(&err);
}

static void test_hostile(void)
{
    static const struct {
        const char *header;
        size_t data;
        const char *want, *what;
    } cases[] = {
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", 8, NULL, "a good file"},
        {"{'descr': '<U3', 'fortran_order': False, 'shape': (1,), }", 12,
         "bad.npy: dtype '<U3' has no tensor dtype", "a str array"},
        {"{'descr': '|O', 'fortran_order': False, 'shape': (1,), }", 8,
         "dtype '|O' has no tensor dtype", "an object array (a pickle inside)"},
        {"{'descr': '<u2', 'fortran_order': False, 'shape': (1,), }", 2,
         "dtype '<u2' has no tensor dtype", "uint16"},
        {"{'descr': '|f4', 'fortran_order': False, 'shape': (1,), }", 4,
         "dtype '|f4' has no tensor dtype", "a 4-byte dtype without a byte order"},
        {"{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }", 4,
         "a string was expected", "a structured array"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", 8,
         "the shape needs 12 bytes of data, the file has 8", "data shorter than the shape"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", 8,
         "the shape needs 4 bytes of data, the file has 8", "data longer than the shape"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387904, 4), }", 0,
         "the shape's element count overflows", "an element count past 2^63"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (2305843009213693952, 2), }", 0,
         "the shape's byte size overflows", "a byte size past 2^63"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1048576, 1048576), }", 16,
         "the shape needs 4398046511104 bytes of data, the file has 16",
         "a 4 TB shape over 16 bytes (refused before allocating)"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }", 0,
         "a dimension does not fit in 64 bits", "a dimension past 64 bits"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }", 0,
         "the shape holds something other than sizes", "a negative dimension"},
        {"{'descr': '<f4', 'fortran_order': False, }", 0,
         "the header lacks descr, fortran_order or shape", "no shape"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (), 'x': 1, }", 4,
         "an unknown or repeated key", "an extra key"},
        {"{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (), }", 4,
         "an unknown or repeated key", "a key twice"},
        {"{'descr': '<f4', 'fortran_order': 0, 'shape': (), }", 4,
         "fortran_order is not a bool", "fortran_order of 0"},
        {"['descr', '<f4']", 4, "the header is not a dict", "a list for a header"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': () } x", 4,
         "text after the header dict", "text after the dict"},
        {"{'descr': '<f4' 'fortran_order': False, 'shape': () }", 4,
         "the header dict is not closed", "a missing comma"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1 2), }", 4,
         "the shape is not a tuple", "sizes without a comma"},
        {"{'descr': 'f4\\', 'fortran_order': False, 'shape': (), }", 4, "a bad string",
         "a backslash in a string"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        size_t size;
        unsigned char *b = npy_file(cases[i].header, cases[i].data, &size);
        if (cases[i].want) {
            refused(b, size, cases[i].want, cases[i].what);
        } else {
            TsError err = TS_ERROR_INIT;
            TsTensor *t = ts_npy_read("good.npy", b, size, &err);
            ok(t != NULL, "%s reads", cases[i].what);
            if (t)
                ts_tensor_release(t);
            /* cut at every length: an error each time */
            int errors = 0;
            for (size_t n = 0; n < size; n++) {
                TsTensor *c = ts_npy_read("cut.npy", b, n, &err);
                errors += c == NULL && err.msg != NULL;
                if (c)
                    ts_tensor_release(c);
                ts_error_clear(&err);
            }
            is_int(errors, size, "the file cut at each of its %zu lengths is refused", size);
        }
        free(b);
    }
    char dims[512] = "{'descr': '<f4', 'fortran_order': False, 'shape': (";
    for (int i = 0; i < 65; i++)
        strcat(dims, "1,");
    strcat(dims, "), }");
    size_t size;
    unsigned char *b = npy_file(dims, 4, &size);
    refused(b, size, "more dimensions than a tensor has", "65 dimensions");
    b[6] = 4;
    refused(b, size, "bad.npy: .npy version 4.0 is not supported", "version 4.0");
    b[6] = 1;
    b[8] = 0xff;
    b[9] = 0xff;
    refused(b, size, "the header runs past the end", "a header length past the end");
    free(b);
    b = npy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (), }\x01", 4, &size);
    refused(b, size, "a header that is not ASCII text", "a control byte in the header");
    memcpy(b, "\x93NUMPX", 6);
    refused(b, size, "no \\x93NUMPY magic", "no magic");
    free(b);
    refused((const unsigned char *)"", 0, "no \\x93NUMPY magic", "an empty file");
    refused((const unsigned char *)"\x93NUMPY\x02\x00\x05\x00\x00", 11,
            "the header runs past the end", "a 2.0 file cut inside its header length");
}

int main(void)
{
    const char *dir = make_tmpdir();
    check_cases(DATA_DIR "/npy", "committed files");
    const char *py = python_with("numpy");
    if (!py || !dir) {
        skip("python3 with numpy is not installed", "every dtype, order and layout numpy writes");
    } else {
        char cmd[1024], *out = NULL;
        snprintf(cmd, sizeof cmd, "%s %s/npy_cases.py '%s' 2>&1", py, DATA_DIR, dir);
        if (run(cmd, &out) == 0)
            check_cases(dir, "files numpy writes now");
        else
            ok(0, "npy_cases.py runs: %s", out);
        free(out);
    }
    if (dir)
        test_write(dir);
    test_hostile();
    cleanup_tmpdir();
    return done_testing();
}
