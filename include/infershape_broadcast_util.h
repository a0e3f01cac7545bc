// Shape inference of broadcasting operators (Ops::Base): BroadcastShape applies the numpy rule
// (align the last dimensions; each pair is equal or one of them is 1); InferShape4Broadcast
// gives every output the broadcast of all given inputs and fails, logging both shapes, when
// they do not broadcast.
#pragma once

#include <algorithm>
#include <vector>

#include "ascendc/host/context.h"
#include "ascendc/host/op_log.h"
#include "util/shape_util.h"

namespace Ops {
namespace Base {

// The broadcast of `a` and `b` into `out`; false when a dimension pair is neither equal nor 1.
inline bool BroadcastShape(const gert::Shape& a, const gert::Shape& b, gert::Shape& out) {
    size_t rank = std::max(a.GetDimNum(), b.GetDimNum());
    gert::Shape r;
    r.SetDimNum(rank);
    for (size_t i = 0; i < rank; ++i) {
        int64_t da = i < rank - a.GetDimNum() ? 1 : a.GetDim(i - (rank - a.GetDimNum()));
        int64_t db = i < rank - b.GetDimNum() ? 1 : b.GetDim(i - (rank - b.GetDimNum()));
        if (da != db && da != 1 && db != 1) {
            return false;
        }
        r.SetDim(i, da == 1 ? db : da);
    }
    out = r;
    return true;
}
inline bool BroadcastShape(const gert::Shape* a, const gert::Shape* b, gert::Shape* out) {
    return a != nullptr && b != nullptr && out != nullptr && BroadcastShape(*a, *b, *out);
}

// The broadcast of every shape in `shapes` into `out`.
inline bool BroadcastShape(const std::vector<const gert::Shape*>& shapes, gert::Shape* out) {
    if (shapes.empty() || out == nullptr || shapes[0] == nullptr) {
        return false;
    }
    gert::Shape r = *shapes[0];
    for (size_t i = 1; i < shapes.size(); ++i) {
        if (shapes[i] == nullptr || !BroadcastShape(r, *shapes[i], r)) {
            return false;
        }
    }
    *out = r;
    return true;
}

inline ge::graphStatus InferShape4Broadcast(gert::InferShapeContext* context) {
    gert::Shape result;
    bool first = true;
    for (size_t i = 0; i < context->GetComputeNodeInputNum(); ++i) {
        const gert::Shape* s = context->GetOptionalInputShape(i);
        if (s == nullptr) {
            continue;
        }
        if (first) {
            result = *s;
            first = false;
        } else if (!BroadcastShape(result, *s, result)) {
            OP_LOGE(context, "the shape %s of input %zu does not broadcast with %s", ToString(*s).c_str(), i,
                    ToString(result).c_str());
            return ge::GRAPH_FAILED;
        }
    }
    if (first) {
        OP_LOGE(context, "InferShape4Broadcast: no input has a shape");
        return ge::GRAPH_FAILED;
    }
    for (size_t i = 0; i < context->GetComputeNodeOutputNum(); ++i) {
        *context->GetOutputShape(i) = result;
    }
    return ge::GRAPH_SUCCESS;
}

}  // namespace Base
}  // namespace Ops
