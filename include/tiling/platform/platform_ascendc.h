// platform_ascendc::PlatformAscendC: the facts of the simulated product a TilingFunc or host
// code reads (core counts, buffer sizes, SoC version, system workspace), answered from the chip
// profile of the product the program simulates: `--product` of `ascendc run` / `ascendc op run` /
// `ascendc cxx` (a SoC such as Ascend910B3 has its own core counts), or $ASCENDC_PRODUCT.
#pragma once

#include <cstdint>
#include <sstream>
#include <string>

#include "ascendc/host/fail.h"
#include "ascendc/host/platform_infos.h"

namespace platform_ascendc {

// Memories GetCoreMemSize reports.
enum class CoreMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, FB = 7, BT = 8, RESERVED };

// SoC versions GetSocVersion returns (Atlas A3 reports ASCEND910B, as documented).
// ASCEND950 and the others are named for host code that compares with them; the simulator
// models none of them.
enum class SocVersion {
    ASCEND910 = 0,
    ASCEND910B,
    ASCEND910_93,
    ASCEND310P,
    ASCEND310B,
    ASCEND310,
    ASCEND610,
    ASCEND610LITE,
    ASCEND950,
    KIRINX90,
    KIRIN9030,
    RESERVED_VERSION = 99999
};

// Architectures GetCurNpuArch returns, numbered as __NPU_ARCH__.
enum class NpuArch : uint32_t {
    DAV_1001 = 1001,
    DAV_2002 = 2002,
    DAV_2201 = 2201,
    DAV_3002 = 3002,
    DAV_3510 = 3510,
    DAV_RESV = 0xFFFFFFFF
};

// UB sizes ReserveLocalMemory sets aside.
enum class ReservedSize { RESERVED_SIZE_8K, RESERVED_SIZE_16K, RESERVED_SIZE_32K };

class PlatformAscendC {
public:
    PlatformAscendC() = delete;
    ~PlatformAscendC() = default;
    explicit PlatformAscendC(fe::PlatFormInfos* info) : info_(info) {
        if (info_ == nullptr) {
            ascendc_host::Fail("PlatformAscendC: the platform info is null (pass context->GetPlatformInfo())");
        }
    }

    // Vector cores (separated products) or AI Cores (coupled products).
    uint32_t GetCoreNum() const { return info_->aivNum; }
    // Cube cores (separated products) or AI Cores (coupled products).
    uint32_t GetCoreNumAic() const { return info_->aicNum; }
    // Vector cores (separated products) or AI Cores (coupled products).
    uint32_t GetCoreNumAiv() const { return info_->aivNum; }
    // Stand-alone vector cores: Atlas inference series only, 0 elsewhere.
    uint32_t GetCoreNumVector() const { return info_->vectorCoreNum; }
    SocVersion GetSocVersion() const {
        const std::string& s = info_->shortSoc;
        if (s == "Ascend910") return SocVersion::ASCEND910;
        if (s == "Ascend910B") return SocVersion::ASCEND910B;
        if (s == "Ascend310P") return SocVersion::ASCEND310P;
        if (s == "Ascend310B") return SocVersion::ASCEND310B;
        return SocVersion::RESERVED_VERSION;
    }
    // The product's architecture (its __NPU_ARCH__).
    NpuArch GetCurNpuArch() const {
        switch (info_->npuArch) {
            case 1001: return NpuArch::DAV_1001;
            case 2002: return NpuArch::DAV_2002;
            case 2201: return NpuArch::DAV_2201;
            case 3002: return NpuArch::DAV_3002;
            case 3510: return NpuArch::DAV_3510;
            default: return NpuArch::DAV_RESV;
        }
    }
    // Capacity of `memType` in bytes, less what ReserveLocalMemory set aside for UB.
    void GetCoreMemSize(const CoreMemType& memType, uint64_t& size) const {
        switch (memType) {
            case CoreMemType::L0_A: size = info_->l0a; return;
            case CoreMemType::L0_B: size = info_->l0b; return;
            case CoreMemType::L0_C: size = info_->l0c; return;
            case CoreMemType::L1: size = info_->l1; return;
            case CoreMemType::UB: size = info_->ub - info_->ubReserved; return;
            case CoreMemType::FB: size = info_->fb; return;
            case CoreMemType::BT: size = info_->bt; return;
            case CoreMemType::L2:
                ascendc_host::Fail("GetCoreMemSize(CoreMemType::L2): the simulator does not model the L2 cache");
            case CoreMemType::HBM:
                ascendc_host::Fail("GetCoreMemSize(CoreMemType::HBM): the simulator does not model the device memory size");
            default:
                ascendc_host::Fail("GetCoreMemSize: unknown memory type " + std::to_string(static_cast<int>(memType)));
        }
    }
    // Blocks to launch for `sliceNum` pieces of work: on separated products with both cube and
    // vector cores in use, one block is one cube core with its vector cores
    // (ceil(sliceNum / (aivCoreNum / aicCoreNum))); otherwise sliceNum.
    uint32_t CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
        if (aicCoreNum == 0 || aivCoreNum == 0 || aivCoreNum <= aicCoreNum) {
            return sliceNum;
        }
        uint32_t ratio = aivCoreNum / aicCoreNum;
        return (sliceNum + ratio - 1) / ratio;
    }
    uint32_t CalcTschNumBlocks(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
        return CalcTschBlockDim(sliceNum, aicCoreNum, aivCoreNum);
    }
    // The system workspace in bytes (16 MiB on A2/A3, 2 MiB elsewhere).
    uint32_t GetLibApiWorkSpaceSize() const { return info_->sysWorkspace; }
    void ReserveLocalMemory(ReservedSize size) {
        static const uint64_t kBytes[] = {8 * 1024, 16 * 1024, 32 * 1024};
        info_->ubReserved = kBytes[static_cast<int>(size)];
    }

private:
    fe::PlatFormInfos* info_;
};

// The platform of the running operator as a process-wide instance.
class PlatformAscendCManager {
public:
    static PlatformAscendC* GetInstance();
    // The form for hosts without an NPU: `customSocVersion` must name a SoC of the simulated
    // product (a null pointer is the form above); the platform answers for the simulated product.
    static PlatformAscendC* GetInstance(const char* customSocVersion);
};

}  // namespace platform_ascendc

// Host code names the architecture unqualified (NpuArch::DAV_2201).
using platform_ascendc::NpuArch;

// The simulator's platform line of the simulated product (`platform …`, or `error MESSAGE`).
extern "C" const char* ascendc_platform_line();
// Null when the SoC name is one of the simulated product's, else why not.
extern "C" const char* ascendc_platform_soc_mismatch(const char* name);

namespace ascendc_host {
// The platform of the simulated product, read from the simulator on first use (`ascendc op run`
// then writes the one its request names).
inline fe::PlatFormInfos& CurrentPlatform() {
    static fe::PlatFormInfos info = [] {
        fe::PlatFormInfos p;
        std::istringstream in(ascendc_platform_line());
        std::string key;
        in >> key;
        if (key != "platform" || !fe::ReadPlatformFields(in, p)) {
            std::string message;
            std::getline(in >> std::ws, message);
            Fail("PlatformAscendC: " + message);
        }
        return p;
    }();
    return info;
}
}  // namespace ascendc_host

inline platform_ascendc::PlatformAscendC* platform_ascendc::PlatformAscendCManager::GetInstance() {
    static PlatformAscendC p(&ascendc_host::CurrentPlatform());
    return &p;
}

inline platform_ascendc::PlatformAscendC* platform_ascendc::PlatformAscendCManager::GetInstance(
    const char* customSocVersion) {
    if (customSocVersion != nullptr) {
        if (const char* why = ascendc_platform_soc_mismatch(customSocVersion)) {
            ascendc_host::Fail(std::string("PlatformAscendCManager::") + why);
        }
    }
    return GetInstance();
}
