/* zip_format.h — the bytes of a zip archive that zip_read.c and zip_write.c share
 * (internal to core/serialize).
 *
 * Only what PyTorch's archives use is named here: local file headers, central directory
 * records, the end-of-central-directory record and its zip64 forms, and the two extra
 * fields that matter (zip64 sizes, and the padding field PyTorch's writer uses to put an
 * entry's data on a 64-byte boundary). Every integer in a zip is little-endian; the
 * accessors below read and write them byte by byte, so the code is the same on any host
 * and never makes an unaligned access.
 */
#ifndef TSCRIPT_ZIP_FORMAT_H
#define TSCRIPT_ZIP_FORMAT_H

#include <stddef.h>
#include <stdint.h>

enum {
    ZIP_LOCAL_SIG = 0x04034b50,        /* "PK\3\4" local file header */
    ZIP_CENTRAL_SIG = 0x02014b50,      /* "PK\1\2" central directory record */
    ZIP_EOCD_SIG = 0x06054b50,         /* "PK\5\6" end of central directory */
    ZIP64_EOCD_SIG = 0x06064b50,       /* "PK\6\6" zip64 end of central directory */
    ZIP64_LOCATOR_SIG = 0x07064b50,    /* "PK\6\7" zip64 end of central directory locator */

    ZIP_LOCAL_SIZE = 30,               /* fixed parts, before name and extra fields */
    ZIP_CENTRAL_SIZE = 46,
    ZIP_EOCD_SIZE = 22,
    ZIP64_EOCD_SIZE = 56,
    ZIP64_LOCATOR_SIZE = 20,

    ZIP_EXTRA_ZIP64 = 0x0001,          /* 64-bit sizes and offset */
    ZIP_EXTRA_PAD = 0x4246,            /* "FB": PyTorch's alignment padding */

    ZIP_FLAG_ENCRYPTED = 1 << 0,
    ZIP_FLAG_DESCRIPTOR = 1 << 3,      /* crc and sizes follow the data, not in the header */
    ZIP_FLAG_STRONG_ENCRYPTION = 1 << 6,
    ZIP_FLAG_UTF8 = 1 << 11,

    ZIP_ALIGN = 64                     /* where PyTorch puts every entry's data */
};

#define ZIP_MAX32 0xffffffffu          /* a 32-bit field that says "see the zip64 record" */
#define ZIP_MAX16 0xffffu

static inline uint16_t zip_rd16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t zip_rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t zip_rd64(const uint8_t *p)
{
    return (uint64_t)zip_rd32(p) | (uint64_t)zip_rd32(p + 4) << 32;
}

static inline uint8_t *zip_wr16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    return p + 2;
}

static inline uint8_t *zip_wr32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> 8 * i);
    return p + 4;
}

static inline uint8_t *zip_wr64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> 8 * i);
    return p + 8;
}

/* An entry name fit for a message, NUL-terminated in buf: bytes outside printable ASCII
 * as \xNN, cut with "..." past 120 characters (names come from untrusted files). */
const char *ts_zip_quote_name(const char *name, size_t len, char *buf, size_t size);
#define ZIP_QUOTE_BUF 512

#endif
