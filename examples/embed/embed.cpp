// embed.cpp — the same from C++: compiles a TorchScript function from source, loads the
// model PyTorch saved (linear.pt), and runs both on a tensor over a std::vector's memory.
//     c++ embed.cpp $(pkg-config --cflags --libs tscript) && ./a.out linear.pt
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <tscript/tscript.h>

namespace {

// Throws the error's message as a std::runtime_error when rc (or a NULL result) says it failed.
struct Check {
    TsError err = TS_ERROR_INIT;
    ~Check() { ts_error_clear(&err); }
    template <class T> T *operator()(T *p) { if (!p) fail(); return p; }
    void operator()(int rc) { if (rc) fail(); }
    [[noreturn]] void fail()
    {
        std::string msg = std::string(ts_error_class(err.code)) + ": " + (err.msg ? err.msg : "");
        ts_error_clear(&err);
        throw std::runtime_error(msg);
    }
};

// Owns one reference of a value.
struct Value {
    TsValue v = ts_none();
    Value() = default;
    explicit Value(TsValue x) : v(x) {}
    Value(const Value &) = delete;
    Value &operator=(const Value &) = delete;
    ~Value() { ts_value_release(v); }
};

const char source[] =
    "import torch\n"
    "def double_sum(x: torch.Tensor) -> float:\n"
    "    return float((x * 2).sum())\n";

} // namespace

int main(int argc, char **argv)
{
    Check check;
    try {
        std::unique_ptr<TsRuntime, void (*)(TsRuntime *)> rt(
            check(ts_runtime_open(nullptr, &check.err)), ts_runtime_close);
        std::unique_ptr<TsScript, void (*)(TsScript *)> script(
            check(ts_script_compile(rt.get(), "source.py", source, sizeof source - 1,
                                    &check.err)), ts_script_free);
        std::unique_ptr<TsModule, void (*)(TsModule *)> model(
            check(ts_module_load(rt.get(), argc > 1 ? argv[1] : "linear.pt", &check.err)),
            ts_module_free);
        std::unique_ptr<TsMethod, void (*)(TsMethod *)> fn(
            check(ts_script_find_function(script.get(), "double_sum", &check.err)),
            ts_method_free);
        std::unique_ptr<TsMethod, void (*)(TsMethod *)> forward(
            check(ts_module_find_method(model.get(), "forward", &check.err)), ts_method_free);

        std::vector<float> input{ 1, 2, 3, 4 };   // our memory: the tensor is a view of it
        int64_t sizes[2] = { 1, 4 };
        Value x(ts_tensor_value(check(ts_tensor_from_blob(input.data(), TS_FLOAT32, 2, sizes,
                                                          nullptr, nullptr, nullptr,
                                                          &check.err))));
        Value sum, y;
        check(ts_method_call(fn.get(), &x.v, 1, &sum.v, &check.err));
        double total = 0;
        check(ts_value_to_double(sum.v, &total, &check.err));
        std::printf("double_sum: %g\n", total);

        check(ts_method_call(forward.get(), &x.v, 1, &y.v, &check.err));
        std::unique_ptr<char, void (*)(void *)> text(check(ts_value_to_cstr(rt.get(), y.v,
                                                                         &check.err)), std::free);
        std::printf("forward:\n%s\n", text.get());
    } catch (const std::exception &e) {
        std::fprintf(stderr, "embed: %s\n", e.what());
        return 1;
    }
    return 0;
}
