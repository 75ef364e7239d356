/* device.c — dtypes and devices: element sizes and names, the device type table, and
 * PyTorch's device string grammar ("cpu", "cuda", "cuda:1").
 *
 * The dtype table follows PyTorch's ScalarType numbering, which programs observe (print
 * shows the number). The device type table starts with PyTorch's builtin device types at
 * their numbers; plugins add their own backends by name at run time
 * (ts_device_type_register) and get numbers from TS_DEV__BUILTIN_MAX up. Registration may
 * happen while other threads parse device strings, so a slot's name is published with a
 * release store after it is written and read with an acquire load; writers hold a mutex.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "tscript/tensor.h"

/* ---- dtypes ------------------------------------------------------------- */
typedef struct DTypeInfo {
    size_t size;
    const char *name;      /* torch.<name> as torch spells the short alias */
    const char *type_name; /* "Float" as in "CPUFloatType" */
    bool floating, integral, complex;
} DTypeInfo;

static const DTypeInfo dtypes[TS_DTYPE__COUNT] = {
    [TS_UINT8] = {1, "uint8", "Byte", false, true, false},
    [TS_INT8] = {1, "int8", "Char", false, true, false},
    [TS_INT16] = {2, "short", "Short", false, true, false},
    [TS_INT32] = {4, "int", "Int", false, true, false},
    [TS_INT64] = {8, "long", "Long", false, true, false},
    [TS_FLOAT16] = {2, "half", "Half", true, false, false},
    [TS_FLOAT32] = {4, "float", "Float", true, false, false},
    [TS_FLOAT64] = {8, "double", "Double", true, false, false},
    [TS_COMPLEX32] = {4, "chalf", "ComplexHalf", false, false, true},
    [TS_COMPLEX64] = {8, "cfloat", "ComplexFloat", false, false, true},
    [TS_COMPLEX128] = {16, "cdouble", "ComplexDouble", false, false, true},
    [TS_BOOL] = {1, "bool", "Bool", false, false, false},
    [TS_QINT8] = {1, "qint8", "QInt8", false, false, false},
    [TS_QUINT8] = {1, "quint8", "QUInt8", false, false, false},
    [TS_QINT32] = {4, "qint32", "QInt32", false, false, false},
    [TS_BFLOAT16] = {2, "bfloat16", "BFloat16", true, false, false},
};

static const DTypeInfo *dtype_info(int dtype)
{
    return dtype >= 0 && dtype < TS_DTYPE__COUNT ? &dtypes[dtype] : NULL;
}

size_t ts_dtype_size(int dtype)
{
    const DTypeInfo *d = dtype_info(dtype);
    return d ? d->size : 0;
}

const char *ts_dtype_name(int dtype)
{
    const DTypeInfo *d = dtype_info(dtype);
    return d ? d->name : NULL;
}

const char *ts_dtype_type_name(int dtype)
{
    const DTypeInfo *d = dtype_info(dtype);
    return d ? d->type_name : NULL;
}

bool ts_dtype_is_floating(int dtype)
{
    const DTypeInfo *d = dtype_info(dtype);
    return d && d->floating;
}

bool ts_dtype_is_integral(int dtype, bool include_bool)
{
    const DTypeInfo *d = dtype_info(dtype);
    return d && (d->integral || (include_bool && dtype == TS_BOOL));
}

bool ts_dtype_is_complex(int dtype)
{
    const DTypeInfo *d = dtype_info(dtype);
    return d && d->complex;
}

/* ---- the device type table --------------------------------------------- */
#define DEVICE_NAME_MAX 32   /* bytes, with the NUL, of a registered name */

/* PyTorch's builtin device types at their numbers. "metal" prints but does not parse. */
static const char *const builtin_names[TS_DEV__BUILTIN_MAX] = {
    [0] = "cpu", [1] = "cuda", [2] = "mkldnn", [3] = "opengl", [4] = "opencl",
    [5] = "ideep", [6] = "hip", [7] = "fpga", [8] = "ort", [9] = "xla",
    [10] = "vulkan", [11] = "metal", [12] = "xpu", [13] = "mps", [14] = "meta",
    [15] = "hpu", [16] = "ve", [17] = "lazy", [18] = "ipu", [19] = "privateuseone",
};

/* The order PyTorch lists parseable names in its error message. */
static const int parse_order[] = {0, 1, 18, 12, 2, 3, 4, 5, 6, 16, 7, 8, 9, 17, 10, 13, 14,
                                  15, 19};

static char registered[TS_DEV__MAX - TS_DEV__BUILTIN_MAX][DEVICE_NAME_MAX];
static _Atomic(const char *) registered_names[TS_DEV__MAX - TS_DEV__BUILTIN_MAX];
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;

const char *ts_device_type_name(int type)
{
    if (type < 0 || type >= TS_DEV__MAX)
        return NULL;
    if (type < TS_DEV__BUILTIN_MAX)
        return builtin_names[type];
    return atomic_load_explicit(&registered_names[type - TS_DEV__BUILTIN_MAX],
                                memory_order_acquire);
}

/* Looks up the first len bytes of name; "metal" is found only when with_unparseable. */
static int lookup_n(const char *name, size_t len, bool with_unparseable)
{
    for (int i = 0; i < TS_DEV__MAX; i++) {
        const char *n = ts_device_type_name(i);
        if (!n || (i == 11 && !with_unparseable))
            continue;
        if (strlen(n) == len && memcmp(n, name, len) == 0)
            return i;
    }
    return -1;
}

int ts_device_type_lookup(const char *name)
{
    return name ? lookup_n(name, strlen(name), true) : -1;
}

/* A name must parse back as a device string: letters and underscores only. */
static bool valid_type_name(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n >= DEVICE_NAME_MAX)
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'))
            return false;
    }
    return true;
}

int ts_device_type_register(const char *name, TsError *err)
{
    if (!name || !valid_type_name(name)) {
        ts_error_set(err, TS_ERR_VALUE,
                     "invalid device type name '%s': use 1 to %d letters or underscores",
                     name ? name : "(null)", DEVICE_NAME_MAX - 1);
        return -1;
    }
    pthread_mutex_lock(&registry_lock);
    int found = ts_device_type_lookup(name);
    if (found >= 0) {
        pthread_mutex_unlock(&registry_lock);
        return found;
    }
    int slot = -1;
    for (int i = 0; i < TS_DEV__MAX - TS_DEV__BUILTIN_MAX; i++) {
        if (!atomic_load_explicit(&registered_names[i], memory_order_relaxed)) {
            slot = i;
            break;
        }
    }
    if (slot < 0) {
        pthread_mutex_unlock(&registry_lock);
        ts_error_set(err, TS_ERR_LIMIT, "cannot register device type '%s': all %d slots are taken",
                     name, TS_DEV__MAX - TS_DEV__BUILTIN_MAX);
        return -1;
    }
    memcpy(registered[slot], name, strlen(name) + 1);
    atomic_store_explicit(&registered_names[slot], registered[slot], memory_order_release);
    pthread_mutex_unlock(&registry_lock);
    return TS_DEV__BUILTIN_MAX + slot;
}

/* ---- device strings ------------------------------------------------------ */
static bool is_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/* "Expected one of cpu, cuda, ... device type at start of device string: s" */
static int unknown_type_error(const char *s, TsError *err)
{
    /* fits: ~150 bytes of builtin names and 32 registered names of at most 31 bytes */
    char list[2048];
    size_t n = 0;
    list[0] = 0;
    for (size_t i = 0; i < sizeof parse_order / sizeof parse_order[0]; i++)
        n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", n ? ", " : "",
                              builtin_names[parse_order[i]]);
    for (int i = TS_DEV__BUILTIN_MAX; i < TS_DEV__MAX && n < sizeof list; i++) {
        const char *r = ts_device_type_name(i);
        if (r)
            n += (size_t)snprintf(list + n, sizeof list - n, ", %s", r);
    }
    return ts_error_set(err, TS_ERR_RUNTIME,
                        "Expected one of %s device type at start of device string: %s", list, s);
}

int ts_device_parse(const char *s, TsDevice *out, TsError *err)
{
    if (!s || !*s)
        return ts_error_set(err, TS_ERR_RUNTIME, "Device string must not be empty");
    size_t name_len = 0;
    while (is_name_char(s[name_len]))
        name_len++;
    const char *rest = s + name_len;
    const char *digits = NULL;
    size_t ndigits = 0;
    bool ok = name_len > 0;
    if (ok && *rest == ':') {
        digits = rest + 1;
        while (digits[ndigits] >= '0' && digits[ndigits] <= '9')
            ndigits++;
        /* one or more digits, no leading zero, nothing after */
        ok = ndigits > 0 && digits[ndigits] == 0 && !(ndigits > 1 && digits[0] == '0');
    } else if (ok) {
        ok = *rest == 0;
    }
    if (!ok)
        return ts_error_set(err, TS_ERR_RUNTIME, "Invalid device string: '%s'", s);
    int type = lookup_n(s, name_len, false);
    if (type < 0)
        return unknown_type_error(s, err);
    long index = -1;
    if (digits) {
        index = 0;
        for (size_t i = 0; i < ndigits; i++) {
            index = index * 10 + (digits[i] - '0');
            if (index > INT16_MAX)
                return ts_error_set(err, TS_ERR_RUNTIME,
                                    "Could not parse device index '%s' in device string '%s'",
                                    digits, s);
        }
    }
    out->type = (int16_t)type;
    out->index = (int16_t)index;
    return 0;
}

int ts_device_parse_n(const char *s, size_t len, TsDevice *out, TsError *err)
{
    if (!memchr(s, 0, len))
        return ts_device_parse(s, out, err);
    /* PyTorch quotes the string as it is; a NUL would end our message, so it shows as \x00 */
    char shown[128];
    size_t n = 0;
    for (size_t i = 0; i < len && n + 5 < sizeof shown; i++)
        n += (size_t)(s[i] ? snprintf(shown + n, sizeof shown - n, "%c", s[i])
                           : snprintf(shown + n, sizeof shown - n, "\\x00"));
    return ts_error_set(err, TS_ERR_RUNTIME, "Invalid device string: '%s%s'", shown,
                        n + 5 >= sizeof shown ? "..." : "");
}

size_t ts_device_str(TsDevice d, char *buf, size_t size)
{
    const char *name = ts_device_type_name(d.type);
    int n;
    if (!name)
        n = snprintf(buf, size, "device%d", (int)d.type);
    else if (d.index < 0)
        n = snprintf(buf, size, "%s", name);
    else
        n = snprintf(buf, size, "%s:%d", name, (int)d.index);
    return n < 0 ? 0 : (size_t)n;
}
