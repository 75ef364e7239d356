/* elf_check.c — is a plugin file a whole ELF shared object, before dlopen maps it?
 *
 * dlopen trusts a file's headers: it maps each loadable segment at the offset and length
 * the program headers give and reads it, so a file cut short (a half-copied plugin, a full
 * disk) is mapped past its end and the first read of the missing pages kills the process
 * with SIGBUS, inside dlopen, where no error can be returned. So the loader checks first:
 * the ELF identification (class, byte order and machine of this process), the file header,
 * and that the program header table, every segment's file image, the section header table
 * and every section with contents lie inside the file. All arithmetic on the header fields
 * is checked; a failure says which table or segment is cut off, and where.
 *
 * The file can still change between this check and dlopen (the loader opens it by name,
 * like dlopen); the check is about files damaged at rest, not about an attacker racing it.
 */
#include "registry/elf_check.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__x86_64__)
#define HOST_MACHINE EM_X86_64
#elif defined(__aarch64__)
#define HOST_MACHINE EM_AARCH64
#elif defined(__i386__)
#define HOST_MACHINE EM_386
#elif defined(__arm__)
#define HOST_MACHINE EM_ARM
#elif defined(__powerpc64__)
#define HOST_MACHINE EM_PPC64
#elif defined(__riscv)
#define HOST_MACHINE EM_RISCV
#elif defined(__s390x__)
#define HOST_MACHINE EM_S390
#endif

#if __SIZEOF_POINTER__ == 8
#define HOST_CLASS ELFCLASS64
#else
#define HOST_CLASS ELFCLASS32
#endif

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HOST_DATA ELFDATA2LSB
#else
#define HOST_DATA ELFDATA2MSB
#endif

/* The most header entries read: real shared objects have tens of each. */
enum { MAX_ENTRIES = 1 << 16 };

typedef struct ElfFile {
    const char *path;
    int fd;
    uint64_t size;
    TsError *err;
} ElfFile;

static int bad(const ElfFile *f, const char *what, uint64_t end)
{
    return ts_error_set(f->err, TS_ERR_PLUGIN, "%s: cannot load plugin: a truncated or damaged "
                        "ELF file: %s ends at byte %llu, but the file has %llu bytes", f->path,
                        what, (unsigned long long)end, (unsigned long long)f->size);
}

static int not_loadable(const ElfFile *f, const char *why)
{
    return ts_error_set(f->err, TS_ERR_PLUGIN, "%s: cannot load plugin: %s", f->path, why);
}

/* Whether [off, off + len) lies inside the file; *end gets off + len (saturated). */
static bool inside(const ElfFile *f, uint64_t off, uint64_t len, uint64_t *end)
{
    if (__builtin_add_overflow(off, len, end))
        *end = UINT64_MAX;
    return *end <= f->size;
}

/* Reads len bytes at off (known to be inside the file) into buf. */
static int read_at(const ElfFile *f, void *buf, size_t len, uint64_t off)
{
    size_t got = 0;
    while (got < len) {
        ssize_t n = pread(f->fd, (char *)buf + got, len - got, (off_t)(off + got));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return ts_error_set(f->err, TS_ERR_PLUGIN, "%s: cannot load plugin: %s", f->path,
                                n < 0 ? strerror(errno) : "the file shrank while being read");
        got += (size_t)n;
    }
    return 0;
}

/* A table of n entries of entsize bytes at off: inside the file, read whole into *out. */
static int read_table(const ElfFile *f, const char *name, uint64_t off, size_t n,
                      size_t entsize, size_t want_entsize, void **out)
{
    *out = NULL;
    uint64_t end;
    if (n == 0)
        return 0;
    if (entsize != want_entsize) {
        char why[96];
        snprintf(why, sizeof why, "its %s has entries of %zu bytes, not %zu", name, entsize,
                 want_entsize);
        return not_loadable(f, why);
    }
    if (n > MAX_ENTRIES)
        return not_loadable(f, "its header tables are implausibly large");
    if (!inside(f, off, (uint64_t)n * entsize, &end))
        return bad(f, name, end);
    if (!(*out = malloc(n * entsize)))
        return ts_error_set(f->err, TS_ERR_NOMEM, "out of memory checking %s", f->path);
    if (read_at(f, *out, n * entsize, off)) {
        free(*out);
        *out = NULL;
        return TS_ERR_PLUGIN;
    }
    return 0;
}

static int check_headers(const ElfFile *f)
{
    ElfW(Ehdr) eh;
    if (f->size < EI_NIDENT)
        return not_loadable(f, "not an ELF file");
    if (read_at(f, eh.e_ident, EI_NIDENT, 0))
        return TS_ERR_PLUGIN;
    if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0)
        return not_loadable(f, "not an ELF file");
    if (eh.e_ident[EI_CLASS] != HOST_CLASS)
        return not_loadable(f, "an ELF file of the other word size (32 or 64 bits)");
    if (eh.e_ident[EI_DATA] != HOST_DATA)
        return not_loadable(f, "an ELF file of the other byte order");
    uint64_t end;
    if (!inside(f, 0, sizeof eh, &end))
        return bad(f, "the ELF header", end);
    if (read_at(f, &eh, sizeof eh, 0))
        return TS_ERR_PLUGIN;
    if (eh.e_type != ET_DYN)
        return not_loadable(f, "an ELF file that is not a shared object");
#ifdef HOST_MACHINE
    if (eh.e_machine != HOST_MACHINE)
        return not_loadable(f, "an ELF file for another machine");
#endif
    void *ph = NULL, *sh = NULL;
    int rc = read_table(f, "the program header table", eh.e_phoff, eh.e_phnum,
                        eh.e_phentsize, sizeof(ElfW(Phdr)), &ph);
    if (!rc && eh.e_phnum == 0)
        rc = not_loadable(f, "an ELF file without program headers");
    for (size_t i = 0; !rc && i < eh.e_phnum; i++) {
        const ElfW(Phdr) *p = (const ElfW(Phdr) *)ph + i;
        char what[64];
        snprintf(what, sizeof what, "segment %zu (of %u)", i, (unsigned)eh.e_phnum);
        if (p->p_type != PT_NULL && !inside(f, p->p_offset, p->p_filesz, &end))
            rc = bad(f, what, end);
    }
    /* e_shnum == 0 with e_shoff set means more than 0xff00 sections: refused as implausible */
    if (!rc && (eh.e_shnum || eh.e_shoff))
        rc = read_table(f, "the section header table", eh.e_shoff,
                        eh.e_shnum ? eh.e_shnum : MAX_ENTRIES + 1, eh.e_shentsize,
                        sizeof(ElfW(Shdr)), &sh);
    for (size_t i = 0; !rc && i < eh.e_shnum; i++) {
        const ElfW(Shdr) *s = (const ElfW(Shdr) *)sh + i;
        char what[64];
        snprintf(what, sizeof what, "section %zu (of %u)", i, (unsigned)eh.e_shnum);
        if (s->sh_type != SHT_NOBITS && s->sh_type != SHT_NULL &&
            !inside(f, s->sh_offset, s->sh_size, &end))
            rc = bad(f, what, end);
    }
    free(ph);
    free(sh);
    return rc;
}

int ts_elf_check(const char *path, TsError *err)
{
    ElfFile f = { path, -1, 0, err };
    struct stat st;
    f.fd = open(path, O_RDONLY | O_CLOEXEC);
    if (f.fd < 0)
        return ts_error_set(err, TS_ERR_PLUGIN, "%s: cannot load plugin: %s", path,
                            strerror(errno));
    int rc;
    if (fstat(f.fd, &st) != 0)
        rc = ts_error_set(err, TS_ERR_PLUGIN, "%s: cannot load plugin: %s", path,
                          strerror(errno));
    else if (!S_ISREG(st.st_mode))
        rc = not_loadable(&f, "not a regular file");
    else {
        f.size = (uint64_t)st.st_size;
        rc = check_headers(&f);
    }
    close(f.fd);
    return rc;
}
