// Registration of an operator's host functions by type, as the operator libraries write it:
// IMPL_OP_INFERSHAPE(Type).InferShape(f).InferDataType(g) and
// IMPL_OP_OPTILING(Type).Tiling(f).TilingParse<CompileInfo>(parse). `ascendc op run` creates one
// value-initialized CompileInfo, calls `parse` with a TilingParseContext whose
// GetCompiledInfo<CompileInfo>() is that object, then the TilingFunc, whose
// GetCompileInfo<CompileInfo>() returns the same object.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ascendc/host/kernel_macros_off.h"
#include "ascendc/host/context.h"
#include "ascendc/host/ge_shape.h"
#include "ascendc/host/ge_types.h"
#include "ascendc/host/op_def.h"
#include "ascendc/host/kernel_macros_on.h"

#ifndef IMPL_OP_INFERDATATYPE
// IMPL_OP_INFERDATATYPE(Type).InferDataType(g): the same builder.
#define IMPL_OP_INFERDATATYPE(opType) IMPL_OP_OPTILING(opType)
#endif
