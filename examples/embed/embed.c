/* embed.c — a C program running a model PyTorch saved (linear.pt, by make_model.py) on an
 * input that lives in the program's own memory, through <tscript/tscript.h> alone:
 *     cc embed.c $(pkg-config --cflags --libs tscript) && ./a.out linear.pt */
#include <stdio.h>
#include <tscript/tscript.h>

int main(int argc, char **argv)
{
    TsError err = TS_ERROR_INIT;
    float input[4] = { 1, 2, 3, 4 };                          /* our buffer: not copied */
    int64_t sizes[2] = { 1, 4 };
    TsRuntime *rt = ts_runtime_open(NULL, &err);
    TsModule *model = rt ? ts_module_load(rt, argc > 1 ? argv[1] : "linear.pt", &err) : NULL;
    TsMethod *forward = model ? ts_module_find_method(model, "forward", &err) : NULL;
    TsTensor *x = forward ? ts_tensor_from_blob(input, TS_FLOAT32, 2, sizes, NULL, NULL, NULL,
                                                &err) : NULL;
    TsValue arg = ts_tensor_value(x), out = ts_none();
    TsTensor *y = NULL;
    int failed = !x || ts_method_call(forward, &arg, 1, &out, &err) ||
                 ts_value_to_tensor(out, &y, &err);
    if (failed)
        fprintf(stderr, "embed: %s: %s\n", ts_error_class(err.code), err.msg);
    for (int64_t i = 0; !failed && i < ts_tensor_sizes(y)[1]; i++)   /* y: 1x2 floats */
        printf("%g%s", ((float *)ts_tensor_data(y))[i * ts_tensor_strides(y)[1]],
               i + 1 < ts_tensor_sizes(y)[1] ? " " : "\n");
    ts_value_release(arg);
    ts_value_release(out);
    ts_method_free(forward);
    ts_module_free(model);
    ts_runtime_close(rt);
    ts_error_clear(&err);
    return failed;
}
