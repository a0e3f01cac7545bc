//! Which DataCopy-family APIs and paths each product accepts; the others fail with a clear error.

use ascendc::chip::{ChipProfile, ASCEND310B, ASCEND310P, ASCEND910, ASCEND910B, ASCEND910_93};
use ascendc::prelude::*;
use ascendc::{Category, LaunchReport, SimError};

type Kernel = fn(&GmAddr) -> Result<()>;

fn pad_gm_ub(g: &GmAddr) -> Result<()> {
    let mut pipe = TPipe::new();
    let mut q: TQue<QuePosition::VECIN, 1> = TQue::new();
    pipe.init_buffer(&mut q, 1, 64)?;
    let mut gs = GlobalTensor::<f32>::new();
    gs.set_global_buffer(g.clone());
    let t = q.alloc_tensor::<f32>()?;
    data_copy_pad(
        &t,
        &gs,
        DataCopyExtParams::new(1, 12, 0, 0, 0),
        DataCopyPadExtParams::new(true, 0, 0, 0.0f32),
    )
}

fn pad_tscm(_: &GmAddr) -> Result<()> {
    let mut pipe = TPipe::new();
    let mut qv: TQue<QuePosition::VECOUT, 1> = TQue::new();
    let mut qt: TQue<QuePosition::TSCM, 1> = TQue::new();
    pipe.init_buffer(&mut qv, 1, 64)?;
    pipe.init_buffer(&mut qt, 1, 64)?;
    let v = qv.alloc_tensor::<f16>()?;
    let t = qt.alloc_tensor::<f16>()?;
    data_copy_pad(
        &t,
        &v,
        DataCopyExtParams::new(1, 32, 0, 0, 0),
        Nd2NzParams::new(1, 1, 16, 0, 16, 1, 1, 0),
    )
}

fn pad_value(_: &GmAddr) -> Result<()> {
    set_pad_value(1i32)
}

fn slice(g: &GmAddr) -> Result<()> {
    let mut pipe = TPipe::new();
    let mut q: TQue<QuePosition::VECIN, 1> = TQue::new();
    pipe.init_buffer(&mut q, 1, 64)?;
    let mut gs = GlobalTensor::<f32>::new();
    gs.set_global_buffer(g.clone());
    let t = q.alloc_tensor::<f32>()?;
    let sl = [SliceInfo::with_shape(0, 15, 0, 2, 16)];
    data_copy(&t, &gs, (&sl[..], &sl[..], 1))
}

fn nd2nz_l1(g: &GmAddr) -> Result<()> {
    let mut pipe = TPipe::new();
    let mut q: TQue<QuePosition::B1, 1> = TQue::new();
    pipe.init_buffer(&mut q, 1, 64)?;
    let mut gs = GlobalTensor::<f16>::new();
    gs.set_global_buffer(g.clone());
    let t = q.alloc_tensor::<f16>()?;
    data_copy(&t, &gs, Nd2NzParams::new(1, 2, 16, 0, 16, 2, 1, 0))
}

fn nd2nz_ub(g: &GmAddr) -> Result<()> {
    let mut pipe = TPipe::new();
    let mut q: TQue<QuePosition::VECIN, 1> = TQue::new();
    pipe.init_buffer(&mut q, 1, 64)?;
    let mut gs = GlobalTensor::<f16>::new();
    gs.set_global_buffer(g.clone());
    let t = q.alloc_tensor::<f16>()?;
    data_copy(&t, &gs, Nd2NzParams::new(1, 2, 16, 0, 16, 2, 1, 0))
}

fn nz2nd(g: &GmAddr) -> Result<()> {
    let mut pipe = TPipe::new();
    let mut q: TQue<QuePosition::VECOUT, 1> = TQue::new();
    pipe.init_buffer(&mut q, 1, 512)?;
    let mut gd = GlobalTensor::<f16>::new();
    gd.set_global_buffer(g.clone());
    let t = q.alloc_tensor::<f16>()?;
    data_copy(&gd, &t, Nz2NdParamsFull::new(1, 2, 16, 1, 1, 16, 1))
}

fn co1_co2(_: &GmAddr) -> Result<()> {
    let mut pipe = TPipe::new();
    let mut qc: TQue<QuePosition::CO1, 1> = TQue::new();
    let mut qo: TQue<QuePosition::VECOUT, 1> = TQue::new();
    pipe.init_buffer(&mut qc, 1, 1024)?;
    pipe.init_buffer(&mut qo, 1, 1024)?;
    let c = qc.alloc_tensor::<f32>()?;
    let o = qo.alloc_tensor::<f32>()?;
    let e = DataCopyEnhancedParams::new(
        BlockMode::BLOCK_MODE_MATRIX,
        DeqScale::DEQ_NONE,
        0,
        0,
        false,
        PadMode::PAD_NONE,
        0,
    );
    data_copy(&o, &c, (DataCopyParams::new(1, 1, 0, 0), e))
}

fn try_on(p: &'static ChipProfile, k: Kernel) -> std::result::Result<LaunchReport, SimError> {
    let g = GmBuffer::zeroed(4096);
    let a = g.addr();
    Launch::new(1)
        .profile(p)
        .run(|| k(&a))
        .map_err(|e| e.errors[0].clone())
}

#[test]
fn product_support_matrix() {
    // (name, kernel, accepted on [910, 310P, 910B, 910_93, 310B], portability warning on 310B)
    let cases: [(&str, Kernel, [bool; 5], &str); 8] = [
        (
            "DataCopyPad GM→UB",
            pad_gm_ub,
            [false, false, true, true, true],
            "DataCopyPad data path",
        ),
        (
            "DataCopyPad UB→TSCM",
            pad_tscm,
            [false, false, true, true, false],
            "DataCopyPadTscm data path",
        ),
        (
            "SetPadValue",
            pad_value,
            [false, false, true, true, false],
            "SetPadValue is not supported",
        ),
        ("slice", slice, [true, true, true, true, true], ""),
        ("ND→NZ GM→L1", nd2nz_l1, [true, true, true, true, true], ""),
        (
            "ND→NZ GM→VECIN",
            nd2nz_ub,
            [false, true, true, true, false],
            "Nd2NzGmUb data path",
        ),
        ("NZ→ND", nz2nd, [true, true, true, true, true], ""),
        (
            "CO1→CO2",
            co1_co2,
            [true, true, false, false, false],
            "Co1Co2 data path",
        ),
    ];
    let profiles = [
        &ASCEND910,
        &ASCEND310P,
        &ASCEND910B,
        &ASCEND910_93,
        &ASCEND310B,
    ];
    for (name, k, ok, why) in cases {
        for (p, want) in profiles.iter().zip(ok) {
            match try_on(p, k) {
                Ok(r) => {
                    assert!(want, "{name} should be refused on {}", p.soc);
                    let portability = r
                        .diagnostics()
                        .any(|d| d.message.contains("may not be portable"));
                    let undocumented =
                        p.soc == "Ascend310B" && matches!(name, "slice" | "ND→NZ GM→L1" | "NZ→ND");
                    assert_eq!(portability, undocumented, "{name} on {}", p.soc);
                }
                Err(e) => {
                    assert!(!want, "{name} should run on {}: {e}", p.soc);
                    assert_eq!(
                        e.category,
                        Category::Unsupported,
                        "{name} on {}: {e}",
                        p.soc
                    );
                    assert!(
                        e.message.contains(why) && e.message.contains(p.soc),
                        "{name} on {}: {e}",
                        p.soc
                    );
                }
            }
        }
    }
}
