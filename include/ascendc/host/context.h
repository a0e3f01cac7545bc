// gert: the contexts host-side operator functions receive — shapes, tensors, attributes, the
// tiling context (block dim, tiling key, workspace sizes, raw tiling data, platform) and the
// InferShape / InferDataType contexts. `ascendc op run` builds them from the command's inputs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <memory>
#include <type_traits>
#include <string>
#include <utility>
#include <vector>

#include "fail.h"
#include "ge_shape.h"
#include "ge_types.h"
#include "platform_infos.h"

namespace gert {

// A tensor shape of up to kMaxDimNum dimensions.
class Shape {
public:
    static constexpr size_t kMaxDimNum = 25;
    static constexpr int64_t kInvalidDimValue = INT64_MIN;

    Shape() = default;
    Shape(std::initializer_list<int64_t> dims) {
        for (int64_t d : dims) {
            AppendDim(d);
        }
    }

    size_t GetDimNum() const { return dimNum_; }
    void SetDimNum(size_t n) {
        if (n > kMaxDimNum) {
            ascendc_host::Fail("Shape::SetDimNum(" + std::to_string(n) + "): at most " + std::to_string(kMaxDimNum) + " dimensions");
        }
        dimNum_ = n;
    }
    // Dimension `i`; kInvalidDimValue past the last dimension.
    int64_t GetDim(size_t i) const { return i < dimNum_ ? dims_[i] : kInvalidDimValue; }
    void SetDim(size_t i, int64_t v) {
        if (i >= dimNum_) {
            ascendc_host::Fail("Shape::SetDim(" + std::to_string(i) + "): the shape has " + std::to_string(dimNum_) + " dimensions (SetDimNum first)");
        }
        dims_[i] = v;
    }
    Shape& AppendDim(int64_t v) {
        if (dimNum_ == kMaxDimNum) {
            ascendc_host::Fail("Shape::AppendDim: at most " + std::to_string(kMaxDimNum) + " dimensions");
        }
        dims_[dimNum_++] = v;
        return *this;
    }
    // Product of the dimensions (1 for a scalar); -1 when a dimension is negative (unknown).
    int64_t GetShapeSize() const {
        int64_t n = 1;
        for (size_t i = 0; i < dimNum_; ++i) {
            if (dims_[i] < 0) {
                return -1;
            }
            n *= dims_[i];
        }
        return n;
    }
    bool IsScalar() const { return dimNum_ == 0; }
    const int64_t& operator[](size_t i) const { return dims_[Checked(i)]; }
    int64_t& operator[](size_t i) { return dims_[Checked(i)]; }
    bool operator==(const Shape& o) const {
        if (dimNum_ != o.dimNum_) {
            return false;
        }
        for (size_t i = 0; i < dimNum_; ++i) {
            if (dims_[i] != o.dims_[i]) {
                return false;
            }
        }
        return true;
    }
    bool operator!=(const Shape& o) const { return !(*this == o); }

private:
    static size_t Checked(size_t i) {
        if (i >= kMaxDimNum) {
            ascendc_host::Fail("Shape[" + std::to_string(i) + "]: at most " + std::to_string(kMaxDimNum) + " dimensions");
        }
        return i;
    }
    size_t dimNum_ = 0;
    int64_t dims_[kMaxDimNum] = {};
};

// The shape a tensor has as the framework sees it (origin) and as stored (storage); equal for
// ND data.
class StorageShape {
public:
    StorageShape() = default;
    StorageShape(std::initializer_list<int64_t> origin, std::initializer_list<int64_t> storage)
        : origin_(origin), storage_(storage) {}
    explicit StorageShape(const Shape& s) : origin_(s), storage_(s) {}
    const Shape& GetOriginShape() const { return origin_; }
    const Shape& GetStorageShape() const { return storage_; }
    Shape& MutableOriginShape() { return origin_; }
    Shape& MutableStorageShape() { return storage_; }
    bool operator==(const StorageShape& o) const { return origin_ == o.origin_ && storage_ == o.storage_; }

private:
    Shape origin_;
    Shape storage_;
};

// How a shape was padded to the storage format's rank (accepted; ND data has none).
class ExpandDimsType {
public:
    ExpandDimsType() = default;
    explicit ExpandDimsType(int64_t) {}
    explicit ExpandDimsType(const char*) {}
};

// Where a tensor's data is (kernel unit tests build host tensors).
enum class TensorPlacement { kOnDeviceHbm, kOnHost, kFollowing, kTensorPlacementEnd };

// Origin and storage format of a tensor.
class StorageFormat {
public:
    StorageFormat() = default;
    StorageFormat(ge::Format origin, ge::Format storage) : origin_(origin), storage_(storage) {}
    StorageFormat(ge::Format origin, ge::Format storage, const ExpandDimsType&) : origin_(origin), storage_(storage) {}
    ge::Format GetOriginFormat() const { return origin_; }
    ge::Format GetStorageFormat() const { return storage_; }

private:
    ge::Format origin_ = ge::FORMAT_ND;
    ge::Format storage_ = ge::FORMAT_ND;
};

// Data type and formats of an input or output.
class CompileTimeTensorDesc {
public:
    CompileTimeTensorDesc() = default;
    explicit CompileTimeTensorDesc(ge::DataType dt) : dtype_(dt) {}
    CompileTimeTensorDesc(ge::DataType dt, const StorageFormat& format) : dtype_(dt), format_(format) {}
    ge::DataType GetDataType() const { return dtype_; }
    void SetDataType(ge::DataType dt) { dtype_ = dt; }
    ge::Format GetOriginFormat() const { return format_.GetOriginFormat(); }
    ge::Format GetStorageFormat() const { return format_.GetStorageFormat(); }
    const StorageFormat& GetFormat() const { return format_; }

private:
    ge::DataType dtype_ = ge::DT_UNDEFINED;
    StorageFormat format_;
};

// A tensor: shape, type, format and (for inputs) the data read from the input file.
class Tensor {
public:
    Tensor() = default;
    Tensor(const StorageShape& shape, ge::DataType dt, const void* data, size_t bytes)
        : shape_(shape), dtype_(dt), data_(data), bytes_(bytes) {}
    // The form kernel unit tests build: `addr` (may be null) holds the shape's elements.
    Tensor(const StorageShape& shape, const StorageFormat& format, TensorPlacement, ge::DataType dt, void* addr)
        : shape_(shape), dtype_(dt), format_(format), data_(addr),
          bytes_(addr == nullptr || shape.GetStorageShape().GetShapeSize() < 0
                     ? 0
                     : static_cast<size_t>(ge::GetSizeInBytes(shape.GetStorageShape().GetShapeSize(), dt))) {}
    const Shape& GetOriginShape() const { return shape_.GetOriginShape(); }
    const Shape& GetStorageShape() const { return shape_.GetStorageShape(); }
    const StorageShape& GetShape() const { return shape_; }
    int64_t GetShapeSize() const { return shape_.GetStorageShape().GetShapeSize(); }
    ge::DataType GetDataType() const { return dtype_; }
    const StorageFormat& GetFormat() const { return format_; }
    ge::Format GetOriginFormat() const { return format_.GetOriginFormat(); }
    ge::Format GetStorageFormat() const { return format_.GetStorageFormat(); }
    size_t GetSize() const { return bytes_; }
    const void* GetAddr() const { return data_; }
    template <typename T>
    const T* GetData() const { return static_cast<const T*>(data_); }

private:
    StorageShape shape_;
    ge::DataType dtype_ = ge::DT_UNDEFINED;
    StorageFormat format_;
    const void* data_ = nullptr;
    size_t bytes_ = 0;
};

// A list attribute's values, untyped: GetSize() elements at GetData() (what
// GetAttrPointer<gert::ContinuousVector> returns; cast GetData() to the element type).
class ContinuousVector {
public:
    // An empty vector with room for `capacity` elements of T (a unit test's workspace list).
    template <typename T>
    static std::unique_ptr<ContinuousVector> Create(size_t capacity) {
        std::unique_ptr<ContinuousVector> v(new ContinuousVector());
        v->bytes_.resize(capacity * sizeof(T));
        return v;
    }
    size_t GetSize() const { return size_; }
    size_t GetCapacity() const { return size_; }
    const void* GetData() const { return bytes_.data(); }

protected:
    std::vector<uint8_t> bytes_;
    size_t size_ = 0;
};

// A list attribute's values of type T.
template <typename T>
class TypedContinuousVector : public ContinuousVector {
public:
    TypedContinuousVector() = default;
    explicit TypedContinuousVector(const std::vector<T>& v) {
        size_ = v.size();
        bytes_.resize(v.size() * sizeof(T));
        for (size_t i = 0; i < v.size(); ++i) {
            T x = v[i];
            std::memcpy(bytes_.data() + i * sizeof(T), &x, sizeof(T));
        }
    }
    const T* GetData() const { return reinterpret_cast<const T*>(bytes_.data()); }
};

// Kinds of attribute values.
enum class AttrKind { Bool, Int, Float, Str, ListBool, ListInt, ListFloat };

// One attribute value as `ascendc op run` passes it.
struct AttrValue {
    std::string name;
    AttrKind kind = AttrKind::Int;
    bool b = false;
    int64_t i = 0;
    float f = 0;
    std::string s;
    TypedContinuousVector<bool> lb;
    TypedContinuousVector<int64_t> li;
    TypedContinuousVector<float> lf;
};

const char* AttrKindName(AttrKind k);

// The operator's attributes, indexed in definition order.
class RuntimeAttrs {
public:
    RuntimeAttrs() = default;
    explicit RuntimeAttrs(std::vector<AttrValue> v) : v_(std::move(v)) {}
    size_t GetAttrNum() const { return v_.size(); }
    const int64_t* GetInt(size_t i) const { return &At(i, AttrKind::Int, "GetInt").i; }
    const float* GetFloat(size_t i) const { return &At(i, AttrKind::Float, "GetFloat").f; }
    const bool* GetBool(size_t i) const { return &At(i, AttrKind::Bool, "GetBool").b; }
    const char* GetStr(size_t i) const { return At(i, AttrKind::Str, "GetStr").s.c_str(); }
    const TypedContinuousVector<int64_t>* GetListInt(size_t i) const { return &At(i, AttrKind::ListInt, "GetListInt").li; }
    const TypedContinuousVector<float>* GetListFloat(size_t i) const { return &At(i, AttrKind::ListFloat, "GetListFloat").lf; }
    const TypedContinuousVector<bool>* GetListBool(size_t i) const { return &At(i, AttrKind::ListBool, "GetListBool").lb; }
    // The attribute's value as T: an int attribute as int64_t or a narrower integer / enum type
    // (its value must fit), float, bool, char (a string), gert::ContinuousVector or
    // gert::TypedContinuousVector<E> (a list). Defined below.
    template <typename T>
    const T* GetAttrPointer(size_t i) const;

private:
    const AttrValue& At(size_t i, AttrKind want, const char* api) const {
        if (i >= v_.size()) {
            ascendc_host::Fail(std::string("GetAttrs()->") + api + "(" + std::to_string(i) + "): the operator has " +
                               std::to_string(v_.size()) + " attributes (indexes 0.." +
                               (v_.empty() ? std::string("none") : std::to_string(v_.size() - 1)) + ")");
        }
        if (v_[i].kind != want) {
            ascendc_host::Fail(std::string("GetAttrs()->") + api + "(" + std::to_string(i) + "): attribute '" + v_[i].name +
                               "' is " + AttrKindName(v_[i].kind) + ", not " + AttrKindName(want));
        }
        return v_[i];
    }
    std::vector<AttrValue> v_;
};

inline const char* AttrKindName(AttrKind k) {
    switch (k) {
        case AttrKind::Bool: return "bool";
        case AttrKind::Int: return "int";
        case AttrKind::Float: return "float";
        case AttrKind::Str: return "string";
        case AttrKind::ListBool: return "list of bool";
        case AttrKind::ListInt: return "list of int";
        case AttrKind::ListFloat: return "list of float";
    }
    return "?";
}

namespace detail {
template <typename T>
struct IsTypedVector : std::false_type {};
template <typename E>
struct IsTypedVector<TypedContinuousVector<E>> : std::true_type {
    using Element = E;
};
}  // namespace detail

template <typename T>
const T* RuntimeAttrs::GetAttrPointer(size_t i) const {
    if constexpr (std::is_same<T, float>::value) {
        return GetFloat(i);
    } else if constexpr (std::is_same<T, bool>::value) {
        return GetBool(i);
    } else if constexpr (std::is_same<T, char>::value) {
        return GetStr(i);
    } else if constexpr (std::is_same<T, ContinuousVector>::value) {
        if (i < v_.size() && v_[i].kind == AttrKind::ListFloat) return GetListFloat(i);
        if (i < v_.size() && v_[i].kind == AttrKind::ListBool) return GetListBool(i);
        return GetListInt(i);
    } else if constexpr (detail::IsTypedVector<T>::value) {
        using E = typename detail::IsTypedVector<T>::Element;
        if constexpr (std::is_same<E, int64_t>::value) {
            return GetListInt(i);
        } else if constexpr (std::is_same<E, float>::value) {
            return GetListFloat(i);
        } else if constexpr (std::is_same<E, bool>::value) {
            return GetListBool(i);
        } else {
            static_assert(sizeof(E) == 0, "GetAttrPointer<TypedContinuousVector<E>>: E is int64_t, float or bool");
            return nullptr;
        }
    } else if constexpr (std::is_integral<T>::value || std::is_enum<T>::value) {
        static_assert(sizeof(T) <= sizeof(int64_t), "GetAttrPointer<T>: integer types up to 64 bits");
        const int64_t* p = GetInt(i);
        if (sizeof(T) < sizeof(int64_t)) {
            using U = typename std::conditional<std::is_enum<T>::value, int32_t, T>::type;
            using Limits = std::numeric_limits<typename std::conditional<std::is_same<U, bool>::value, uint8_t, U>::type>;
            if (*p < static_cast<int64_t>(Limits::min()) || *p > static_cast<int64_t>(Limits::max())) {
                ascendc_host::Fail("GetAttrs()->GetAttrPointer<" + std::to_string(sizeof(T) * 8) + "-bit type>(" +
                                   std::to_string(i) + "): attribute '" + v_[i].name + "' is " + std::to_string(*p) +
                                   ", which does not fit (read it as int64_t)");
            }
        }
        // Integer attributes are stored as int64_t; a narrower type reads its low bytes
        // (little-endian host), as the framework's does.
        return reinterpret_cast<const T*>(p);
    } else {
        static_assert(sizeof(T) == 0,
                      "GetAttrPointer<T>: T is an integer, float, bool, char (a string) or a ContinuousVector (a list)");
        return nullptr;
    }
}

// The raw tiling buffer: the TilingFunc saves its tiling struct into GetData() (GetCapacity()
// bytes) and declares the size with SetDataSize.
class TilingData {
public:
    explicit TilingData(size_t capacity) : buf_(capacity) {}
    // A buffer of `capacity` bytes (kernel unit tests hand it to OpTilingContextBuilder).
    static std::unique_ptr<TilingData> CreateCap(size_t capacity) { return std::unique_ptr<TilingData>(new TilingData(capacity)); }
    void* GetData() { return buf_.data(); }
    const void* GetData() const { return buf_.data(); }
    size_t GetCapacity() const { return buf_.size(); }
    size_t GetDataSize() const { return size_; }
    void SetDataSize(size_t n) {
        if (n > buf_.size()) {
            ascendc_host::Fail("GetRawTilingData()->SetDataSize(" + std::to_string(n) + "): the tiling buffer holds " +
                               std::to_string(buf_.size()) + " bytes (GetCapacity())");
        }
        size_ = n;
    }
    // Appends the bytes of `v` after the declared data.
    template <typename T>
    void Append(const T& v) {
        if (size_ + sizeof(T) > buf_.size()) {
            ascendc_host::Fail("GetRawTilingData()->Append: " + std::to_string(size_ + sizeof(T)) +
                               " bytes exceed the tiling buffer's " + std::to_string(buf_.size()));
        }
        std::memcpy(buf_.data() + size_, &v, sizeof(T));
        size_ += sizeof(T);
    }
    std::vector<uint8_t>& Bytes() { return buf_; }

private:
    std::vector<uint8_t> buf_;
    size_t size_ = 0;
};

// Where one definition (IR) input's instances are in the input lists: a DYNAMIC input has
// as many as were given, every other input one (absent when an OPTIONAL input was not given).
class AnchorInstanceInfo {
public:
    AnchorInstanceInfo() = default;
    AnchorInstanceInfo(size_t start, size_t num) : start_(start), num_(num) {}
    size_t GetInstanceStart() const { return start_; }
    size_t GetInstanceNum() const { return num_; }

private:
    size_t start_ = 0;
    size_t num_ = 0;
};

// Inputs and outputs of one operator call, shared by the contexts below. The input lists hold
// one entry per instance (a DYNAMIC input contributes each tensor of its list).
struct OpIo {
    std::string type;
    // Per definition input: its instances in the lists below.
    std::vector<AnchorInstanceInfo> irInputs;
    std::vector<StorageShape> inShapes;
    std::vector<CompileTimeTensorDesc> inDescs;
    std::vector<Tensor> inTensors;
    std::vector<std::string> inNames;
    // False for an OPTIONAL input that was not given.
    std::vector<bool> inPresent;
    std::vector<StorageShape> outShapes;
    std::vector<CompileTimeTensorDesc> outDescs;
    std::vector<std::string> outNames;
    RuntimeAttrs attrs;
};

namespace detail {
template <typename T>
T* Index(std::vector<T>& v, size_t i, const char* api, const char* what) {
    if (i >= v.size()) {
        ascendc_host::Fail(std::string(api) + "(" + std::to_string(i) + "): the operator has " + std::to_string(v.size()) +
                           " " + what);
    }
    return &v[i];
}
// Input `i`, which must have been given.
template <typename T>
T* Input(OpIo* io, std::vector<T>& v, size_t i, const char* api) {
    T* p = Index(v, i, api, "inputs");
    if (!io->inPresent[i]) {
        ascendc_host::Fail(std::string(api) + "(" + std::to_string(i) + "): optional input '" + io->inNames[i] +
                           "' was not given (use the GetOptional… form)");
    }
    return p;
}
// Optional input `i`: null when it was not given.
template <typename T>
T* Optional(OpIo* io, std::vector<T>& v, size_t i) {
    return i < v.size() && io->inPresent[i] ? &v[i] : nullptr;
}
// Instance `rel` of definition input `ir` (a DYNAMIC input's list): null past the list's end.
template <typename T>
T* Dynamic(OpIo* io, std::vector<T>& v, size_t ir, size_t rel, const char* api) {
    if (ir >= io->irInputs.size()) {
        ascendc_host::Fail(std::string(api) + "(" + std::to_string(ir) + ", " + std::to_string(rel) + "): the operator has " +
                           std::to_string(io->irInputs.size()) + " inputs");
    }
    const AnchorInstanceInfo& a = io->irInputs[ir];
    return rel < a.GetInstanceNum() ? Optional(io, v, a.GetInstanceStart() + rel) : nullptr;
}
}  // namespace detail

// The node's input and output counts and where each definition input's instances are.
class ComputeNodeInfo {
public:
    explicit ComputeNodeInfo(const OpIo* io) : io_(io) {}
    const char* GetNodeType() const { return io_->type.c_str(); }
    const char* GetNodeName() const { return io_->type.c_str(); }
    size_t GetIrInputsNum() const { return io_->irInputs.size(); }
    size_t GetInputsNum() const { return io_->inShapes.size(); }
    size_t GetOutputsNum() const { return io_->outShapes.size(); }
    const AnchorInstanceInfo* GetInputInstanceInfo(size_t ir) const {
        return ir < io_->irInputs.size() ? &io_->irInputs[ir] : nullptr;
    }

private:
    const OpIo* io_;
};

// Common readers of the tiling and InferShape contexts.
class OpContextBase {
public:
    explicit OpContextBase(OpIo* io) : io_(io) {}
    const char* GetNodeType() const { return io_->type.c_str(); }
    const char* GetNodeName() const { return io_->type.c_str(); }
    const RuntimeAttrs* GetAttrs() const { return &io_->attrs; }
    size_t GetComputeNodeInputNum() const { return io_->inShapes.size(); }
    size_t GetComputeNodeOutputNum() const { return io_->outShapes.size(); }
    const ComputeNodeInfo* GetComputeNodeInfo() const { return &node_; }
    const AnchorInstanceInfo* GetIrInputInstanceInfo(size_t ir) const { return node_.GetInputInstanceInfo(ir); }

protected:
    OpIo* io_;
    ComputeNodeInfo node_{io_};
};

// What a TilingFunc reads and sets.
class TilingContext : public OpContextBase {
public:
    TilingContext(OpIo* io, fe::PlatFormInfos* platform, size_t tilingCapacity)
        : OpContextBase(io), platform_(platform), tiling_(tilingCapacity) {}

    const StorageShape* GetInputShape(size_t i) const { return detail::Input(io_, io_->inShapes, i, "GetInputShape"); }
    const StorageShape* GetOptionalInputShape(size_t i) const { return detail::Optional(io_, io_->inShapes, i); }
    const Tensor* GetInputTensor(size_t i) const { return detail::Input(io_, io_->inTensors, i, "GetInputTensor"); }
    const Tensor* GetOptionalInputTensor(size_t i) const { return detail::Optional(io_, io_->inTensors, i); }
    const CompileTimeTensorDesc* GetInputDesc(size_t i) const { return detail::Input(io_, io_->inDescs, i, "GetInputDesc"); }
    const CompileTimeTensorDesc* GetOptionalInputDesc(size_t i) const { return detail::Optional(io_, io_->inDescs, i); }
    // Tensor `rel` of the DYNAMIC (list) input `ir`; null past the list's end.
    const StorageShape* GetDynamicInputShape(size_t ir, size_t rel) const {
        return detail::Dynamic(io_, io_->inShapes, ir, rel, "GetDynamicInputShape");
    }
    const CompileTimeTensorDesc* GetDynamicInputDesc(size_t ir, size_t rel) const {
        return detail::Dynamic(io_, io_->inDescs, ir, rel, "GetDynamicInputDesc");
    }
    const Tensor* GetDynamicInputTensor(size_t ir, size_t rel) const {
        return detail::Dynamic(io_, io_->inTensors, ir, rel, "GetDynamicInputTensor");
    }
    const StorageShape* GetOutputShape(size_t i) const { return detail::Index(io_->outShapes, i, "GetOutputShape", "outputs"); }
    const CompileTimeTensorDesc* GetOutputDesc(size_t i) const { return detail::Index(io_->outDescs, i, "GetOutputDesc", "outputs"); }

    ge::graphStatus SetBlockDim(uint32_t n) {
        blockDim_ = n;
        return ge::GRAPH_SUCCESS;
    }
    ge::graphStatus SetSimdNumBlocks(uint32_t n) { return SetBlockDim(n); }
    uint32_t GetBlockDim() const { return blockDim_; }
    ge::graphStatus SetTilingKey(uint64_t key) {
        tilingKey_ = key;
        return ge::GRAPH_SUCCESS;
    }
    uint64_t GetTilingKey() const { return tilingKey_; }
    ge::graphStatus SetNeedAtomic(bool atomic) {
        needAtomic_ = atomic;
        return ge::GRAPH_SUCCESS;
    }
    bool NeedAtomic() const { return needAtomic_; }
    ge::graphStatus SetScheduleMode(uint32_t mode) {
        scheduleMode_ = mode;
        return ge::GRAPH_SUCCESS;
    }
    // `num` workspace sizes in bytes for the TilingFunc to fill; the kernel's workspace argument
    // is one allocation of their sum. The simulator supports one workspace.
    size_t* GetWorkspaceSizes(size_t num) {
        if (num != 1) {
            ascendc_host::Fail("GetWorkspaceSizes(" + std::to_string(num) + "): one workspace is supported (pass 1)");
        }
        if (workspaces_.size() != num) {
            workspaces_.assign(num, 0);
        }
        return workspaces_.data();
    }
    size_t GetWorkspaceNum() const { return workspaces_.size(); }
    const std::vector<size_t>& WorkspaceSizes() const { return workspaces_; }
    TilingData* GetRawTilingData() { return &tiling_; }
    fe::PlatFormInfos* GetPlatformInfo() const { return platform_; }
    template <typename T>
    T* GetTilingData() {
        if (sizeof(T) > tiling_.GetCapacity()) {
            ascendc_host::Fail("GetTilingData<T>(): the struct's " + std::to_string(sizeof(T)) + " bytes exceed the tiling buffer's " +
                               std::to_string(tiling_.GetCapacity()));
        }
        tiling_.SetDataSize(sizeof(T));
        return static_cast<T*>(tiling_.GetData());
    }
    // The compile info object TilingParse filled (IMPL_OP_OPTILING(...).TilingParse<T>); a
    // value-initialized T when the operator registers no TilingParse.
    template <typename T>
    const T* GetCompileInfo() const {
        if (compileInfo_ != nullptr) {
            if (sizeof(T) > compileInfoSize_) {
                ascendc_host::Fail("GetCompileInfo<T>(): T has " + std::to_string(sizeof(T)) + " bytes, the compile info " +
                                   "TilingParse<...> registered has " + std::to_string(compileInfoSize_));
            }
            return static_cast<const T*>(compileInfo_);
        }
        static T info{};
        return &info;
    }
    // The compile info object untyped (null when the operator registers no TilingParse).
    const void* GetCompileInfo() const { return compileInfo_; }
    void AscendcSetCompileInfo(const void* info, size_t bytes) {
        compileInfo_ = info;
        compileInfoSize_ = bytes;
    }
    bool BlockDimSet() const { return blockDim_ != 0; }

private:
    fe::PlatFormInfos* platform_;
    TilingData tiling_;
    uint32_t blockDim_ = 0;
    uint64_t tilingKey_ = 0;
    bool needAtomic_ = false;
    uint32_t scheduleMode_ = 0;
    std::vector<size_t> workspaces_;
    const void* compileInfo_ = nullptr;
    size_t compileInfoSize_ = 0;
};

// What an InferShape function reads (input shapes) and sets (output shapes).
class InferShapeContext : public OpContextBase {
public:
    using OpContextBase::OpContextBase;
    const Shape* GetInputShape(size_t i) const { return &detail::Input(io_, io_->inShapes, i, "GetInputShape")->GetOriginShape(); }
    const Shape* GetOptionalInputShape(size_t i) const {
        const StorageShape* s = detail::Optional(io_, io_->inShapes, i);
        return s == nullptr ? nullptr : &s->GetOriginShape();
    }
    const Tensor* GetInputTensor(size_t i) const { return detail::Input(io_, io_->inTensors, i, "GetInputTensor"); }
    const Tensor* GetOptionalInputTensor(size_t i) const { return detail::Optional(io_, io_->inTensors, i); }
    const CompileTimeTensorDesc* GetInputDesc(size_t i) const { return detail::Input(io_, io_->inDescs, i, "GetInputDesc"); }
    const Shape* GetDynamicInputShape(size_t ir, size_t rel) const {
        const StorageShape* s = detail::Dynamic(io_, io_->inShapes, ir, rel, "GetDynamicInputShape");
        return s == nullptr ? nullptr : &s->GetOriginShape();
    }
    const Tensor* GetDynamicInputTensor(size_t ir, size_t rel) const {
        return detail::Dynamic(io_, io_->inTensors, ir, rel, "GetDynamicInputTensor");
    }
    const CompileTimeTensorDesc* GetDynamicInputDesc(size_t ir, size_t rel) const {
        return detail::Dynamic(io_, io_->inDescs, ir, rel, "GetDynamicInputDesc");
    }
    Shape* GetOutputShape(size_t i) {
        return &detail::Index(io_->outShapes, i, "GetOutputShape", "outputs")->MutableOriginShape();
    }
};

// A shape range (min and max shapes).
template <typename T>
class Range {
public:
    Range() = default;
    Range(T* min, T* max) : min_(min), max_(max) {}
    T* GetMin() const { return min_; }
    T* GetMax() const { return max_; }

private:
    T* min_ = nullptr;
    T* max_ = nullptr;
};

// What an InferShapeRange function receives; registered and not called (shapes are known here).
class InferShapeRangeContext : public OpContextBase {
public:
    using OpContextBase::OpContextBase;
    const Range<Shape>* GetInputShapeRange(size_t) const { return nullptr; }
    Range<Shape>* GetOutputShapeRange(size_t) { return nullptr; }
};

// What an InferDataType function reads (input types) and sets (output types).
class InferDataTypeContext : public OpContextBase {
public:
    using OpContextBase::OpContextBase;
    ge::DataType GetInputDataType(size_t i) const { return detail::Input(io_, io_->inDescs, i, "GetInputDataType")->GetDataType(); }
    ge::DataType GetOptionalInputDataType(size_t i) const {
        const CompileTimeTensorDesc* d = detail::Optional(io_, io_->inDescs, i);
        return d == nullptr ? ge::DT_UNDEFINED : d->GetDataType();
    }
    ge::DataType GetDynamicInputDataType(size_t ir, size_t rel) const {
        const CompileTimeTensorDesc* d = detail::Dynamic(io_, io_->inDescs, ir, rel, "GetDynamicInputDataType");
        return d == nullptr ? ge::DT_UNDEFINED : d->GetDataType();
    }
    ge::DataType GetOutputDataType(size_t i) const {
        return detail::Index(io_->outDescs, i, "GetOutputDataType", "outputs")->GetDataType();
    }
    ge::graphStatus SetOutputDataType(size_t i, ge::DataType dt) {
        detail::Index(io_->outDescs, i, "SetOutputDataType", "outputs")->SetDataType(dt);
        return ge::GRAPH_SUCCESS;
    }
};

// What a TilingParse function receives: the platform, and the compile info object (of the type
// TilingParse<T> names) it fills for the TilingFunc (TilingContext::GetCompileInfo<T>). The host
// program calls TilingParse once, before the TilingFunc.
class TilingParseContext {
public:
    TilingParseContext(const char* type, fe::PlatFormInfos* platform, void* compileInfo, size_t bytes)
        : type_(type), platform_(platform), compileInfo_(compileInfo), compileInfoSize_(bytes) {}
    const char* GetNodeType() const { return type_.c_str(); }
    const char* GetNodeName() const { return type_.c_str(); }
    fe::PlatFormInfos* GetPlatformInfo() const { return platform_; }
    // The compile info object; T must be the type TilingParse<T> registered.
    template <typename T>
    T* GetCompiledInfo() const {
        if (compileInfo_ != nullptr && sizeof(T) > compileInfoSize_) {
            ascendc_host::Fail("GetCompiledInfo<T>(): T has " + std::to_string(sizeof(T)) + " bytes, the compile info " +
                               "TilingParse<...> registered has " + std::to_string(compileInfoSize_));
        }
        return static_cast<T*>(compileInfo_);
    }
    // The operator's compile-time JSON: none here (an empty string).
    const char* GetCompiledJson() const { return ""; }

private:
    std::string type_;
    fe::PlatFormInfos* platform_;
    void* compileInfo_;
    size_t compileInfoSize_;
};

}  // namespace gert
