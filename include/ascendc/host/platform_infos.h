// fe::PlatFormInfos: the facts of the simulated product a TilingFunc sees through
// TilingContext::GetPlatformInfo() and platform_ascendc::PlatformAscendC, filled from the chip
// profile of the product the program simulates (`--product`, a SoC such as Ascend910B3 included).
#pragma once

#include <cstdint>
#include <istream>
#include <string>

namespace fe {

// Memories GetLocalMemSize reports.
enum class LocalMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, RESERVED };

class PlatFormInfos {
public:
    // Cores the operator's kernels run on (vector cores on separated products).
    uint32_t GetCoreNum() const { return aivNum; }
    // Capacity of `type` in bytes (UB less what ReserveLocalMemory set aside); 0 for memories
    // the simulator does not model (L2, HBM).
    void GetLocalMemSize(const LocalMemType& type, uint64_t& size) const {
        switch (type) {
            case LocalMemType::L0_A: size = l0a; return;
            case LocalMemType::L0_B: size = l0b; return;
            case LocalMemType::L0_C: size = l0c; return;
            case LocalMemType::L1: size = l1; return;
            case LocalMemType::UB: size = ub - ubReserved; return;
            default: size = 0; return;
        }
    }
    // SoC name as the profile spells it (`Ascend910B`, `Ascend310P`, …).
    std::string soc;
    // Short SoC version the framework reports (`Ascend910B` for A2 and A3).
    std::string shortSoc;
    // `__NPU_ARCH__` of the product.
    uint32_t npuArch = 0;
    // Cube cores (AI Cores on coupled products).
    uint32_t aicNum = 0;
    // Vector cores inside the AI Core count (AI Cores on coupled products).
    uint32_t aivNum = 0;
    // Stand-alone vector cores (Atlas inference series only).
    uint32_t vectorCoreNum = 0;
    // Buffer capacities in bytes.
    uint64_t ub = 0, l1 = 0, l0a = 0, l0b = 0, l0c = 0, bt = 0, fb = 0, l2 = 0, hbm = 0;
    // System workspace in bytes (GetLibApiWorkSpaceSize).
    uint32_t sysWorkspace = 0;
    // Bytes of UB ReserveLocalMemory set aside.
    uint64_t ubReserved = 0;
};

// Reads the fields of a `platform …` line after its keyword (the simulator's platform line:
// series, short SoC version, NPU arch, AIC, AIV, vector cores, UB, L1, L0A, L0B, L0C, BT, FB,
// system workspace). False when the line is incomplete.
inline bool ReadPlatformFields(std::istream& in, PlatFormInfos& p) {
    return static_cast<bool>(in >> p.soc >> p.shortSoc >> p.npuArch >> p.aicNum >> p.aivNum >> p.vectorCoreNum >>
                             p.ub >> p.l1 >> p.l0a >> p.l0b >> p.l0c >> p.bt >> p.fb >> p.sysWorkspace);
}

}  // namespace fe
