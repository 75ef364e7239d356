/* elf_check.h — checking a plugin file's ELF headers against its size before dlopen
 * (internal to the core; see elf_check.c for why).
 */
#ifndef TSCRIPT_REGISTRY_ELF_CHECK_H
#define TSCRIPT_REGISTRY_ELF_CHECK_H

#include "tscript/error.h"

/* 0 if path is an ELF shared object of this process's class, byte order and machine whose
 * program headers, segments, section headers and sections all lie inside the file; else
 * TS_ERR_PLUGIN with err saying what is wrong ("a truncated or damaged ELF file: segment 2
 * (of 9) ends at byte 20480, but the file has 3000 bytes"). */
int ts_elf_check(const char *path, TsError *err);

#endif
