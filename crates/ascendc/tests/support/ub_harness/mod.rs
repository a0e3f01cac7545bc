//! Test harness: runs a kernel body with a 64 KiB VECCALC scratch buffer carved into tensors.
#![allow(dead_code)]

use ascendc::chip::ChipProfile;
use ascendc::prelude::*;
use ascendc::{Element, LaunchError, LaunchReport, SimError};
use std::sync::Mutex;

/// Scratch UB: hands out 32-byte-aligned tensors one after another.
pub struct Ub {
    buf: TBuf<QuePosition::VECCALC>,
    next: u32,
}

impl Ub {
    /// A tensor of `n` elements, 32-byte aligned, filled with `fill`.
    #[track_caller]
    pub fn tensor<T: Element>(&mut self, n: u32, fill: T) -> LocalTensor<T> {
        let bytes = (n * T::SIZE as u32).div_ceil(32) * 32;
        let mut t = self
            .buf
            .get::<u8>()
            .unwrap()
            .at(self.next)
            .unwrap()
            .reinterpret_cast::<T>();
        t.set_size(n).unwrap();
        self.next += bytes;
        for i in 0..n {
            t.set_value(i, fill).unwrap();
        }
        t
    }

    /// A tensor holding `v`.
    #[track_caller]
    pub fn from<T: Element>(&mut self, v: &[T]) -> LocalTensor<T> {
        let t = self.tensor(v.len() as u32, T::default());
        for (i, x) in v.iter().enumerate() {
            t.set_value(i as u32, *x).unwrap();
        }
        t
    }
}

/// Runs `f` in a one-block launch and returns its value and the launch report.
pub fn run_on<R: Send>(
    launch: Launch,
    f: impl Fn(&mut Ub) -> Result<R> + Sync,
) -> std::result::Result<(R, LaunchReport), LaunchError> {
    let out = Mutex::new(None);
    let report = launch.run(|| {
        let mut pipe = TPipe::new();
        let mut buf = TBuf::<QuePosition::VECCALC>::new();
        pipe.init_buffer(&mut buf, 1, 65536)?;
        let mut ub = Ub { buf, next: 0 };
        let r = f(&mut ub)?;
        *out.lock().unwrap() = Some(r);
        Ok(())
    })?;
    Ok((out.into_inner().unwrap().unwrap(), report))
}

/// Runs `f` on the default product (A2) and returns its value.
pub fn run<R: Send>(f: impl Fn(&mut Ub) -> Result<R> + Sync) -> R {
    run_on(Launch::new(1), f).unwrap().0
}

/// Runs `f` on a product, optionally in fp16 Inf/NaN mode.
pub fn run_p<R: Send>(p: &str, f: impl Fn(&mut Ub) -> Result<R> + Sync) -> R {
    let l = Launch::new(1).profile(ChipProfile::by_name(p).unwrap());
    run_on(l, f).unwrap().0
}

/// Runs `f` in fp16 Inf/NaN mode on A2.
pub fn run_inf<R: Send>(f: impl Fn(&mut Ub) -> Result<R> + Sync) -> R {
    run_on(Launch::new(1).fp16_inf_nan(true), f).unwrap().0
}

/// Runs `f` on a product and returns the first error of the launch.
pub fn error_on(p: &str, f: impl Fn(&mut Ub) -> Result<()> + Sync) -> SimError {
    let l = Launch::new(1).profile(ChipProfile::by_name(p).unwrap());
    match run_on(l, f) {
        Ok(_) => panic!("the kernel did not fail"),
        Err(e) => e.errors[0].clone(),
    }
}

/// Runs `f` on a product and returns every diagnostic message.
pub fn warnings_on(p: &str, f: impl Fn(&mut Ub) -> Result<()> + Sync) -> Vec<String> {
    let l = Launch::new(1).profile(ChipProfile::by_name(p).unwrap());
    let (_, report) = run_on(l, f).unwrap();
    report.diagnostics().map(|d| d.to_string()).collect()
}

/// Half bit patterns.
pub fn bits16(v: &[f16]) -> Vec<u16> {
    v.iter().map(|x| x.to_bits()).collect()
}

/// A half from its value.
pub fn h(x: f32) -> f16 {
    f16::from_f32(x)
}
