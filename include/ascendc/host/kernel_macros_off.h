// Included (no include guard) before host headers a kernel source may include: saves and removes
// the DT_* / FORMAT_* macros a kernel build defines (for `#if ORIG_DTYPE_X == DT_FLOAT16`), so the
// host headers see their enumerators; kernel_macros_on.h restores them.
#pragma push_macro("DT_FLOAT")
#undef DT_FLOAT
#pragma push_macro("DT_FLOAT16")
#undef DT_FLOAT16
#pragma push_macro("DT_INT8")
#undef DT_INT8
#pragma push_macro("DT_INT32")
#undef DT_INT32
#pragma push_macro("DT_UINT8")
#undef DT_UINT8
#pragma push_macro("DT_INT16")
#undef DT_INT16
#pragma push_macro("DT_UINT16")
#undef DT_UINT16
#pragma push_macro("DT_UINT32")
#undef DT_UINT32
#pragma push_macro("DT_INT64")
#undef DT_INT64
#pragma push_macro("DT_UINT64")
#undef DT_UINT64
#pragma push_macro("DT_DOUBLE")
#undef DT_DOUBLE
#pragma push_macro("DT_BF16")
#undef DT_BF16
#pragma push_macro("DT_BOOL")
#undef DT_BOOL
#pragma push_macro("FORMAT_NCHW")
#undef FORMAT_NCHW
#pragma push_macro("FORMAT_NHWC")
#undef FORMAT_NHWC
#pragma push_macro("FORMAT_ND")
#undef FORMAT_ND
#pragma push_macro("FORMAT_FRACTAL_NZ")
#undef FORMAT_FRACTAL_NZ
