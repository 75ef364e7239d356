/* pickle.h — the pickle format as PyTorch's archives use it: a safe unpickler and a pickler.
 *
 * data.pkl and constants.pkl of a torch.jit.save archive, and the data.pkl of a torch.save
 * file, are Python pickles (protocol 2, or up to 5 from torch.save). The unpickler is a
 * small stack machine that knows only the globals those files use, never calls anything,
 * and refuses every other GLOBAL / STACK_GLOBAL naming it, as torch.load(weights_only=True)
 * does ("Unsupported global: GLOBAL os.system ..."). What it builds:
 *
 *   None, bool, int (up to 64 bits), float, str   as themselves
 *   tuple                                          TsTuple (type NULL)
 *   list, dict, collections.OrderedDict            TsList of Any / TsDict of (Any, Any),
 *                                                  typed where the pickle says (build_intlist,
 *                                                  build_tensorlist, ..., restore_type_tag)
 *   torch._utils._rebuild_tensor_v2 / _rebuild_parameter   a TsTensor over a storage that
 *                                                  env->load_storage gives for the persistent
 *                                                  id ('storage', <dtype>Storage, key,
 *                                                  location, numel); checked against it
 *   __torch__.* classes (NEWOBJ then BUILD)        a TsObject of env->resolve_class's type,
 *                                                  its state given to env->set_state
 *   __torch__.* enums (REDUCE of the bare value)   the member env->enum_member gives
 *   complex, torch.device, torch.Size              TsComplex, a device, a tuple of ints
 *   a persistent id alone (torch.save(storage))    a 1-D tensor over the whole storage, as
 *                                                  PyTorch's C++ unpickler gives
 *
 * Memoized values (BINPUT/BINGET) are shared, not copied, so two attributes that were one
 * object stay one object, and two tensors over one storage keep sharing it. Nesting is
 * bounded (TS_PICKLE_MAX_DEPTH); a pickle that refers to itself in a way the language cannot
 * hold is refused: a list, dict or object may only be filled before it is put inside
 * another value (as every pickler writes them), so no value can come to contain itself.
 * Refused with a message naming what and where: any other global ("Unsupported class
 * os.system", 1.13's words), bytes, sets, protocols before 2, unknown opcodes, memo ids past
 * the pickle's size, ints wider than 64 bits, strings that are not UTF-8, dict keys of a
 * type TorchScript cannot hash, a tensor reaching past its storage.
 * The BUILD state of a collections.OrderedDict (a state dict's _metadata) is dropped.
 */
#ifndef TSCRIPT_PICKLE_H
#define TSCRIPT_PICKLE_H

#include <stddef.h>
#include <stdint.h>

#include "tscript/strbuf.h"
#include "tscript/value.h"

/* What the reader of an archive supplies: class types, states, storages, type strings.
 * Each hook may be NULL, and then what it would handle is refused. */
typedef struct TsUnpickleEnv {
    void *ctx;
    /* "__torch__.m.Cls" (module and name joined by '.'): its class type, or NULL with err. */
    const TsType *(*resolve_class)(void *ctx, const char *qualname, TsError *err);
    /* BUILD on an object of a script class: applies state (the dict of its attributes, or
     * what its __getstate__ returned, for __setstate__). Takes state's reference. */
    int (*set_state)(void *ctx, TsObject *obj, TsValue state, TsError *err);
    /* The storage of a persistent id: dtype (TsDType) from the storage class, the key
     * ("0" for data/0), the location ("cpu", "cuda:0"), the element count. A new
     * reference, or NULL with err. The unpickler asks once per key and shares it. */
    TsStorage *(*load_storage)(void *ctx, int dtype, const char *key, const char *location,
                               int64_t numel, TsError *err);
    /* A type annotation string of restore_type_tag ("Dict[str, List[int]]"). */
    const TsType *(*parse_type)(void *ctx, const char *annotation, TsError *err);
    /* The member of an enum type (resolve_class gave it) whose value is value: PyTorch
     * 1.13 pickles Color.RED as REDUCE of __torch__.Color with the bare value 1. A new
     * reference in *out, or an error when no member has that value. */
    int (*enum_member)(void *ctx, const TsType *enum_type, TsValue value, TsValue *out,
                       TsError *err);
} TsUnpickleEnv;

/* How deep values may nest (containers in containers), in both directions. */
#define TS_PICKLE_MAX_DEPTH 1000

/* Runs the pickle in data[0..size) to its STOP; the one value left is *out (a new
 * reference). Errors say what and at which byte offset ("pickle: byte 143: ..."). */
int ts_unpickle(const void *data, size_t size, const TsUnpickleEnv *env, TsValue *out,
                TsError *err);

/* Checks that v conforms to type and gives the untyped lists and dicts inside it the types
 * type names (PyTorch's restoreAccurateTypeTags), and the plain tuples where type names a
 * NamedTuple that NamedTuple type. restore_type_tag runs it on its value; the importer runs
 * it on attributes whose containers the pickle left untyped. Objects and enums are checked
 * by their class, not entered. A container already typed otherwise, or an element of the
 * wrong kind, is an error ("pickle: expected List[int], got a list of str"). */
int ts_pickle_retype(TsValue v, const TsType *type, TsError *err);

/* What the writer of an archive supplies. */
typedef struct TsPickleEnv {
    void *ctx;
    /* A tensor's storage: the key it is saved under (a new "N" the first time a storage is
     * met, the same key after), written into buf. The writer saves the bytes itself. */
    int (*storage_key)(void *ctx, TsStorage *s, TsBuf *key, TsError *err);
    /* The state an object is pickled with: its __getstate__ result, or a dict of its
     * attributes by name. A new reference in *state. *state = ts_uninit() (or a NULL
     * get_state) means "no __getstate__": the pickler writes the object's slots as a plain
     * dict of attribute names, exactly as PyTorch does; a dict given here is written as any
     * dict value is (with restore_type_tag), which PyTorch's loader reads the same way. */
    int (*get_state)(void *ctx, TsObject *obj, TsValue *state, TsError *err);
} TsPickleEnv;

/* Appends v pickled with protocol 2, as PyTorch 1.13's torch.jit.save writes it: typed
 * lists as torch.jit._pickle.build_*list, containers whose type a plain pickle loses with
 * restore_type_tag, tensors as _rebuild_tensor_v2 of a persistent id, objects as the
 * GLOBAL of their class, NEWOBJ and BUILD of their state; values reached twice are
 * memoized once. */
int ts_pickle(TsValue v, const TsPickleEnv *env, TsBuf *out, TsError *err);

#endif
