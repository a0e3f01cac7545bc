// Tiling-template programming (ASCENDC_TPL_*): an operator declares its kernel's template
// parameters and their allowed combinations in one header that op_host and op_kernel both include.
//
//   ASCENDC_TPL_ARGS_DECL(Op, ASCENDC_TPL_DATATYPE_DECL(D_T_X, C_DT_FLOAT, C_DT_FLOAT16),
//                             ASCENDC_TPL_UINT_DECL(TILE_NUM, ASCENDC_TPL_8_BW, ASCENDC_TPL_UI_LIST, 1, 8),
//                             ASCENDC_TPL_BOOL_DECL(IS_SPLIT, 0, 1));
//   ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_DATATYPE_SEL(D_T_X, C_DT_FLOAT), ...), ...);
//
// Host side (op_host): ASCENDC_TPL_SEL_PARAM(context, v...) / GET_TPL_TILING_KEY(v...) check the
// values form a declared, selected combination (else the host program fails naming the operator,
// parameter and value) and encode the tiling key as the vendor does: parameters in declaration
// order from bit 0 up, each in its bit width (8 for data types and formats, 1 for bools, the
// declared width for UINTs); data types, formats and bools as their value, a UINT as the index
// of its value in the declared value list. `ascendc op run` then decodes the tiling key with the
// same declaration (Report) and launches the template kernel instance it names: a data type as
// its C++ type (ascendc_tpl::TypeFromId), every other parameter as its value.
//
// Kernel side (ASCENDC_TPL_KERNEL, or any simulator kernel build, which defines __NPU_ARCH__):
// the declarations expand to nothing.
#pragma once

#include <cstdint>

// Kernel types (ASCENDC_TPL_KERNEL_TYPE_SEL, ASCENDC_TPL_SHARED_KERNEL_TYPE_SEL).
#define ASCENDC_TPL_AIV_ONLY 0
#define ASCENDC_TPL_AIC_ONLY 1
#define ASCENDC_TPL_MIX_AIV_1_0 4
#define ASCENDC_TPL_MIX_AIC_1_0 5
#define ASCENDC_TPL_MIX_AIC_1_1 6
#define ASCENDC_TPL_MIX_AIC_1_2 7
#define ASCENDC_TPL_AICORE 8
#define ASCENDC_TPL_VECTORCORE 9
#define ASCENDC_TPL_MIX_AICORE 10
#define ASCENDC_TPL_MIX_VECTOR_CORE 11
// Bit widths of a UINT parameter.
#define ASCENDC_TPL_1_BW 1
#define ASCENDC_TPL_2_BW 2
#define ASCENDC_TPL_4_BW 4
#define ASCENDC_TPL_8_BW 8
// A data type or format taken from input / output x (in a DATATYPE or FORMAT declaration).
#define ASCENDC_TPL_INPUT(x) (100000000 + (x))
#define ASCENDC_TPL_OUTPUT(x) (900000000 + (x))
// How a UINT declaration lists its values: ranges (count, then first and last of each), a list,
// or ranges followed by a list.
#define ASCENDC_TPL_UI_RANGE 0
#define ASCENDC_TPL_UI_LIST 1
#define ASCENDC_TPL_UI_MIX 2

#if defined(ASCENDC_TPL_KERNEL) || defined(__NPU_ARCH__)

#include "ascendc/types.h"

namespace ascendc_tpl {

// The C++ type of a C_DT_* data-type template argument.
template <int id>
struct TypeFromId {
    static_assert(id != id, "ASCENDC_TPL: this data type has no C++ type in the simulator");
};
template <> struct TypeFromId<0> { using type = float; };
template <> struct TypeFromId<1> { using type = half; };
template <> struct TypeFromId<2> { using type = int8_t; };
template <> struct TypeFromId<3> { using type = int32_t; };
template <> struct TypeFromId<4> { using type = uint8_t; };
template <> struct TypeFromId<6> { using type = int16_t; };
template <> struct TypeFromId<7> { using type = uint16_t; };
template <> struct TypeFromId<8> { using type = uint32_t; };
template <> struct TypeFromId<9> { using type = int64_t; };
template <> struct TypeFromId<10> { using type = uint64_t; };
template <> struct TypeFromId<11> { using type = double; };
template <> struct TypeFromId<12> { using type = bool; };
template <> struct TypeFromId<27> { using type = bfloat16_t; };
template <> struct TypeFromId<29> { using type = AscendC::int4b_t; };

}  // namespace ascendc_tpl

#define ASCENDC_TPL_DTYPE_DECL(...)
#define ASCENDC_TPL_DATATYPE_DECL(...)
#define ASCENDC_TPL_FORMAT_DECL(...)
#define ASCENDC_TPL_UINT_DECL(...)
#define ASCENDC_TPL_BOOL_DECL(...)
#define ASCENDC_TPL_KERNEL_TYPE_DECL(...)
#define ASCENDC_TPL_DTYPE_SEL(...)
#define ASCENDC_TPL_DATATYPE_SEL(...)
#define ASCENDC_TPL_FORMAT_SEL(...)
#define ASCENDC_TPL_UINT_SEL(...)
#define ASCENDC_TPL_BOOL_SEL(...)
#define ASCENDC_TPL_TILING_STRUCT_SEL(...)
#define ASCENDC_TPL_KERNEL_TYPE_SEL(...)
#define ASCENDC_TPL_DETERMINISTIC_SEL(...)
#define ASCENDC_TPL_SHARED_KERNEL_TYPE_SEL(...)
#define ASCENDC_TPL_ARGS_DECL(...)
#define ASCENDC_TPL_ARGS_SEL(...)
#define ASCENDC_TPL_SEL(...)

#else

#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "ascendc/host/fail.h"

namespace ascendc_host {
namespace tpl {

// What a parameter is. Kernel type, determinism and tiling struct entries of a combination
// take no key bits and are not template arguments.
enum class Kind { Dtype, Datatype, Format, Uint, Bool, SharedKernelType, KernelType, Deterministic, TilingStruct };

// One ASCENDC_TPL_*_DECL or ASCENDC_TPL_*_SEL entry as written.
struct Param {
    const char* name;
    Kind kind;
    uint32_t bits;
    std::vector<uint64_t> vals;
};

inline const char* KindName(Kind k) {
    static const char* const names[] = {"DTYPE",  "DATATYPE",           "FORMAT",      "UINT",         "BOOL",
                                        "SHARED_KERNEL_TYPE", "KERNEL_TYPE", "DETERMINISTIC", "TILING_STRUCT"};
    return names[static_cast<int>(k)];
}

constexpr uint64_t kIoRef = 100000000;  // ASCENDC_TPL_INPUT(0)

// `v` as a message shows it: data types with their C_DT_* name.
inline std::string ValueText(Kind k, uint64_t v) {
    static const std::pair<uint64_t, const char*> types[] = {
        {0, "FLOAT"}, {1, "FLOAT16"}, {2, "INT8"},    {3, "INT32"},  {4, "UINT8"},      {6, "INT16"},
        {7, "UINT16"}, {8, "UINT32"}, {9, "INT64"},   {10, "UINT64"}, {11, "DOUBLE"},   {12, "BOOL"},
        {16, "COMPLEX64"}, {27, "BF16"}, {29, "INT4"}, {34, "HIFLOAT8"}, {35, "FLOAT8_E5M2"}, {36, "FLOAT8_E4M3FN"}};
    std::string s = std::to_string(v);
    if (k == Kind::Datatype) {
        for (const auto& t : types) {
            if (t.first == v) {
                return s + " (C_DT_" + t.second + ")";
            }
        }
    }
    return s;
}

inline std::string ListText(Kind k, const std::vector<uint64_t>& vals) {
    std::string s;
    for (uint64_t v : vals) {
        s += (s.empty() ? "" : ", ") + ValueText(k, v);
    }
    return s;
}

// The values a parameter allows, UINT ranges expanded; `open` when a DATATYPE / FORMAT
// declaration names only inputs / outputs (any value, as its combinations select).
inline std::vector<uint64_t> Values(const Param& p, const std::string& where, bool* open = nullptr) {
    std::string at = where + ": ASCENDC_TPL_" + KindName(p.kind) + "(" + p.name + ")";
    std::vector<uint64_t> out;
    if (p.kind == Kind::Uint) {
        if (p.vals.size() < 2) {
            ascendc_host::Fail(at + " needs a mode (ASCENDC_TPL_UI_RANGE, _LIST or _MIX) and values");
        }
        uint64_t mode = p.vals[0];
        if (mode == ASCENDC_TPL_UI_LIST) {
            out.assign(p.vals.begin() + 1, p.vals.end());
        } else if (mode == ASCENDC_TPL_UI_RANGE || mode == ASCENDC_TPL_UI_MIX) {
            uint64_t ranges = p.vals[1];
            if (2 + 2 * ranges > p.vals.size() || (mode == ASCENDC_TPL_UI_RANGE && 2 + 2 * ranges != p.vals.size())) {
                ascendc_host::Fail(at + " announces " + std::to_string(ranges) + " ranges but gives " +
                                   std::to_string(p.vals.size() - 2) + " values after the count");
            }
            for (uint64_t r = 0; r < ranges; ++r) {
                uint64_t first = p.vals[2 + 2 * r], last = p.vals[3 + 2 * r];
                if (first > last || last - first > 65535) {
                    ascendc_host::Fail(at + ": range {" + std::to_string(first) + ", " + std::to_string(last) +
                                       "} is empty or longer than 65536 values");
                }
                for (uint64_t v = first; v <= last; ++v) {
                    out.push_back(v);
                }
            }
            out.insert(out.end(), p.vals.begin() + 2 + 2 * ranges, p.vals.end());
        } else {
            ascendc_host::Fail(at + ": mode " + std::to_string(mode) +
                               " is not ASCENDC_TPL_UI_RANGE, ASCENDC_TPL_UI_LIST or ASCENDC_TPL_UI_MIX");
        }
    } else {
        for (uint64_t v : p.vals) {
            if ((p.kind == Kind::Datatype || p.kind == Kind::Format) && v >= kIoRef) {
                continue;
            }
            out.push_back(v);
        }
        if (open != nullptr) {
            *open = out.empty() && !p.vals.empty();
        }
    }
    if (out.empty() && (open == nullptr || !*open)) {
        ascendc_host::Fail(at + " has no values");
    }
    for (size_t i = 0; i < out.size(); ++i) {
        for (size_t j = 0; j < i; ++j) {
            if (out[i] == out[j]) {
                ascendc_host::Fail(at + " lists " + ValueText(p.kind, out[i]) + " twice");
            }
        }
        if (p.kind == Kind::Bool && out[i] > 1) {
            ascendc_host::Fail(at + ": " + std::to_string(out[i]) + " is not a bool (0 or 1)");
        }
        if (p.kind != Kind::Uint && p.bits < 64 && out[i] >> p.bits != 0) {
            ascendc_host::Fail(at + ": " + std::to_string(out[i]) + " does not fit in its " + std::to_string(p.bits) +
                               " key bits");
        }
    }
    return out;
}

inline bool Has(const std::vector<uint64_t>& vals, uint64_t v) {
    for (uint64_t x : vals) {
        if (x == v) {
            return true;
        }
    }
    return false;
}

// An ASCENDC_TPL_ARGS_DECL with the ASCENDC_TPL_SEL that follows it. Each one registers itself
// so that the host program can decode the tiling key the TilingFunc set (Report).
class Decl {
public:
    Decl(const char* op, std::vector<Param> params) : op_(op), params_(std::move(params)) {
        Registry().push_back(this);
    }

    bool Select(std::vector<std::vector<Param>> combos) {
        combos_ = std::move(combos);
        selected_ = true;
        return true;
    }

    const char* Op() const { return op_; }

    // The key of `args` (one value per declared parameter, in order); fails naming `caller` and
    // `op` unless they are a declared, selected combination.
    uint64_t Key(const char* caller, const char* op, const std::vector<uint64_t>& args) const {
        Check();
        LastUsed() = this;
        std::string at = std::string(caller) + " of " + (op != nullptr ? op : op_);
        if (args.size() != params_.size()) {
            std::string names;
            for (const auto& p : params_) {
                names += (names.empty() ? "" : ", ") + std::string(p.name);
            }
            ascendc_host::Fail(at + ": " + std::to_string(args.size()) + " values for the " +
                               std::to_string(params_.size()) + " template parameters of ASCENDC_TPL_ARGS_DECL(" +
                               op_ + "): " + names);
        }
        for (size_t i = 0; i < args.size(); ++i) {
            const Param& p = params_[i];
            if (!open_[i] && !Has(values_[i], args[i])) {
                ascendc_host::Fail(at + ": " + p.name + " = " + ValueText(p.kind, args[i]) +
                                   " is not a value ASCENDC_TPL_" + KindName(p.kind) + "_DECL(" + p.name +
                                   ") declares (" + ListText(p.kind, values_[i]) + ")");
            }
        }
        std::string why;
        if (!Selected(args, &why)) {
            ascendc_host::Fail(at + ": " + why);
        }
        uint64_t key = 0;
        uint32_t shift = 0;
        for (size_t i = 0; i < args.size(); ++i) {
            uint64_t field = args[i];
            if (params_[i].kind == Kind::Uint) {
                field = 0;
                while (values_[i][field] != args[i]) {
                    ++field;
                }
            }
            key |= shift < 64 ? field << shift : 0;
            shift += params_[i].bits;
        }
        return key;
    }

    // The parameter values `key` encodes, or false with the reason.
    bool Decode(uint64_t key, std::vector<uint64_t>* args, std::string* why) const {
        Check();
        args->clear();
        uint32_t shift = 0;
        for (size_t i = 0; i < params_.size(); ++i) {
            const Param& p = params_[i];
            uint64_t mask = p.bits >= 64 ? ~0ULL : (1ULL << p.bits) - 1;
            uint64_t field = (key >> shift) & mask;
            shift += p.bits;
            if (p.kind == Kind::Uint) {
                if (field >= values_[i].size()) {
                    *why = "tiling key " + std::to_string(key) + " holds index " + std::to_string(field) + " for " +
                           p.name + ", which declares " + std::to_string(values_[i].size()) + " values";
                    return false;
                }
                field = values_[i][field];
            } else if (!open_[i] && !Has(values_[i], field)) {
                *why = "tiling key " + std::to_string(key) + " holds " + p.name + " = " + ValueText(p.kind, field) +
                       ", not a declared value (" + ListText(p.kind, values_[i]) + ")";
                return false;
            }
            args->push_back(field);
        }
        if (shift < 64 && key >> shift != 0) {
            *why = "tiling key " + std::to_string(key) + " has bits above the " + std::to_string(shift) +
                   " the template parameters of ASCENDC_TPL_ARGS_DECL(" + op_ + ") use";
            return false;
        }
        if (!Selected(*args, why)) {
            *why = "tiling key " + std::to_string(key) + ": " + *why;
            return false;
        }
        return true;
    }

    const std::vector<Param>& Params() const { return params_; }

    static std::vector<const Decl*>& Registry() {
        static std::vector<const Decl*> all;
        return all;
    }

    // The declaration that last encoded a key.
    static const Decl*& LastUsed() {
        static const Decl* last = nullptr;
        return last;
    }

private:
    // Expands and checks the declaration and its combinations once.
    void Check() const {
        if (checked_) {
            return;
        }
        checked_ = true;
        std::string decl = std::string("ASCENDC_TPL_ARGS_DECL(") + op_ + ")";
        uint32_t bits = 0;
        for (size_t i = 0; i < params_.size(); ++i) {
            const Param& p = params_[i];
            for (size_t j = 0; j < i; ++j) {
                if (std::string(params_[j].name) == p.name) {
                    ascendc_host::Fail(decl + " declares " + p.name + " twice");
                }
            }
            bool open = false;
            values_.push_back(Values(p, decl, &open));
            open_.push_back(open);
            if (p.kind == Kind::Uint && (p.bits == 0 || (p.bits < 64 && values_[i].size() > (1ULL << p.bits)))) {
                ascendc_host::Fail(decl + ": ASCENDC_TPL_UINT_DECL(" + p.name + ") has " +
                                   std::to_string(values_[i].size()) + " values, more than its " +
                                   std::to_string(p.bits) + " bits can index");
            }
            bits += p.bits;
        }
        if (bits > 64) {
            ascendc_host::Fail(decl + ": the template parameters take " + std::to_string(bits) +
                               " key bits; a tiling key has 64");
        }
        for (size_t c = 0; c < combos_.size(); ++c) {
            std::string at = "ASCENDC_TPL_SEL of " + std::string(op_) + ", combination " + std::to_string(c + 1);
            std::vector<std::vector<uint64_t>> allowed(params_.size());
            std::vector<bool> seen(params_.size(), false);
            for (const Param& s : combos_[c]) {
                if (s.kind == Kind::KernelType || s.kind == Kind::Deterministic || s.kind == Kind::TilingStruct) {
                    continue;
                }
                size_t i = 0;
                while (i < params_.size() && std::string(params_[i].name) != s.name) {
                    ++i;
                }
                if (i == params_.size()) {
                    ascendc_host::Fail(at + ": " + s.name + " is not declared in " + decl);
                }
                if (s.kind != params_[i].kind) {
                    ascendc_host::Fail(at + ": " + s.name + " is selected with ASCENDC_TPL_" + KindName(s.kind) +
                                       "_SEL but declared with ASCENDC_TPL_" + KindName(params_[i].kind) + "_DECL");
                }
                if (seen[i]) {
                    ascendc_host::Fail(at + " selects " + s.name + " twice");
                }
                seen[i] = true;
                allowed[i] = Values(s, at);
                for (uint64_t v : allowed[i]) {
                    if (!open_[i] && !Has(values_[i], v)) {
                        ascendc_host::Fail(at + ": " + s.name + " = " + ValueText(s.kind, v) +
                                           " is not a value its declaration has (" +
                                           ListText(s.kind, values_[i]) + ")");
                    }
                }
            }
            for (size_t i = 0; i < params_.size(); ++i) {
                if (!seen[i]) {
                    ascendc_host::Fail(at + " does not select " + params_[i].name);
                }
            }
            allowed_.push_back(std::move(allowed));
        }
    }

    // True when `args` is one of the selected combinations (any declared one without ASCENDC_TPL_SEL).
    bool Selected(const std::vector<uint64_t>& args, std::string* why) const {
        if (!selected_) {
            return true;
        }
        for (const auto& combo : allowed_) {
            bool all = true;
            for (size_t i = 0; i < args.size() && all; ++i) {
                all = Has(combo[i], args[i]);
            }
            if (all) {
                return true;
            }
        }
        for (size_t i = 0; i < args.size(); ++i) {
            bool any = false;
            std::vector<uint64_t> there;
            for (const auto& combo : allowed_) {
                any = any || Has(combo[i], args[i]);
                for (uint64_t v : combo[i]) {
                    if (!Has(there, v)) {
                        there.push_back(v);
                    }
                }
            }
            if (!any) {
                *why = std::string(params_[i].name) + " = " + ValueText(params_[i].kind, args[i]) +
                       " is in no ASCENDC_TPL_ARGS_SEL combination (they select " + params_[i].name + " = " +
                       ListText(params_[i].kind, there) + ")";
                return false;
            }
        }
        std::string text;
        for (size_t i = 0; i < args.size(); ++i) {
            text += (i == 0 ? "" : ", ") + std::string(params_[i].name) + " = " + ValueText(params_[i].kind, args[i]);
        }
        *why = text + " is not a combination ASCENDC_TPL_SEL selects (each value is in some combination, "
                      "not all of them in one)";
        return false;
    }

    const char* op_;
    std::vector<Param> params_;
    std::vector<std::vector<Param>> combos_;
    bool selected_ = false;
    mutable bool checked_ = false;
    mutable std::vector<std::vector<uint64_t>> values_;
    mutable std::vector<bool> open_;
    mutable std::vector<std::vector<std::vector<uint64_t>>> allowed_;
};

template <typename... A>
uint64_t Key(const Decl& decl, const char* caller, const char* op, A... args) {
    return decl.Key(caller, op, {static_cast<uint64_t>(args)...});
}

// For `ascendc op run`: the template arguments `key` decodes to with the declaration of operator
// `type` (`tpl_arg NAME type|value N` lines, in declaration order), or why it does not
// (`tpl_error …`); nothing when op_host declares no tiling template.
inline void Report(std::ostream& out, const std::string& type, uint64_t key) {
    const Decl* decl = Decl::LastUsed();
    const auto& all = Decl::Registry();
    for (size_t i = 0; decl == nullptr && i < all.size(); ++i) {
        if (type == all[i]->Op()) {
            decl = all[i];
        }
    }
    if (decl == nullptr && !all.empty()) {
        decl = all[0];
        for (const Decl* d : all) {
            if (std::string(d->Op()) != all[0]->Op()) {
                out << "tpl_error op_host has tiling templates for " << all[0]->Op() << " and " << d->Op()
                    << ", none named " << type << " and its TilingFunc encoded no key with them\n";
                return;
            }
        }
    }
    if (decl == nullptr) {
        return;
    }
    std::vector<uint64_t> args;
    std::string why;
    if (!decl->Decode(key, &args, &why)) {
        out << "tpl_error " << why << " (ASCENDC_TPL_ARGS_DECL(" << decl->Op() << "))\n";
        return;
    }
    for (size_t i = 0; i < args.size(); ++i) {
        const Param& p = decl->Params()[i];
        out << "tpl_arg " << p.name << (p.kind == Kind::Datatype ? " type " : " value ") << args[i] << "\n";
    }
}

}  // namespace tpl
}  // namespace ascendc_host

#define ASCENDC_TPL_DTYPE_DECL(x, ...) ::ascendc_host::tpl::Param{#x, ::ascendc_host::tpl::Kind::Dtype, 8, {__VA_ARGS__}}
#define ASCENDC_TPL_DATATYPE_DECL(x, ...) \
    ::ascendc_host::tpl::Param{#x, ::ascendc_host::tpl::Kind::Datatype, 8, {__VA_ARGS__}}
#define ASCENDC_TPL_FORMAT_DECL(x, ...) ::ascendc_host::tpl::Param{#x, ::ascendc_host::tpl::Kind::Format, 8, {__VA_ARGS__}}
#define ASCENDC_TPL_UINT_DECL(x, bw, ...) \
    ::ascendc_host::tpl::Param{#x, ::ascendc_host::tpl::Kind::Uint, static_cast<uint32_t>(bw), {__VA_ARGS__}}
#define ASCENDC_TPL_BOOL_DECL(x, ...) ::ascendc_host::tpl::Param{#x, ::ascendc_host::tpl::Kind::Bool, 1, {__VA_ARGS__}}
#define ASCENDC_TPL_KERNEL_TYPE_DECL(x, ...) \
    ::ascendc_host::tpl::Param{#x, ::ascendc_host::tpl::Kind::SharedKernelType, 8, {__VA_ARGS__}}

#define ASCENDC_TPL_DTYPE_SEL(x, ...) ::ascendc_host::tpl::Param{#x, ::ascendc_host::tpl::Kind::Dtype, 8, {__VA_ARGS__}}
#define ASCENDC_TPL_DATATYPE_SEL(x, ...) \
    ::ascendc_host::tpl::Param{#x, ::ascendc_host::tpl::Kind::Datatype, 8, {__VA_ARGS__}}
#define ASCENDC_TPL_FORMAT_SEL(x, ...) ::ascendc_host::tpl::Param{#x, ::ascendc_host::tpl::Kind::Format, 8, {__VA_ARGS__}}
#define ASCENDC_TPL_UINT_SEL(x, ...) ::ascendc_host::tpl::Param{#x, ::ascendc_host::tpl::Kind::Uint, 64, {__VA_ARGS__}}
#define ASCENDC_TPL_BOOL_SEL(x, ...) ::ascendc_host::tpl::Param{#x, ::ascendc_host::tpl::Kind::Bool, 1, {__VA_ARGS__}}
#define ASCENDC_TPL_SHARED_KERNEL_TYPE_SEL(x, ...) \
    ::ascendc_host::tpl::Param{#x, ::ascendc_host::tpl::Kind::SharedKernelType, 8, {__VA_ARGS__}}
#define ASCENDC_TPL_KERNEL_TYPE_SEL(...) \
    ::ascendc_host::tpl::Param{"kernel_type", ::ascendc_host::tpl::Kind::KernelType, 0, {__VA_ARGS__}}
#define ASCENDC_TPL_DETERMINISTIC_SEL(...) \
    ::ascendc_host::tpl::Param{"deterministic", ::ascendc_host::tpl::Kind::Deterministic, 0, {__VA_ARGS__}}
#define ASCENDC_TPL_TILING_STRUCT_SEL(x, ...) \
    ::ascendc_host::tpl::Param{#x, ::ascendc_host::tpl::Kind::TilingStruct, 0, {}}

#define ASCENDC_TPL_ARGS_DECL(x, ...) static ::ascendc_host::tpl::Decl g_tilingDeclareParams{#x, {__VA_ARGS__}}
#define ASCENDC_TPL_ARGS_SEL(...) \
    std::vector<::ascendc_host::tpl::Param> { __VA_ARGS__ }
#define ASCENDC_TPL_SEL(...) \
    [[maybe_unused]] static const bool g_tilingSelectParams = g_tilingDeclareParams.Select({__VA_ARGS__})

#define GET_TPL_TILING_KEY(...) ::ascendc_host::tpl::Key(g_tilingDeclareParams, "GET_TPL_TILING_KEY", nullptr, __VA_ARGS__)
#define ASCENDC_TPL_SEL_PARAM(context, ...)                                                             \
    do {                                                                                                \
        (context)->SetTilingKey(::ascendc_host::tpl::Key(g_tilingDeclareParams, "ASCENDC_TPL_SEL_PARAM", \
                                                         (context)->GetNodeType(), __VA_ARGS__));        \
    } while (0)

#endif
