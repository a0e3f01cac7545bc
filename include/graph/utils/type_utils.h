// ge::TypeUtils: names and sizes of data types and formats, as host code prints and checks them.
#pragma once

#include <cstdint>
#include <string>

#include "ascendc/host/ge_types.h"

namespace ge {

class TypeUtils {
public:
    // "DT_FLOAT", "DT_FLOAT16", …; "UNDEFINED" for an unknown number.
    static std::string DataTypeToSerialString(DataType dt) {
        switch (dt) {
#define ASCENDC_GE_DT_NAME_(n) \
    case n: return #n;
            ASCENDC_GE_DT_NAME_(DT_FLOAT) ASCENDC_GE_DT_NAME_(DT_FLOAT16) ASCENDC_GE_DT_NAME_(DT_INT8)
            ASCENDC_GE_DT_NAME_(DT_INT32) ASCENDC_GE_DT_NAME_(DT_UINT8) ASCENDC_GE_DT_NAME_(DT_INT16)
            ASCENDC_GE_DT_NAME_(DT_UINT16) ASCENDC_GE_DT_NAME_(DT_UINT32) ASCENDC_GE_DT_NAME_(DT_INT64)
            ASCENDC_GE_DT_NAME_(DT_UINT64) ASCENDC_GE_DT_NAME_(DT_DOUBLE) ASCENDC_GE_DT_NAME_(DT_BOOL)
            ASCENDC_GE_DT_NAME_(DT_STRING) ASCENDC_GE_DT_NAME_(DT_DUAL_SUB_INT8) ASCENDC_GE_DT_NAME_(DT_DUAL_SUB_UINT8)
            ASCENDC_GE_DT_NAME_(DT_COMPLEX64) ASCENDC_GE_DT_NAME_(DT_COMPLEX128) ASCENDC_GE_DT_NAME_(DT_QINT8)
            ASCENDC_GE_DT_NAME_(DT_QINT16) ASCENDC_GE_DT_NAME_(DT_QINT32) ASCENDC_GE_DT_NAME_(DT_QUINT8)
            ASCENDC_GE_DT_NAME_(DT_QUINT16) ASCENDC_GE_DT_NAME_(DT_RESOURCE) ASCENDC_GE_DT_NAME_(DT_STRING_REF)
            ASCENDC_GE_DT_NAME_(DT_DUAL) ASCENDC_GE_DT_NAME_(DT_VARIANT) ASCENDC_GE_DT_NAME_(DT_BF16)
            ASCENDC_GE_DT_NAME_(DT_UNDEFINED) ASCENDC_GE_DT_NAME_(DT_INT4) ASCENDC_GE_DT_NAME_(DT_UINT1)
            ASCENDC_GE_DT_NAME_(DT_INT2) ASCENDC_GE_DT_NAME_(DT_UINT2) ASCENDC_GE_DT_NAME_(DT_COMPLEX32)
            ASCENDC_GE_DT_NAME_(DT_HIFLOAT8) ASCENDC_GE_DT_NAME_(DT_FLOAT8_E5M2) ASCENDC_GE_DT_NAME_(DT_FLOAT8_E4M3FN)
            ASCENDC_GE_DT_NAME_(DT_FLOAT8_E8M0) ASCENDC_GE_DT_NAME_(DT_FLOAT6_E3M2) ASCENDC_GE_DT_NAME_(DT_FLOAT6_E2M3)
            ASCENDC_GE_DT_NAME_(DT_FLOAT4_E2M1) ASCENDC_GE_DT_NAME_(DT_FLOAT4_E1M2)
#undef ASCENDC_GE_DT_NAME_
            default: return "UNDEFINED";
        }
    }
    // The data type named `s` ("DT_FLOAT", …); DT_UNDEFINED for an unknown name.
    static DataType SerialStringToDataType(const std::string& s) {
        for (int i = 0; i < static_cast<int>(DT_MAX); ++i) {
            if (DataTypeToSerialString(static_cast<DataType>(i)) == s) {
                return static_cast<DataType>(i);
            }
        }
        return DT_UNDEFINED;
    }
    // Bytes of one element of `dt` into `length`; false (length untouched) for types without a
    // whole-byte size.
    static bool GetDataTypeLength(DataType dt, uint32_t& length) {
        int n = GetSizeByDataType(dt);
        if (n <= 0) {
            return false;
        }
        length = static_cast<uint32_t>(n);
        return true;
    }
    static std::string FormatToSerialString(Format f) {
        switch (f) {
            case FORMAT_NCHW: return "NCHW";
            case FORMAT_NHWC: return "NHWC";
            case FORMAT_ND: return "ND";
            case FORMAT_NC1HWC0: return "NC1HWC0";
            case FORMAT_FRACTAL_Z: return "FRACTAL_Z";
            case FORMAT_FRACTAL_NZ: return "FRACTAL_NZ";
            case FORMAT_NCDHW: return "NCDHW";
            case FORMAT_NDHWC: return "NDHWC";
            default: return "RESERVED";
        }
    }
};

}  // namespace ge
