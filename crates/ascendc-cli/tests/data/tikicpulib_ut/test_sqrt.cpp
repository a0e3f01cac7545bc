// A kernel UT in the vendor's form: gtest, tikicpulib.h, the TilingFunc run in-process through
// the context builder, ICPU_RUN_KF, data made and checked by Python scripts.
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include "gtest/gtest.h"
#include "tikicpulib.h"
#include "data_utils.h"
#include "op_tiling_context_builder.h"
#include "base/registry/op_impl_space_registry_v2.h"
#include "platform/platform_infos_def.h"
#include "sqrt_tiling.h"

extern "C" __global__ __aicore__ void sqrt(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling);

TEST(SqrtKernel, tiling_from_the_tiling_func_and_matches_numpy)
{
    constexpr int64_t total = 8 * 256;
    size_t bytes = total * sizeof(float);

    // The TilingFunc on an 8-core platform with a 4-block compile-time limit.
    gert::StorageShape shape({total}, {total});
    gert::Tensor in(shape, gert::StorageFormat(ge::FORMAT_ND, ge::FORMAT_ND, gert::ExpandDimsType()),
                    gert::TensorPlacement::kOnHost, ge::DT_FLOAT, nullptr);
    gert::Tensor out = in;
    SqrtCompileInfo compileInfo{4};
    fe::PlatFormInfos platform;
    platform.Init();
    auto tilingBuffer = gert::TilingData::CreateCap(4096);
    auto workspaces = gert::ContinuousVector::Create<size_t>(16);
    auto holder = gert::OpTilingContextBuilder()
                      .OpType("SqrtDemo")
                      .OpName("SqrtDemo")
                      .IONum(1, 1)
                      .InputTensors({&in})
                      .OutputTensors({&out})
                      .AppendAttr(0.5f)
                      .CompileInfo(&compileInfo)
                      .PlatformInfo(&platform)
                      .TilingData(tilingBuffer.get())
                      .Workspace(workspaces.get())
                      .Build();
    gert::TilingContext* context = holder.GetContext();
    context->GetPlatformInfo()->SetPlatformRes("SoCInfo", {{"ai_core_cnt", "8"}});
    auto impl = gert::DefaultOpImplSpaceRegistryV2::GetInstance().GetSpaceRegistry()->GetOpImpl("SqrtDemo");
    ASSERT_NE(impl, nullptr);
    ASSERT_EQ(impl->tiling(context), ge::GRAPH_SUCCESS);
    EXPECT_EQ(context->GetTilingKey(), 1u);
    EXPECT_EQ(context->GetBlockDim(), 4u);
    ASSERT_EQ(context->GetWorkspaceNum(), 1u);
    EXPECT_EQ(context->GetWorkspaceSizes(1)[0], 1024u);
    auto* raw = context->GetRawTilingData();
    ASSERT_EQ(raw->GetDataSize(), sizeof(SqrtTiling));
    EXPECT_EQ(static_cast<const SqrtTiling*>(raw->GetData())->count, 512u);

    ASSERT_EQ(std::system("python3 " DATA_DIR "/gen_data.py"), 0);
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(bytes);
    uint8_t* y = (uint8_t*)AscendC::GmAlloc(bytes);
    uint8_t* workspace = (uint8_t*)AscendC::GmAlloc(context->GetWorkspaceSizes(1)[0]);
    uint8_t* tiling = (uint8_t*)AscendC::GmAlloc(raw->GetDataSize());
    std::memcpy(tiling, raw->GetData(), raw->GetDataSize());
    ReadFile("input_x.bin", bytes, x, bytes);
    ICPU_SET_TILING_KEY(context->GetTilingKey());
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(sqrt, context->GetBlockDim(), x, y, workspace, tiling);
    WriteFile("output_y.bin", y, bytes);
    AscendC::GmFree(x);
    AscendC::GmFree(y);
    AscendC::GmFree(workspace);
    AscendC::GmFree(tiling);
    EXPECT_EQ(std::system("python3 " DATA_DIR "/compare_data.py"), 0);
    EXPECT_EQ(std::sqrt(4.0), 2.0);  // <cmath>'s sqrt is still the library's
}

TEST(SqrtKernel, an_unknown_operator_type_has_no_functions)
{
    EXPECT_EQ(gert::DefaultOpImplSpaceRegistryV2::GetInstance().GetSpaceRegistry()->GetOpImpl("NoSuchOp"), nullptr);
}
