//! Debugging, tool and cache-control APIs: `ascendc_assert`/`assert`, `Trap`,
//! `CheckLocalMemoryIA`, `PrintTimeStamp`, `MetricsProfStart/Stop`, `GetDataBlockSizeInBytes`,
//! `GetArchVersion`, `GetProgramCounter`, `GetSubBlockNum`, `Async`, `DataCachePreload`,
//! `DataCacheCleanAndInvalid`, `ICachePreLoad`, `GetICachePreloadStatus`.

use crate::common;

use ascendc::chip::{ChipProfile, ASCEND310B, ASCEND310P, ASCEND910, ASCEND910B, ASCEND910_93};
use ascendc::prelude::*;
use ascendc::{
    ascendc_assert, async_on, check_local_memory_ia, data_cache_clean_and_invalid,
    data_cache_preload, get_arch_version, get_data_block_size_in_bytes, get_icache_preload_status,
    get_program_counter, get_sub_block_num, icache_preload, metrics_prof_start, metrics_prof_stop,
    time_stamp, trap, CacheLine, Category, CheckLocalMemoryIAParam, DcciDst, EngineType, SourceLoc,
    TimeStamp,
};
use common::{assert_mentions, fail_on, run_on, warnings, Slot};
use std::sync::atomic::{AtomicU32, Ordering};

const FIVE: [&ChipProfile; 5] = [
    &ASCEND910,
    &ASCEND310P,
    &ASCEND910B,
    &ASCEND910_93,
    &ASCEND310B,
];

/// Runs `kernel` on every product and checks it works exactly on `listed` and is refused, with
/// the documented reason, on the others.
fn supported_on(listed: &[&ChipProfile], api: &str, kernel: impl Fn() -> Result<()> + Sync) {
    for p in FIVE {
        if listed.iter().any(|l| l.product == p.product) {
            run_on(p, &kernel);
        } else {
            let e = fail_on(p, &kernel);
            assert_eq!(e.category, Category::Unsupported, "{e}");
            assert_mentions(&e, &[api, "documentation does not list"]);
        }
    }
}

fn gt<T: Element>(a: &GmAddr) -> GlobalTensor<T> {
    let mut g = GlobalTensor::<T>::new();
    g.set_global_buffer(a.clone());
    g
}

// ---- ascendc_assert / assert ----

#[test]
fn ascendc_assert_example_fails_the_block_with_condition_message_and_line() {
    let e = fail_on(&ASCEND910B, || {
        let assert_flag = 10;
        ascendc_assert!(
            assert_flag != 10,
            "The assertFlag value is {}.",
            assert_flag
        )
    });
    assert_eq!(e.api, "ascendc_assert");
    assert_eq!(
        e.message,
        "assertion `assert_flag != 10` failed: The assertFlag value is 10."
    );
    assert_eq!(e.block, Some(0));
    assert!(e.location.unwrap().file.ends_with("debug_tools.rs"));
    // The printed line has the documented shape.
    let loc = SourceLoc {
        file: "/home/op/add_custom.cpp",
        line: 44,
        column: 0,
    };
    assert_eq!(
        ascendc::api::debug_check::assert_line(loc, "assertFlag != 10", "The assertFlag value is 10."),
        "[ASSERT] /home/op/add_custom.cpp:44: Assertion `assertFlag != 10' The assertFlag value is 10."
    );
    assert_eq!(
        ascendc::api::debug_check::assert_line(loc, "assertFlag != 10", ""),
        "[ASSERT] /home/op/add_custom.cpp:44: Assertion `assertFlag != 10'"
    );
}

#[test]
fn assert_without_message_and_passing_asserts() {
    let e = fail_on(&ASCEND310P, || {
        let assert_flag = 10;
        ascendc_assert!(assert_flag == 10)?;
        ascendc_assert!(assert_flag != 10)
    });
    assert_eq!(e.message, "assertion `assert_flag != 10` failed");
    supported_on(
        &[&ASCEND310P, &ASCEND910B, &ASCEND910_93, &ASCEND310B],
        "ascendc_assert",
        || ascendc_assert!(get_block_idx() == 0, "never printed {}", 0),
    );
}

#[test]
fn a_failed_assert_in_one_block_fails_the_launch_naming_that_block() {
    let e = Launch::new(6)
        .run(|| ascendc_assert!(get_block_idx() != 4, "block {} is bad", get_block_idx()))
        .expect_err("block 4 asserts");
    assert_eq!(e.errors.len(), 1);
    assert_eq!(e.errors[0].block, Some(4));
    assert_eq!(
        e.errors[0].message,
        "assertion `get_block_idx() != 4` failed: block 4 is bad"
    );
}

// ---- Trap ----

#[test]
fn trap_stops_the_block_where_listed() {
    let e = fail_on(&ASCEND910B, || {
        let divisor = 0.0f32;
        if divisor == 0.0 {
            trap()?;
        }
        Ok(())
    });
    assert_eq!(e.api, "Trap");
    assert_eq!(e.category, Category::Launch);
    assert_mentions(&e, &["block 0", "Trap()"]);
    for p in [&ASCEND910, &ASCEND310B] {
        let e = fail_on(p, trap);
        assert_eq!(e.category, Category::Unsupported);
    }
    for p in [&ASCEND310P, &ASCEND910_93] {
        assert_eq!(fail_on(p, trap).category, Category::Launch);
    }
}

// ---- CheckLocalMemoryIA ----

/// The documentation's example: three 512-half buffers, register 0 checking vector writes into
/// `(dst / 32, (dst + 1024) / 32]`.
fn ia_example(reset_first: bool, write_dst: bool) -> Result<()> {
    let mut pipe = TPipe::new();
    let mut q0: TQue<QuePosition::VECIN, 1> = TQue::new();
    let mut q1: TQue<QuePosition::VECIN, 1> = TQue::new();
    let mut qd: TQue<QuePosition::VECOUT, 1> = TQue::new();
    pipe.init_buffer(&mut q0, 1, 1024)?;
    pipe.init_buffer(&mut q1, 1, 1024)?;
    pipe.init_buffer(&mut qd, 1, 1024)?;
    let s0 = q0.alloc_tensor::<f16>()?;
    let s1 = q1.alloc_tensor::<f16>()?;
    let dst = qd.alloc_tensor::<f16>()?;
    duplicate(&s0, f16::from_f32(1.5), 512)?;
    duplicate(&s1, f16::from_f32(2.0), 512)?;
    let a = dst.get_phy_addr();
    check_local_memory_ia(CheckLocalMemoryIAParam {
        enable_bit: 0,
        start_addr: a / 32,
        end_addr: (a + 512 * 2) / 32,
        is_vector_write: true,
        is_enable: true,
        ..Default::default()
    })?;
    if reset_first {
        check_local_memory_ia(CheckLocalMemoryIAParam::default())?;
    }
    if write_dst {
        add(&dst, &s0, &s1, 512)?;
        assert_eq!(dst.get_value(511)?, f16::from_f32(3.5));
    } else {
        // Vector reads of the range and writes elsewhere are not checked.
        add(&s0, &s0, &s1, 512)?;
    }
    Ok(())
}

#[test]
fn check_local_memory_ia_example_raises_on_the_vector_write_into_the_range() {
    let e = fail_on(&ASCEND910B, || ia_example(false, true));
    assert_eq!(e.api, "Add");
    assert_eq!(e.category, Category::Memory);
    assert_mentions(
        &e,
        &[
            "AI Core exception",
            "vector write of UB bytes",
            "register 0",
            "PIPE_V",
        ],
    );
    run_on(&ASCEND910B, || ia_example(true, true));
    run_on(&ASCEND910B, || ia_example(false, false));
    supported_on(
        &[&ASCEND310P, &ASCEND910B, &ASCEND910_93, &ASCEND310B],
        "CheckLocalMemoryIA",
        || ia_example(true, true),
    );
}

#[test]
fn check_local_memory_ia_range_is_start_exclusive_end_inclusive_in_32_byte_units() {
    // Units (2, 4]: bytes [96, 160) of the buffer checked for scalar writes.
    let write_at = |byte: u32| {
        move || -> Result<()> {
            let mut pipe = TPipe::new();
            let mut b: TBuf<QuePosition::VECCALC> = TBuf::new();
            pipe.init_buffer(&mut b, 1, 256)?;
            let t = b.get::<u32>()?;
            let base = t.get_phy_addr();
            assert_eq!(base % 32, 0);
            check_local_memory_ia(CheckLocalMemoryIAParam {
                enable_bit: 3,
                start_addr: base / 32 + 2,
                end_addr: base / 32 + 4,
                is_scalar_write: true,
                is_enable: true,
                ..Default::default()
            })?;
            // Reads are not selected.
            t.get_value(30)?;
            t.set_value(byte / 4, 7)
        }
    };
    for ok in [0, 92, 160, 252] {
        run_on(&ASCEND910B, write_at(ok));
    }
    for bad in [96, 128, 156] {
        let e = fail_on(&ASCEND910B, write_at(bad));
        assert_eq!(e.api, "LocalTensor::SetValue");
        assert_mentions(&e, &["scalar write", "register 3", &format!("[{}, ", bad)]);
    }
}

#[test]
fn check_local_memory_ia_mte_reads_and_parameter_ranges() {
    let gm = GmBuffer::zeroed(256);
    let e = fail_on(&ASCEND310P, || {
        let mut pipe = TPipe::new();
        let mut b: TBuf<QuePosition::VECCALC> = TBuf::new();
        pipe.init_buffer(&mut b, 1, 256)?;
        let t = b.get::<f32>()?;
        let unit = t.get_phy_addr() / 32;
        check_local_memory_ia(CheckLocalMemoryIAParam {
            enable_bit: 1,
            start_addr: unit,
            end_addr: unit + 1,
            is_mte_read: true,
            is_enable: true,
            ..Default::default()
        })?;
        // MTE2 writes UB: not selected. MTE3 reads it: raised.
        data_copy(&t, &gt::<f32>(&gm.addr()), 64)?;
        data_copy(&gt::<f32>(&gm.addr()), &t, 64)
    });
    assert_eq!(e.api, "DataCopy");
    assert_mentions(&e, &["MTE read", "PIPE_MTE3", "register 1"]);
    let e = fail_on(&ASCEND910B, || {
        check_local_memory_ia(CheckLocalMemoryIAParam {
            enable_bit: 4,
            is_enable: true,
            ..Default::default()
        })
    });
    assert_eq!(e.category, Category::Range);
    assert_mentions(&e, &["enableBit", "4", "[0, 3]"]);
    let e = fail_on(&ASCEND910B, || {
        check_local_memory_ia(CheckLocalMemoryIAParam {
            end_addr: 65536,
            is_enable: true,
            is_vector_read: true,
            ..Default::default()
        })
    });
    assert_mentions(&e, &["endAddr", "65536", "[0, 65535]"]);
    let r = run_on(&ASCEND910B, || {
        check_local_memory_ia(CheckLocalMemoryIAParam {
            start_addr: 5,
            end_addr: 5,
            is_vector_read: true,
            is_enable: true,
            ..Default::default()
        })
    });
    let w = warnings(&r);
    assert_eq!(w.len(), 1);
    assert!(
        w[0].message.contains("(startAddr 5, endAddr 5] is empty"),
        "{w:?}"
    );
}

// ---- PrintTimeStamp, MetricsProfStart / MetricsProfStop ----

#[test]
fn print_time_stamp_prints_the_documented_record() {
    let t = TimeStamp {
        desc_id: 65577,
        rsv: 0,
        time_stamp: 13806084506158,
        pc_ptr: 20619064414544,
        entry: 13806084502126,
    };
    assert_eq!(
        t.to_string(),
        "descId is 65577, rsv is 0, timeStamp is 13806084506158, pcPtr is 20619064414544, entry is 13806084502126."
    );
    let got = Slot::new();
    run_on(&ASCEND910B, || {
        let a = time_stamp(65577)?;
        let b = time_stamp(65578)?;
        ascendc::print_time_stamp(65579)?;
        got.put((a, b));
        Ok(())
    });
    let (a, b) = got.get();
    assert_eq!((a.desc_id, a.rsv, a.entry), (65577, 0, 0));
    // One PIPE_S instruction each: the counter moves by one.
    assert_eq!((a.time_stamp, b.time_stamp), (1, 2));
    assert_ne!(a.pc_ptr, b.pc_ptr);
    supported_on(
        &[&ASCEND910B, &ASCEND910_93, &ASCEND310B],
        "PrintTimeStamp",
        || time_stamp(0x10000).map(drop),
    );
}

#[test]
fn metrics_prof_start_stop_mark_a_range() {
    let r = run_on(&ASCEND910B, || {
        metrics_prof_start()?;
        ascendc::get_system_cycle()?;
        metrics_prof_stop()
    });
    assert!(warnings(&r).is_empty());
    let apis: Vec<_> = r.blocks[0]
        .trace
        .instructions()
        .iter()
        .map(|i| (i.api, i.pipe))
        .collect();
    assert_eq!(
        apis,
        [
            ("MetricsProfStart", PIPE_S),
            ("GetSystemCycle", PIPE_S),
            ("MetricsProfStop", PIPE_S)
        ]
    );
    let r = run_on(&ASCEND910_93, metrics_prof_stop);
    assert!(warnings(&r)[0]
        .message
        .contains("without an open MetricsProfStart"));
    let r = run_on(&ASCEND910_93, || {
        metrics_prof_start()?;
        metrics_prof_start()
    });
    assert!(warnings(&r)[0].message.contains("already open"));
    supported_on(&[&ASCEND910B, &ASCEND910_93], "MetricsProfStart", || {
        metrics_prof_start()?;
        metrics_prof_stop()
    });
}

// ---- GetDataBlockSizeInBytes, GetArchVersion, GetProgramCounter, GetSubBlockNum, Async ----

#[test]
fn get_data_block_size_in_bytes_example_computes_mask_and_repeat_time() {
    let out = Slot::new();
    run_on(&ASCEND910B, || {
        let data_block_size = get_data_block_size_in_bytes()?;
        let mask = 8 * data_block_size as u64 / 2;
        let repeat_time = (512 / mask) as u8;
        let mut pipe = TPipe::new();
        let mut b: TBuf<QuePosition::VECCALC> = TBuf::new();
        pipe.init_buffer(&mut b, 1, 3 * 1024)?;
        let s0 = b.get_with_offset::<f16>(512, 0)?;
        let s1 = b.get_with_offset::<f16>(512, 1024)?;
        let d = b.get_with_offset::<f16>(512, 2048)?;
        for i in 0..512 {
            s0.set_value(i, f16::from_f32(i as f32))?;
        }
        duplicate(&s1, f16::from_f32(0.5), 512)?;
        add_l0(
            &d,
            &s0,
            &s1,
            mask,
            repeat_time,
            BinaryRepeatParams::new(1, 1, 1, 8, 8, 8),
        )?;
        out.put((data_block_size, mask, repeat_time, d.to_vec()?));
        Ok(())
    });
    let (size, mask, repeat, d) = out.get();
    assert_eq!((size, mask, repeat), (32, 128, 4));
    for (i, v) in d.iter().enumerate() {
        assert_eq!(*v, f16::from_f32(i as f32 + 0.5), "{i}");
    }
    supported_on(
        &[&ASCEND910, &ASCEND310P, &ASCEND910B, &ASCEND910_93],
        "GetDataBlockSizeInBytes",
        || {
            assert_eq!(get_data_block_size_in_bytes()?, 32);
            Ok(())
        },
    );
}

#[test]
fn get_arch_version_is_the_hex_coded_architecture_per_product() {
    for (p, hex) in [
        (&ASCEND310P, "2002"),
        (&ASCEND910B, "2201"),
        (&ASCEND910_93, "2201"),
    ] {
        let v = Slot::new();
        run_on(p, || {
            v.put(get_arch_version()?);
            Ok(())
        });
        assert_eq!(format!("{:x}", v.get()), hex);
        assert_eq!(format!("{:x}", v.get()), p.npu_arch.to_string());
    }
    supported_on(
        &[&ASCEND310P, &ASCEND910B, &ASCEND910_93],
        "GetArchVersion",
        || get_arch_version().map(drop),
    );
}

#[test]
fn get_program_counter_identifies_the_call_site() {
    let pcs = Slot::new();
    run_on(&ASCEND910B, || {
        let mut v = Vec::new();
        for _ in 0..3 {
            v.push(get_program_counter()?);
        }
        v.push(get_program_counter()?);
        pcs.put(v);
        Ok(())
    });
    let v = pcs.get();
    assert_eq!(v[0], v[1]);
    assert_eq!(v[1], v[2]);
    assert_ne!(v[2], v[3]);
    assert!(v.iter().all(|&pc| pc > 0));
    // The low half is the line: the second site is two lines below the first.
    assert_eq!((v[3] & 0xffff_ffff) - (v[0] & 0xffff_ffff), 2);
    supported_on(
        &[&ASCEND310P, &ASCEND910B, &ASCEND910_93],
        "GetProgramCounter",
        || get_program_counter().map(drop),
    );
}

#[test]
fn get_sub_block_num_follows_the_kernel_type_table() {
    // (kernel mode, value on the AIC, value on the AIVs)
    for (mode, aic, aiv) in [
        (KernelMode::Aiv, None, Some(1)),
        (KernelMode::Aic, Some(1), None),
        (KernelMode::Mix, Some(1), Some(2)),
        (KernelMode::MixAic1_1, Some(1), Some(1)),
    ] {
        let seen_aic = AtomicU32::new(0);
        let seen_aiv = AtomicU32::new(0);
        Launch::new(2)
            .profile(&ASCEND910B)
            .kernel_mode(mode)
            .run(|| {
                let n = get_sub_block_num()? as u32;
                if ascendc::is_aic() {
                    seen_aic.store(n, Ordering::Relaxed);
                } else {
                    seen_aiv.store(n, Ordering::Relaxed);
                }
                Ok(())
            })
            .unwrap();
        assert_eq!(
            seen_aic.load(Ordering::Relaxed),
            aic.unwrap_or(0),
            "{mode:?}"
        );
        assert_eq!(
            seen_aiv.load(Ordering::Relaxed),
            aiv.unwrap_or(0),
            "{mode:?}"
        );
    }
    supported_on(&[&ASCEND910B, &ASCEND910_93], "GetSubBlockNum", || {
        get_sub_block_num().map(drop)
    });
}

#[test]
fn async_runs_each_function_on_its_engine_only() {
    let on_aic = AtomicU32::new(0);
    let on_aiv = AtomicU32::new(0);
    Launch::new(3)
        .profile(&ASCEND910_93)
        .kernel_mode(KernelMode::Mix)
        .run(|| {
            async_on(EngineType::AIC, || {
                assert!(ascendc::is_aic());
                on_aic.fetch_add(1, Ordering::Relaxed);
                Ok(())
            })?;
            async_on(EngineType::AIV, || {
                assert!(ascendc::is_aiv());
                on_aiv.fetch_add(1, Ordering::Relaxed);
                Ok(())
            })
        })
        .unwrap();
    assert_eq!(on_aic.load(Ordering::Relaxed), 3);
    assert_eq!(on_aiv.load(Ordering::Relaxed), 6);
    supported_on(&[&ASCEND910B, &ASCEND910_93], "Async", || {
        async_on(EngineType::AIV, || Ok(()))
    });
}

// ---- cache control ----

#[test]
fn data_cache_clean_and_invalid_examples_refresh_the_documented_bytes() {
    let gm = GmBuffer::zeroed(8 * 1024 * 8 + 0x40);
    let run_example = |base: usize, entire: CacheLine| {
        let refreshed = Slot::new();
        Launch::new(2)
            .profile(&ASCEND910B)
            .run(|| {
                let mut global = GlobalTensor::<u64>::new();
                global.set_global_buffer(
                    gm.addr()
                        .add_bytes(base + get_block_idx() as usize * 1024 * 8),
                );
                for i in 0..8 {
                    global.set_value(i, get_block_idx() as u64)?;
                }
                let first =
                    data_cache_clean_and_invalid(&global, entire, Some(DcciDst::CACHELINE_OUT))?;
                let second = data_cache_clean_and_invalid(
                    &global.at(4)?,
                    entire,
                    Some(DcciDst::CACHELINE_OUT),
                )?;
                if get_block_idx() == 1 {
                    refreshed.put((first, second));
                }
                Ok(())
            })
            .unwrap();
        for b in 0..2u64 {
            let at = (base + b as usize * 1024 * 8) / 8;
            assert_eq!(gm.to_vec::<u64>()[at..at + 8], [b; 8]);
        }
        refreshed.get()
    };
    // Example 1: 64-byte aligned, one call covers the 8 values.
    assert_eq!(run_example(0x40, CacheLine::SINGLE_CACHE_LINE).0, 64);
    // Example 2: at 0x20 the first call reaches the boundary (4 values), the second the rest.
    assert_eq!(run_example(0x20, CacheLine::SINGLE_CACHE_LINE), (32, 64));
    // Example 4: the whole data cache.
    assert_eq!(run_example(0x20, CacheLine::ENTIRE_DATA_CACHE), (0, 0));
}

#[test]
fn data_cache_clean_and_invalid_forms_and_refusals() {
    let gm = GmBuffer::zeroed(256);
    let g = || gt::<u32>(&gm.addr());
    // The form without dcciDst: GM, on every listed product, the only one on 310P.
    supported_on(
        &[&ASCEND310P, &ASCEND910B, &ASCEND910_93, &ASCEND310B],
        "DataCacheCleanAndInvalid",
        || data_cache_clean_and_invalid(&g(), CacheLine::SINGLE_CACHE_LINE, None).map(drop),
    );
    let e = fail_on(&ASCEND310P, || {
        data_cache_clean_and_invalid(
            &g(),
            CacheLine::SINGLE_CACHE_LINE,
            Some(DcciDst::CACHELINE_OUT),
        )
        .map(drop)
    });
    assert_mentions(&e, &["only the prototype without dcciDst"]);
    let e = fail_on(&ASCEND910B, || {
        data_cache_clean_and_invalid(
            &g(),
            CacheLine::SINGLE_CACHE_LINE,
            Some(DcciDst::CACHELINE_ATOMIC),
        )
        .map(drop)
    });
    assert_mentions(&e, &["CACHELINE_ATOMIC is not yet supported"]);
    let e = fail_on(&ASCEND910B, || {
        data_cache_clean_and_invalid(
            &g(),
            CacheLine::SINGLE_CACHE_LINE,
            Some(DcciDst::CACHELINE_UB),
        )
        .map(drop)
    });
    assert_mentions(&e, &["CACHELINE_UB", "LocalTensor"]);
    // A UB tensor with CACHELINE_UB: 24 bytes into its line leave 40.
    let ub_line = |dst: DcciDst| {
        move || -> Result<()> {
            let mut pipe = TPipe::new();
            let mut b: TBuf<QuePosition::VECCALC> = TBuf::new();
            pipe.init_buffer(&mut b, 1, 256)?;
            let t = b.get::<u32>()?;
            assert_eq!(t.get_phy_addr() % 64, 0);
            let n =
                data_cache_clean_and_invalid(&t.at(6)?, CacheLine::SINGLE_CACHE_LINE, Some(dst))?;
            assert_eq!(n, 40);
            Ok(())
        }
    };
    run_on(&ASCEND910_93, ub_line(DcciDst::CACHELINE_UB));
    let e = fail_on(&ASCEND910_93, ub_line(DcciDst::CACHELINE_OUT));
    assert_mentions(&e, &["a LocalTensor takes DcciDst::CACHELINE_UB"]);
}

#[test]
fn data_cache_preload_checks_the_address() {
    let gm = GmBuffer::zeroed(256);
    let src = || gt::<u64>(&gm.addr());
    supported_on(
        &[&ASCEND310P, &ASCEND910B, &ASCEND910_93, &ASCEND310B],
        "DataCachePreload",
        || {
            data_cache_preload(&src(), 0i64)?;
            data_cache_preload(&src(), 255i16)
        },
    );
    let e = fail_on(&ASCEND910B, || data_cache_preload(&src(), 256i64));
    assert_eq!(e.category, Category::Memory);
    assert_mentions(&e, &["256 bytes past the tensor", "256-byte GM allocation"]);
    let e = fail_on(&ASCEND910B, || data_cache_preload(&src().at(1)?, -9i16));
    assert_mentions(&e, &["byte -1"]);
}

#[test]
fn icache_preload_length_is_bounded_by_the_icache_of_the_core() {
    let r = run_on(&ASCEND910B, || {
        icache_preload(2)?;
        icache_preload(7)?;
        assert_eq!(get_icache_preload_status()?, 0);
        Ok(())
    });
    assert_eq!(r.blocks[0].count(PIPE_S), 3);
    let e = fail_on(&ASCEND910B, || icache_preload(8));
    assert_eq!(e.category, Category::Range);
    assert_mentions(&e, &["preFetchLen", "8", "[0, 8)", "16 KiB", "vector"]);
    // A cube core has 32 KiB: up to 15.
    let e = Launch::new(1)
        .profile(&ASCEND910B)
        .kernel_mode(KernelMode::Aic)
        .run(|| {
            icache_preload(15)?;
            icache_preload(16)
        })
        .unwrap_err();
    assert_mentions(&e.errors[0], &["[0, 16)", "32 KiB", "cube"]);
    // 310P ignores the length (128 bytes are loaded).
    run_on(&ASCEND310P, || icache_preload(1000));
    supported_on(
        &[&ASCEND310P, &ASCEND910B, &ASCEND910_93],
        "ICachePreLoad",
        || icache_preload(1),
    );
    supported_on(
        &[&ASCEND910B, &ASCEND910_93],
        "GetICachePreloadStatus",
        || get_icache_preload_status().map(drop),
    );
}
