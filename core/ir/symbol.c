/* symbol.c — interned "ns::name" strings (node kinds and attribute names).
 *
 * A symbol is the address of its one interned copy, so kinds compare with ==. The table is
 * global (every graph of every runtime shares it) and guarded by a mutex, because several
 * threads compile at once. Symbols stay valid until ts_symbols_shutdown().
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"

typedef struct SymbolTable {
    char **slots;              /* open addressing; NULL is empty */
    size_t cap, count;         /* cap is a power of two */
} SymbolTable;

static SymbolTable table;
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ULL;   /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

static int table_grow(void)
{
    size_t ncap = table.cap ? table.cap * 2 : 256;
    char **nslots = calloc(ncap, sizeof *nslots);
    if (!nslots)
        return -1;
    for (size_t i = 0; i < table.cap; i++) {
        char *s = table.slots[i];
        if (!s)
            continue;
        size_t j = hash_str(s) & (ncap - 1);
        while (nslots[j])
            j = (j + 1) & (ncap - 1);
        nslots[j] = s;
    }
    free(table.slots);
    table.slots = nslots;
    table.cap = ncap;
    return 0;
}

TsSymbol ts_symbol(const char *s)
{
    if (!s)
        return NULL;
    pthread_mutex_lock(&table_lock);
    const char *found = NULL;
    if ((table.count + 1) * 2 > table.cap && table_grow() != 0)
        goto out;
    size_t j = hash_str(s) & (table.cap - 1);
    while (table.slots[j]) {
        if (strcmp(table.slots[j], s) == 0) {
            found = table.slots[j];
            goto out;
        }
        j = (j + 1) & (table.cap - 1);
    }
    char *copy = strdup(s);
    if (copy) {
        table.slots[j] = copy;
        table.count++;
        found = copy;
    }
out:
    pthread_mutex_unlock(&table_lock);
    return found;
}

size_t ts_symbol_ns(TsSymbol s, char *buf, size_t size)
{
    const char *colon = strstr(s, "::");
    size_t n = colon ? (size_t)(colon - s) : 0;
    if (size) {
        size_t k = n < size - 1 ? n : size - 1;
        memcpy(buf, s, k);
        buf[k] = '\0';
    }
    return n;
}

const char *ts_symbol_unqual(TsSymbol s)
{
    const char *colon = strstr(s, "::");
    return colon ? colon + 2 : s;
}

void ts_symbols_shutdown(void)
{
    pthread_mutex_lock(&table_lock);
    for (size_t i = 0; i < table.cap; i++)
        free(table.slots[i]);
    free(table.slots);
    table.slots = NULL;
    table.cap = table.count = 0;
    pthread_mutex_unlock(&table_lock);
}
