/* fuser.h — what the CUDA fuser's files share: the kernel a fusion group compiles to, the
 * NVRTC and driver libraries it loads on first use, the cache of compiled programs, and the
 * pass and kernel factory entry points.
 *
 * A fusion group (prim::FusionGroup, its Subgraph a graph of pointwise operators on float32,
 * float64 or float16 cuda tensors, group.h) runs as one CUDA kernel: each thread computes
 * every output at one element, intermediates in registers, where the unfused graph would
 * launch one kernel per operator, each reading and writing whole tensors.
 */
#ifndef TS_FUSER_CUDA_H
#define TS_FUSER_CUDA_H

#include <stdbool.h>
#include <stdint.h>

#include "tscript/aten.h"
#include "group.h"

/* The kernel takes sizes and strides for this many dimensions. */
#define FC_MAX_RANK 8
/* Tensor arguments (inputs and chunk pieces) and outputs: bits of a 64-bit mask. */
#define FC_MAX_SLOTS 64
/* The size of a kernel's parameters, in bytes (the limit every architecture takes). */
#define FC_MAX_PARAM_BYTES 4096
/* The most products (aten::mm) a group computes. */
#define FC_MAX_MM 4

/* ---- the kernel of a group (codegen.c) -------------------------------------------------- */

/* A tensor argument of the kernel: a tensor input of the group, or a piece of one that the
 * group's prim::ConstantChunk splits (made per call, as aten::chunk makes it), or that a
 * prim::BroadcastingChunk splits after broadcasting it with the node's other inputs. */
typedef struct FcSlot {
    size_t input;              /* the Subgraph input it is, or splits */
    int64_t piece;             /* -1: the input itself; else the piece's index */
    int64_t chunks, dim;
    int bcast;                 /* 0, or the BroadcastingChunk (1, 2, ...) it comes from */
    int mm;                    /* 0, or a piece of product mm - 1 (input: its first operand) */
} FcSlot;

/* A product of the group: Subgraph inputs a @ b. A launch computes the elements of a small
 * one where they are read (an FcMm word block says how: on, the operands' pointers, sizes
 * and strides), and runs aten::mm's kernel for a big one, whose result the pieces read. */
typedef struct FcMm {
    size_t a, b;
} FcMm;

/* The kernel's one parameter is a struct of 8-byte words, in this order: numel, rank,
 * contig (all slots contiguous in the launch's shape), warp (a warp per element, its lanes
 * sharing the dot products of the products computed in the kernel: set when there are
 * any), need (the slots to read), write (the
 * outputs to write), sizes[FC_MAX_RANK], then per slot its data pointer and strides
 * [FC_MAX_RANK] (0 along broadcast dims), per output its data pointer, per number input
 * its value (an int64, or a double's bits), and per product its FC_MM_WORDS (on, a, b, k, n,
 * a's strides, b's strides; a piece of a product computed in the kernel has for data
 * pointer its element offset in the product). A launch computes the outputs of one shape
 * (outputs of different shapes, as in `a + b, row * 2`, take one launch each). */
enum { FC_W_NUMEL, FC_W_RANK, FC_W_CONTIG, FC_W_WARP, FC_W_NEED, FC_W_WRITE, FC_W_SIZES,
       FC_W_SLOTS = FC_W_SIZES + FC_MAX_RANK };
#define FC_SLOT_WORDS (1 + FC_MAX_RANK)
enum { FC_MM_ON, FC_MM_A, FC_MM_B, FC_MM_K, FC_MM_N, FC_MM_AS0, FC_MM_AS1, FC_MM_BS0,
       FC_MM_BS1, FC_MM_WORDS };

typedef struct FcKernel {
    int dtype;                 /* of every tensor of the group */
    size_t n_inputs;           /* the Subgraph's (the node's) */
    uint8_t *is_number;        /* n_inputs: an int or float input, else a tensor */
    uint8_t *is_float;         /* n_inputs: a float number input (else an int) */
    size_t n_slots;
    FcSlot *slots;
    size_t n_outputs;
    uint64_t *deps;            /* n_outputs: the slots each output reads */
    int *same_as;              /* n_outputs: an earlier output of the same value, or -1 */
    size_t n_numbers;          /* number inputs */
    size_t n_mm;
    FcMm mm[FC_MAX_MM];
    size_t n_words;            /* the parameter's length, in words */
    char *source;              /* CUDA C: extern "C" __global__ void fusion(Args) */
} FcKernel;

/* Writes the kernel of a fusion group's Subgraph; NULL with err set when the graph holds
 * anything the fuser did not put there, or more tensors than one kernel takes. */
FcKernel *fc_codegen(const TsGraph *sub, TsError *err);
void fc_kernel_free(FcKernel *k);
/* Offsets in the parameter of output o's pointer and number input j's value. */
size_t fc_word_output(const FcKernel *k, size_t o);
size_t fc_word_number(const FcKernel *k, size_t j);
size_t fc_word_mm(const FcKernel *k, size_t m);

/* ---- NVRTC (nvrtc.c) -------------------------------------------------------------------- */

/* Compiles source to PTX for a virtual architecture ("compute_90"); *ptx is malloc'd.
 * Loads libnvrtc on first use; its log becomes the error on failure. */
int fc_nvrtc_compile(const char *source, const char *arch, char **ptx, TsError *err);

/* ---- programs (cache.c) ------------------------------------------------------------------ */

/* The architecture kernels are compiled for: the first device's compute capability where
 * the driver finds a device, else compute_90. */
const char *fc_target_arch(void);
/* The PTX of source for fc_target_arch(), compiled once per process (the cache owns it
 * until the plugin unloads). */
const char *fc_program_ptx(const char *source, TsError *err);
void fc_program_cache_clear(void);

/* ---- the driver (driver.c) --------------------------------------------------------------- */

typedef int FcResult;          /* CUresult: 0 is success */
typedef struct FcContext_ *FcContext;
typedef struct FcModule_ *FcModule;
typedef struct FcFunction_ *FcFunction;
typedef struct FcStream_ *FcStream;

/* The driver API functions the fuser calls (cuda.h's, declared here so that the plugin
 * neither includes nor links the driver). */
typedef struct FcDriver {
    FcResult (*init)(unsigned flags);
    FcResult (*device_get_count)(int *n);
    FcResult (*device_get)(int *dev, int ordinal);
    FcResult (*device_get_attribute)(int *v, int attr, int dev);
    FcResult (*primary_ctx_retain)(FcContext *ctx, int dev);
    FcResult (*primary_ctx_release)(int dev);
    FcResult (*ctx_get_current)(FcContext *ctx);
    FcResult (*ctx_set_current)(FcContext ctx);
    FcResult (*module_load_data)(FcModule *m, const void *image);
    FcResult (*module_unload)(FcModule m);
    FcResult (*module_get_function)(FcFunction *f, FcModule m, const char *name);
    FcResult (*launch_kernel)(FcFunction f, unsigned gx, unsigned gy, unsigned gz,
                              unsigned bx, unsigned by, unsigned bz, unsigned shared,
                              FcStream stream, void **params, void **extra);
    FcResult (*get_error_string)(FcResult r, const char **s);
    int n_devices;
} FcDriver;

/* CUDA's per-thread default stream (CU_STREAM_PER_THREAD), where aten-cuda runs its work. */
#define FC_STREAM_PER_THREAD ((FcStream)0x2)

/* The driver, loaded and initialized on first use, with at least one device; NULL with
 * "no CUDA device: ..." otherwise. */
const FcDriver *fc_driver(TsError *err);
/* err set to "what: the driver's message" for a failed call r. */
int fc_driver_error(const FcDriver *d, FcResult r, const char *what, TsError *err);

/* ---- running (launch.c) ----------------------------------------------------------------- */

/* The kernel factory of prim::FusionGroup on the cuda backend. */
int fc_kernel_factory(const TsNodeInfo *node, TsKernelFn *fn, void **data,
                      void (**free_data)(void *), TsError *err);

/* ---- the pass (fuse.c) ------------------------------------------------------------------- */

/* Groups chains of fusible pointwise operators on cuda tensors into prim::FusionGroup nodes,
 * each compiled before it is made: a group that fails to compile is not made. */
int fc_pass(TsGraph *g, void *ctx, TsError *err);

#endif
