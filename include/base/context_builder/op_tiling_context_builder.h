// gert::OpTilingContextBuilder: builds, in-process, the gert::TilingContext an operator's
// TilingFunc receives — the inputs and outputs (shapes, data types, formats, host data of const
// inputs), attributes in definition order, the compile info object, the platform and the tiling
// buffer — for kernel and tiling unit tests, which then run the TilingFunc registered with
// IMPL_OP_OPTILING (gert::DefaultOpImplSpaceRegistryV2, base/registry/op_impl_space_registry_v2.h)
// and read the tiling key, block dim, workspace sizes and tiling bytes from the context.
// Written on the simulator's own contexts (ascendc/host/context.h), the ones `ascendc op run`
// builds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ascendc/host/context.h"
#include "ascendc/host/ge_types.h"
#include "ascendc/host/platform_infos.h"

namespace gert {

// Owns a built context and everything it points into; GetContext() is valid while it lives.
template <typename T>
class ContextHolder {
public:
    ContextHolder() = default;
    ContextHolder(ContextHolder&&) = default;
    ContextHolder& operator=(ContextHolder&&) = default;
    T* GetContext() const { return context_.get(); }

    // Parts the builder hands over.
    std::unique_ptr<OpIo> io_;
    std::unique_ptr<fe::PlatFormInfos> platform_;
    std::unique_ptr<T> context_;
};

class OpTilingContextBuilder {
public:
    OpTilingContextBuilder& OpType(const char* type) {
        type_ = type == nullptr ? "" : type;
        return *this;
    }
    // The node name (the contexts report the type as the name too).
    OpTilingContextBuilder& OpName(const char* name) {
        name_ = name == nullptr ? "" : name;
        return *this;
    }
    // `inputNum` definition inputs and `outputNum` outputs of one instance each.
    OpTilingContextBuilder& IONum(size_t inputNum, size_t outputNum) {
        inInstances_.assign(inputNum, 1);
        outInstances_.assign(outputNum, 1);
        return *this;
    }
    // Instances per definition input / output: a DYNAMIC input has its list's length, an absent
    // OPTIONAL input 0. The tensor lists then hold the instances in order.
    OpTilingContextBuilder& IOInstanceNum(const std::vector<uint32_t>& inputs, const std::vector<uint32_t>& outputs) {
        inInstances_ = inputs;
        outInstances_ = outputs;
        return *this;
    }
    // Attributes in the order the operator defines them (GetAttrs()->Get…(index)).
    OpTilingContextBuilder& AppendAttr(bool v) { return Push(Attr(AttrKind::Bool), [&](AttrValue& a) { a.b = v; }); }
    OpTilingContextBuilder& AppendAttr(int64_t v) { return Push(Attr(AttrKind::Int), [&](AttrValue& a) { a.i = v; }); }
    OpTilingContextBuilder& AppendAttr(int32_t v) { return AppendAttr(static_cast<int64_t>(v)); }
    OpTilingContextBuilder& AppendAttr(float v) { return Push(Attr(AttrKind::Float), [&](AttrValue& a) { a.f = v; }); }
    OpTilingContextBuilder& AppendAttr(const ge::AscendString& v) {
        return Push(Attr(AttrKind::Str), [&](AttrValue& a) { a.s = v.GetString(); });
    }
    OpTilingContextBuilder& AppendAttr(const char* v) { return AppendAttr(ge::AscendString(v)); }
    OpTilingContextBuilder& AppendAttr(const std::vector<bool>& v) {
        return Push(Attr(AttrKind::ListBool), [&](AttrValue& a) { a.lb = TypedContinuousVector<bool>(v); });
    }
    OpTilingContextBuilder& AppendAttr(const std::vector<int64_t>& v) {
        return Push(Attr(AttrKind::ListInt), [&](AttrValue& a) { a.li = TypedContinuousVector<int64_t>(v); });
    }
    OpTilingContextBuilder& AppendAttr(const std::vector<float>& v) {
        return Push(Attr(AttrKind::ListFloat), [&](AttrValue& a) { a.lf = TypedContinuousVector<float>(v); });
    }
    // Lists of strings and lists of int lists are not modelled by the contexts: such an attribute
    // takes its place in the order and reads as a string naming what it was.
    OpTilingContextBuilder& AppendAttr(const std::vector<ge::AscendString>&) {
        return Push(Attr(AttrKind::Str), [&](AttrValue& a) { a.s = "<list of strings: not modelled>"; });
    }
    OpTilingContextBuilder& AppendAttr(const std::vector<std::vector<int64_t>>&) {
        return Push(Attr(AttrKind::Str), [&](AttrValue& a) { a.s = "<list of int lists: not modelled>"; });
    }
    // The input / output tensors, one per instance (a null input: an absent OPTIONAL one). The
    // tensors are copied; const inputs keep pointing at their host data.
    OpTilingContextBuilder& InputTensors(const std::vector<Tensor*>& tensors) {
        inputs_ = tensors;
        return *this;
    }
    OpTilingContextBuilder& OutputTensors(const std::vector<Tensor*>& tensors) {
        outputs_ = tensors;
        return *this;
    }
    // The compile info object GetCompileInfo<T>() returns (the caller keeps it alive).
    OpTilingContextBuilder& CompileInfo(const void* compileInfo) {
        compileInfo_ = compileInfo;
        return *this;
    }
    // A fe::PlatFormInfos the caller owns; without one the context gets the simulated product's.
    OpTilingContextBuilder& PlatformInfo(const void* platformInfo) {
        platform_ = static_cast<fe::PlatFormInfos*>(const_cast<void*>(platformInfo));
        return *this;
    }
    OpTilingContextBuilder& Deterministic(int32_t deterministic) {
        deterministic_ = deterministic;
        return *this;
    }
    // The tiling buffer's capacity is this buffer's (TilingData::CreateCap); the context writes
    // into its own buffer of that size (GetRawTilingData()).
    OpTilingContextBuilder& TilingData(const gert::TilingData* tilingData) {
        if (tilingData != nullptr) {
            tilingCapacity_ = tilingData->GetCapacity();
        }
        return *this;
    }
    // The workspace list (accepted: the context keeps the sizes the TilingFunc sets).
    OpTilingContextBuilder& Workspace(const gert::ContinuousVector*) { return *this; }

    ContextHolder<TilingContext> Build() {
        ContextHolder<TilingContext> holder;
        holder.io_.reset(new OpIo());
        OpIo& io = *holder.io_;
        io.type = type_;
        std::vector<uint32_t> inInstances = inInstances_;
        if (inInstances.empty()) {
            inInstances.assign(inputs_.size(), 1);
        }
        size_t start = 0;
        for (uint32_t n : inInstances) {
            io.irInputs.emplace_back(start, n);
            start += n;
        }
        if (start != inputs_.size()) {
            ascendc_host::Fail("OpTilingContextBuilder::Build: " + std::to_string(inputs_.size()) +
                               " input tensors for " + std::to_string(start) + " input instances");
        }
        for (size_t i = 0; i < inputs_.size(); ++i) {
            const Tensor* t = inputs_[i];
            io.inNames.push_back("input" + std::to_string(i));
            io.inPresent.push_back(t != nullptr);
            io.inShapes.push_back(t == nullptr ? StorageShape() : t->GetShape());
            io.inDescs.push_back(t == nullptr ? CompileTimeTensorDesc() : CompileTimeTensorDesc(t->GetDataType(), t->GetFormat()));
            io.inTensors.push_back(t == nullptr ? Tensor() : *t);
        }
        for (size_t i = 0; i < outputs_.size(); ++i) {
            const Tensor* t = outputs_[i];
            io.outNames.push_back("output" + std::to_string(i));
            io.outShapes.push_back(t == nullptr ? StorageShape() : t->GetShape());
            io.outDescs.push_back(t == nullptr ? CompileTimeTensorDesc() : CompileTimeTensorDesc(t->GetDataType(), t->GetFormat()));
        }
        io.attrs = RuntimeAttrs(attrs_);
        fe::PlatFormInfos* platform = platform_;
        if (platform == nullptr) {
            holder.platform_.reset(new fe::PlatFormInfos());
            holder.platform_->Init();
            platform = holder.platform_.get();
        }
        holder.context_.reset(new TilingContext(holder.io_.get(), platform, tilingCapacity_));
        // The caller's object, of the type the TilingFunc reads (its size is not known here).
        holder.context_->AscendcSetCompileInfo(compileInfo_, compileInfo_ == nullptr ? 0 : std::numeric_limits<size_t>::max());
        return holder;
    }

private:
    AttrValue Attr(AttrKind kind) const {
        AttrValue a;
        a.name = "attr" + std::to_string(attrs_.size());
        a.kind = kind;
        return a;
    }
    template <typename F>
    OpTilingContextBuilder& Push(AttrValue a, F&& set) {
        set(a);
        attrs_.push_back(std::move(a));
        return *this;
    }

    std::string type_;
    std::string name_;
    std::vector<uint32_t> inInstances_;
    std::vector<uint32_t> outInstances_;
    std::vector<AttrValue> attrs_;
    std::vector<Tensor*> inputs_;
    std::vector<Tensor*> outputs_;
    const void* compileInfo_ = nullptr;
    fe::PlatFormInfos* platform_ = nullptr;
    int32_t deterministic_ = 0;
    size_t tilingCapacity_ = 64 * 1024;
};

}  // namespace gert
