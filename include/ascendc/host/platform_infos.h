// fe::PlatFormInfos: the facts of the simulated product a TilingFunc sees through
// TilingContext::GetPlatformInfo() and platform_ascendc::PlatformAscendC, filled from the chip
// profile of the product the program simulates (`--product`, a SoC such as Ascend910B3 included).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <istream>
#include <map>
#include <sstream>
#include <string>
#include <type_traits>

// The simulator's platform line of the simulated product (`platform …`, or `error MESSAGE`).
extern "C" const char* ascendc_platform_line();

namespace fe {

// Memories GetLocalMemSize reports.
enum class LocalMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, RESERVED };

class PlatFormInfos;
inline bool ReadPlatformFields(std::istream& in, PlatFormInfos& p);

class PlatFormInfos {
public:
    // Fills the facts of the simulated product (what `ascendc op run` hands a TilingFunc); false
    // when the simulator names no product. (Unit tests then override them with SetPlatformRes.)
    bool Init() {
        std::istringstream in(ascendc_platform_line());
        std::string key;
        in >> key;
        return key == "platform" && ReadPlatformFields(in, *this);
    }
    // The vendor's labelled resource tables, as kernel unit tests set them before a TilingFunc
    // runs: "SoCInfo" (ai_core_cnt, cube_core_cnt, vector_core_cnt), "AICoreSpec" (ub_size,
    // l1_size, l0_a_size, l0_b_size, l0_c_size, bt_size), "version" (Short_SoC_version, NpuArch)
    // update the facts above; every table is kept for GetPlatformRes.
    void SetPlatformRes(const std::string& label, const std::map<std::string, std::string>& res) {
        tables[label] = res;
        auto number = [&](const char* key, auto& field) {
            auto it = res.find(key);
            if (it != res.end() && !it->second.empty()) {
                char* end = nullptr;
                unsigned long long v = std::strtoull(it->second.c_str(), &end, 10);
                if (end != nullptr && *end == '\0') {
                    field = static_cast<std::remove_reference_t<decltype(field)>>(v);
                }
            }
        };
        if (label == "SoCInfo") {
            uint32_t cores = 0;
            number("ai_core_cnt", cores);
            if (cores != 0) {
                aivNum = cores;
                aicNum = cores;
            }
            number("cube_core_cnt", aicNum);
            number("vector_core_cnt", aivNum);
        } else if (label == "AICoreSpec") {
            number("ub_size", ub);
            number("l1_size", l1);
            number("l0_a_size", l0a);
            number("l0_b_size", l0b);
            number("l0_c_size", l0c);
            number("bt_size", bt);
        } else if (label == "version") {
            auto it = res.find("Short_SoC_version");
            if (it != res.end() && !it->second.empty()) {
                shortSoc = it->second;
            }
            number("NpuArch", npuArch);
        }
    }
    // The table SetPlatformRes stored under `label`; false when there is none.
    bool GetPlatformRes(const std::string& label, std::map<std::string, std::string>& res) const {
        auto it = tables.find(label);
        if (it == tables.end()) {
            return false;
        }
        res = it->second;
        return true;
    }
    // One entry of a table; false when absent.
    bool GetPlatformRes(const std::string& label, const std::string& key, std::string& value) const {
        auto it = tables.find(label);
        if (it == tables.end() || it->second.count(key) == 0) {
            return false;
        }
        value = it->second.at(key);
        return true;
    }
    // Which cores GetCoreNum counts ("AICore" or "VectorCore"): recorded.
    void SetCoreNumByCoreType(const std::string& coreType) { coreTypeName = coreType; }
    uint32_t GetCoreNumByType(const std::string& coreType) const {
        return coreType == "VectorCore" ? vectorCoreNum : aivNum;
    }

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
    // SetPlatformRes tables by label, and the SetCoreNumByCoreType choice.
    std::map<std::string, std::map<std::string, std::string>> tables;
    std::string coreTypeName = "AICore";
};

// Reads the fields of a `platform …` line after its keyword (the simulator's platform line:
// series, short SoC version, NPU arch, AIC, AIV, vector cores, UB, L1, L0A, L0B, L0C, BT, FB,
// system workspace). False when the line is incomplete.
inline bool ReadPlatformFields(std::istream& in, PlatFormInfos& p) {
    return static_cast<bool>(in >> p.soc >> p.shortSoc >> p.npuArch >> p.aicNum >> p.aivNum >> p.vectorCoreNum >>
                             p.ub >> p.l1 >> p.l0a >> p.l0b >> p.l0c >> p.bt >> p.fb >> p.sysWorkspace);
}

}  // namespace fe
