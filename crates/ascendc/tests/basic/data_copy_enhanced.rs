//! Enhanced DataCopy: CO1→CO2 quantisation (each DEQ mode), block modes, ReLU, store modes,
//! the non-CO1 paths and rules D11–D13. CO1 is filled with `LocalTensor::set_value`.

use crate::common;
use ascendc::chip::{ASCEND310P, ASCEND910B};
use ascendc::prelude::*;
use ascendc::{Category, LaunchReport};
use common::*;

fn h(v: f32) -> f16 {
    f16::from_f32(v)
}

/// Fills one CO1 tensor with `src` (rest 0), prefills the CO2 destination with `fill`, writes
/// `vec` into a UB buffer whose address becomes `deqTensorAddr`, runs the copy on 310P.
fn co1<S: Element, D: Element>(
    src: &[S],
    p: DataCopyParams,
    e: DataCopyEnhancedParams,
    fill: D,
    dst_elems: u32,
    vec: &[u8],
) -> (Vec<D>, LaunchReport) {
    let out = Slot::new();
    let r = run_on(&ASCEND310P, || {
        let mut pipe = TPipe::new();
        let mut qc: TQue<QuePosition::CO1, 1> = TQue::new();
        let mut qo: TQue<QuePosition::CO2, 1> = TQue::new();
        let mut vb: TBuf<QuePosition::VECCALC> = TBuf::new();
        pipe.init_buffer(&mut qc, 1, 4096)?;
        pipe.init_buffer(&mut qo, 1, dst_elems * D::SIZE as u32)?;
        pipe.init_buffer(&mut vb, 1, 1024)?;
        let c = qc.alloc_tensor::<S>()?;
        for i in 0..c.get_size() {
            c.set_value(i, src.get(i as usize).copied().unwrap_or_default())?;
        }
        let o = qo.alloc_tensor::<D>()?;
        for i in 0..dst_elems {
            o.set_value(i, fill)?;
        }
        let v = vb.get::<u8>()?;
        for (i, b) in vec.iter().enumerate() {
            v.set_value(i as u32, *b)?;
        }
        let e = DataCopyEnhancedParams {
            deq_tensor_addr: v.get_phy_addr() as u64,
            ..e
        };
        data_copy(&o, &c, (p, e))?;
        out.put(o.to_vec()?);
        qc.free_tensor(&c)?;
        qo.free_tensor(&o)
    });
    (out.get(), r)
}

fn enh(mode: BlockMode, q: DeqScale, value: u64, store: u8, relu: bool) -> DataCopyEnhancedParams {
    DataCopyEnhancedParams::new(mode, q, value, store, relu, PadMode::PAD_NONE, 0)
}

use ascendc::BlockMode::*;
use ascendc::DeqScale::*;

#[test]
fn deq_int32_to_half_matrix_two_fractals() {
    let src: Vec<i32> = (0..512).map(|i| i - 256).collect();
    let (out, r) = co1(
        &src,
        DataCopyParams::new(1, 2, 0, 0),
        enh(BLOCK_MODE_MATRIX, DEQ, 0x3C00, 0, false),
        h(9.0),
        512,
        &[],
    );
    assert_eq!(out, src.iter().map(|&v| h(v as f32)).collect::<Vec<_>>());
    let ins: Vec<_> = r.blocks[0]
        .trace
        .instructions()
        .iter()
        .filter(|i| i.api == "DataCopy")
        .cloned()
        .collect();
    assert_eq!(ins.len(), 1);
    assert_eq!(ins[0].pipe, Pipe::V);
    let acc = r.blocks[0].trace.accesses(&ins[0]);
    assert_eq!((acc[0].len, acc[0].blocks), (1024, 2));
    assert_eq!((acc[1].len, acc[1].blocks), (512, 2));
}

fn deq8(src: &[i32], value: u64, relu: bool) -> Vec<i8> {
    let (out, _) = co1(
        src,
        DataCopyParams::new(1, 1, 0, 0),
        enh(BLOCK_MODE_VECTOR, DEQ8, value, 2, relu),
        0i8,
        32,
        &[],
    );
    out[..src.len()].to_vec()
}

#[test]
fn deq8_examples() {
    assert_eq!(
        deq8(&[5, -7, 300, -300], 70369809530880, false),
        [5, -7, 127, -128]
    );
    assert_eq!(
        deq8(&[-1000, -8, 0, 12, 600], 71056987521024, false),
        [-128, 3, 5, 8, 127]
    );
    assert_eq!(
        deq8(&[-3, 0, 100, 300], 263883856019456, true),
        [-128, -128, -28, 127]
    );
    assert_eq!(
        deq8(&[1000, -1000, 35], 70451413909504, false),
        [62, -63, 2]
    );
}

#[test]
fn deq8_to_uint8_saturates_to_0_255() {
    let w = 0x3F80_0000u64; // M = 1.0, sign 0
    let (out, _) = co1(
        &[-5i32, 7, 300],
        DataCopyParams::new(1, 1, 0, 0),
        enh(BLOCK_MODE_VECTOR, DEQ8, w, 3, false),
        0u8,
        32,
        &[],
    );
    assert_eq!(out[..3], [0, 7, 255]);
}

#[test]
fn deq8_store_modes_write_one_half_of_each_block() {
    let src: Vec<i32> = (1..=16).collect();
    let w = 0x3F80_0000u64 | 1 << 46;
    for (mode, at) in [(0u8, 0usize), (1, 16)] {
        let (out, _) = co1(
            &src,
            DataCopyParams::new(1, 1, 0, 0),
            enh(BLOCK_MODE_VECTOR, DEQ8, w, mode, false),
            99i8,
            64,
            &[],
        );
        let mut want = vec![99i8; 64];
        for k in 0..16 {
            want[at + k] = k as i8 + 1;
        }
        assert_eq!(out, want, "store mode {mode}");
    }
}

#[test]
fn deq16_to_int16_shifts_and_saturates() {
    let w = 3u64 << 32; // N = 4
    let (out, _) = co1(
        &[1000i32, -1000, 1 << 22],
        DataCopyParams::new(1, 1, 0, 0),
        enh(BLOCK_MODE_VECTOR, DEQ16, w, 0, false),
        0i16,
        16,
        &[],
    );
    assert_eq!(out[..3], [62, -63, 32767]);
}

#[test]
fn deq16_to_half_multiplies_in_float() {
    let w = 0.5f32.to_bits() as u64;
    let (out, _) = co1(
        &[3i32, -5, 200_000],
        DataCopyParams::new(1, 1, 0, 0),
        enh(BLOCK_MODE_VECTOR, DEQ16, w, 0, false),
        h(0.0),
        16,
        &[],
    );
    assert_eq!(out[..3], [h(1.5), h(-2.5), h(65504.0)]);
}

#[test]
fn vdeq_uses_one_half_multiplier_per_channel() {
    let vec: Vec<u8> = (0..16)
        .flat_map(|c| h(c as f32 + 1.0).to_bits().to_le_bytes())
        .collect();
    let (out, _) = co1(
        &[2i32; 16],
        DataCopyParams::new(1, 1, 0, 0),
        enh(BLOCK_MODE_VECTOR, VDEQ, 0, 0, false),
        h(0.0),
        16,
        &vec,
    );
    assert_eq!(
        out,
        (0..16)
            .map(|c| h(2.0 * (c as f32 + 1.0)))
            .collect::<Vec<_>>()
    );
}

#[test]
fn vdeq8_and_vdeq16_use_one_word_per_channel() {
    let words = |f: &dyn Fn(u64) -> u64| {
        (0..16u64)
            .flat_map(|c| f(c).to_le_bytes())
            .collect::<Vec<u8>>()
    };
    let vec = words(&|c| 0x3F80_0000 | c << 37 | 1 << 46);
    let (out, _) = co1(
        &[10i32; 16],
        DataCopyParams::new(1, 1, 0, 0),
        enh(BLOCK_MODE_VECTOR, VDEQ8, 0, 2, false),
        0i8,
        32,
        &vec,
    );
    assert_eq!(
        out[..16],
        (0..16).map(|c| 10 + c as i8).collect::<Vec<_>>()[..]
    );
    let vec = words(&|c| (c % 4) << 32);
    let (out, _) = co1(
        &[256i32; 16],
        DataCopyParams::new(1, 1, 0, 0),
        enh(BLOCK_MODE_VECTOR, VDEQ16, 0, 0, false),
        0i16,
        16,
        &vec,
    );
    assert_eq!(
        out,
        (0..16).map(|c| 256i16 >> (c % 4 + 1)).collect::<Vec<_>>()
    );
}

#[test]
fn float_to_half_with_relu_and_saturation() {
    let src = [1.0f32, 65536.0, 0.1, -3.0];
    let (out, _) = co1(
        &src,
        DataCopyParams::new(1, 1, 0, 0),
        enh(BLOCK_MODE_VECTOR, DEQ_NONE, 0, 0, true),
        h(7.0),
        16,
        &[],
    );
    assert_eq!(out[..4], [h(1.0), h(65504.0), h(0.1), h(0.0)]);
}

#[test]
fn half_deq_multiplies_by_a_half() {
    let (out, _) = co1(
        &[h(1.5), h(40000.0), h(-2.0)],
        DataCopyParams::new(1, 1, 0, 0),
        enh(BLOCK_MODE_VECTOR, DEQ, 0x4000, 0, false),
        h(0.0),
        16,
        &[],
    );
    assert_eq!(out[..3], [h(3.0), h(65504.0), h(-4.0)]);
}

#[test]
fn small_channel_delivers_the_first_four_columns_of_each_row() {
    let src: Vec<f32> = (0..256).map(|i| i as f32).collect();
    let (out, _) = co1(
        &src,
        DataCopyParams::new(1, 1, 0, 0),
        enh(BLOCK_MODE_SMALL_CHANNEL, DEQ_NONE, 0, 0, false),
        0.0f32,
        64,
        &[],
    );
    let want: Vec<f32> = (0..16)
        .flat_map(|r| (0..4).map(move |c| (r * 16 + c) as f32))
        .collect();
    assert_eq!(out, want);
}

#[test]
fn vector_mode_strides_count_fractals_and_blocks() {
    // 2 blocks of 1 unit; source gap 1 fractal, destination gap 1 block (32 bytes).
    let src: Vec<i32> = (0..768).collect();
    let (out, _) = co1(
        &src,
        DataCopyParams::new(2, 1, 1, 1),
        enh(BLOCK_MODE_VECTOR, DEQ_NONE, 0, 0, false),
        -1i32,
        48,
        &[],
    );
    assert_eq!(out[..16], (0..16).collect::<Vec<i32>>()[..]);
    assert_eq!(out[16..24], [-1; 8]);
    assert_eq!(out[24..40], (512..528).collect::<Vec<i32>>()[..]);
}

fn co1_err<S: Element, D: Element>(
    e: DataCopyEnhancedParams,
    dst_offset: u32,
) -> ascendc::SimError {
    fail_on(&ASCEND310P, || {
        let mut pipe = TPipe::new();
        let mut qc: TQue<QuePosition::CO1, 1> = TQue::new();
        let mut qo: TQue<QuePosition::CO2, 1> = TQue::new();
        pipe.init_buffer(&mut qc, 1, 4096)?;
        pipe.init_buffer(&mut qo, 1, 4096)?;
        let c = qc.alloc_tensor::<S>()?;
        let o = qo.alloc_tensor::<D>()?;
        data_copy(&o.at(dst_offset)?, &c, (DataCopyParams::new(1, 1, 0, 0), e))
    })
}

#[test]
fn d11_d12_d13_and_quantisation_rules() {
    let e = co1_err::<f32, f32>(enh(BLOCK_MODE_NORMAL, DEQ_NONE, 0, 0, false), 0);
    assert_eq!(e.category, Category::Range);
    assert!(
        e.message.contains(
            "blockMode should be BLOCK_MODE_MATRIX, BLOCK_MODE_VECTOR or BLOCK_MODE_SMALL_CHANNEL"
        ),
        "{e}"
    );
    let e = co1_err::<f32, f32>(enh(BLOCK_MODE_DEPTHWISE, DEQ_NONE, 0, 0, false), 0);
    assert_eq!(e.category, Category::Unsupported);
    assert!(
        e.message
            .contains("BLOCK_MODE_DEPTHWISE is not supported yet"),
        "{e}"
    );
    let e = co1_err::<i32, f16>(enh(BLOCK_MODE_MATRIX, DEQ_NONE, 0, 0, false), 0);
    assert!(
        e.message
            .contains("deqScale should be DEQ, VDEQ, DEQ16 or VDEQ16"),
        "{e}"
    );
    let e = co1_err::<i32, i8>(enh(BLOCK_MODE_MATRIX, DEQ16, 0, 0, false), 0);
    assert!(
        e.message.contains("deqScale should be DEQ8 or VDEQ8"),
        "{e}"
    );
    let e = co1_err::<f32, f32>(enh(BLOCK_MODE_VECTOR, DEQ_NONE, 0, 0, false), 4);
    assert_eq!(e.category, Category::Align);
    assert!(
        e.message.contains("destination start address 16") && e.message.contains("32-byte aligned"),
        "{e}"
    );
    let e = co1_err::<i32, i8>(
        enh(BLOCK_MODE_VECTOR, DEQ8, 0x3F80_0000 | 1 << 46, 0, true),
        0,
    );
    assert!(
        e.message
            .contains("offset (bits 37–45) must be -128, it is 0"),
        "{e}"
    );
    let e = co1_err::<i32, i8>(enh(BLOCK_MODE_VECTOR, DEQ8, 0x3F80_0000, 4, false), 0);
    assert!(e.message.contains("`sidStoreMode` = 4"), "{e}");
    let e = co1_err::<f32, f32>(
        DataCopyEnhancedParams {
            pad_mode: PadMode::PAD_MODE1,
            ..enh(BLOCK_MODE_MATRIX, DEQ_NONE, 0, 0, false)
        },
        0,
    );
    assert!(
        e.message.contains("padMode PAD_MODE1 is not supported yet"),
        "{e}"
    );
}

#[test]
fn vdeq16_words_must_share_the_mcb_bit() {
    let fill: Vec<u8> = (0..16u64)
        .flat_map(|c| ((c & 1) << 36).to_le_bytes())
        .collect();
    let e = fail_on(&ASCEND310P, || {
        let mut pipe = TPipe::new();
        let mut qc: TQue<QuePosition::CO1, 1> = TQue::new();
        let mut qo: TQue<QuePosition::CO2, 1> = TQue::new();
        let mut vb: TBuf<QuePosition::VECCALC> = TBuf::new();
        pipe.init_buffer(&mut qc, 1, 4096)?;
        pipe.init_buffer(&mut qo, 1, 4096)?;
        pipe.init_buffer(&mut vb, 1, 128)?;
        let v = vb.get::<u8>()?;
        for (i, b) in fill.iter().enumerate() {
            v.set_value(i as u32, *b)?;
        }
        let c = qc.alloc_tensor::<i32>()?;
        let o = qo.alloc_tensor::<i16>()?;
        let mut e = enh(BLOCK_MODE_VECTOR, VDEQ16, 0, 0, false);
        e.deq_tensor_addr = v.get_phy_addr() as u64;
        data_copy(&o, &c, (DataCopyParams::new(1, 1, 0, 0), e))
    });
    assert!(e.message.contains("same MCB bit"), "{e}");
}

#[test]
fn relu_flag_wins_over_the_word_bit_with_a_warning() {
    let w = 0x3F80_0000u64 | 1 << 47; // ReLU bit set, isRelu false
    let (out, r) = co1(
        &[-5i32],
        DataCopyParams::new(1, 1, 0, 0),
        enh(BLOCK_MODE_VECTOR, DEQ16, w, 0, false),
        h(0.0),
        16,
        &[],
    );
    assert_eq!(out[0], h(-5.0));
    assert!(warnings(&r)
        .iter()
        .any(|d| d.message.contains("isRelu wins")));
}

#[test]
fn co1_to_co2_is_refused_on_a2() {
    let e = fail_on(&ASCEND910B, || {
        let mut pipe = TPipe::new();
        let mut qc: TQue<QuePosition::CO1, 1> = TQue::new();
        let mut qo: TQue<QuePosition::VECOUT, 1> = TQue::new();
        pipe.init_buffer(&mut qc, 1, 4096)?;
        pipe.init_buffer(&mut qo, 1, 4096)?;
        let c = qc.alloc_tensor::<f32>()?;
        let o = qo.alloc_tensor::<f32>()?;
        data_copy(
            &o,
            &c,
            (
                DataCopyParams::new(1, 1, 0, 0),
                enh(BLOCK_MODE_MATRIX, DEQ_NONE, 0, 0, false),
            ),
        )
    });
    assert_eq!(e.category, Category::Unsupported);
    assert!(
        e.message.contains("Co1Co2") && e.message.contains("Ascend910B"),
        "{e}"
    );
}

#[test]
fn non_co1_paths_are_the_level0_copy() {
    let input: Vec<f16> = (0..256).map(|i| h(i as f32)).collect();
    let src = GmBuffer::from_slice(&input);
    let dst = GmBuffer::from_slice(&[h(-1.0); 256]);
    let (s, d) = (src.addr(), dst.addr());
    let r = run(|| {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::VECIN, 1> = TQue::new();
        let mut qo: TQue<QuePosition::VECOUT, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 1024)?;
        pipe.init_buffer(&mut qo, 1, 1024)?;
        let (mut gs, mut gd) = (GlobalTensor::<f16>::new(), GlobalTensor::<f16>::new());
        gs.set_global_buffer(s.clone());
        gd.set_global_buffer(d.clone());
        let t = q.alloc_tensor::<f16>()?;
        let o = qo.alloc_tensor::<f16>()?;
        let normal = DataCopyEnhancedParams::default();
        data_copy(&t, &gs, (DataCopyParams::new(2, 8, 0, 1), normal))?;
        data_copy(
            &o,
            &t,
            (
                DataCopyParams::new(1, 18, 0, 0),
                enh(BLOCK_MODE_MATRIX, DEQ_NONE, 0, 1, false),
            ),
        )?;
        data_copy(&gd, &o, (DataCopyParams::new(2, 8, 1, 0), normal))?;
        q.free_tensor(&t)?;
        qo.free_tensor(&o)
    });
    assert_eq!(dst.to_vec::<f16>(), input);
    let w = warnings(&r);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].message.contains("apply only to CO1→CO2"), "{}", w[0]);
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::VECIN, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 1024)?;
        let mut gs = GlobalTensor::<f16>::new();
        gs.set_global_buffer(s.clone());
        let t = q.alloc_tensor::<f16>()?;
        data_copy(
            &t,
            &gs,
            (
                DataCopyParams::new(1, 1, 0, 0),
                enh(BLOCK_MODE_DEPTHWISE, DEQ_NONE, 0, 0, false),
            ),
        )
    });
    assert!(
        e.message
            .contains("BLOCK_MODE_DEPTHWISE is not supported yet"),
        "{e}"
    );
}
