//! The four `Add` calls of the "common parameters" document (seed 002): contiguous mask 64 on
//! int16 and int32, and the bitwise mask 0x5555… on int16 and int32. Each destination is filled
//! with 0x7777 (30583) first, so lanes the mask disables show that value.
//!
//! Run: `cargo run --release --example vector_mask`

use ascendc::prelude::*;
use std::sync::Mutex;

const FILL: i32 = 0x7777;
const PARAMS: BinaryRepeatParams = BinaryRepeatParams::new(1, 1, 1, 8, 8, 8);

fn main() {
    let out: Mutex<Vec<(String, Vec<i32>)>> = Mutex::new(Vec::new());
    Launch::new(1)
        .run(|| {
            let mut pipe = TPipe::new();
            let mut buf = TBuf::<QuePosition::VECCALC>::new();
            pipe.init_buffer(&mut buf, 1, 2048)?;
            let all = buf.get::<u8>()?;
            let src16 = all.reinterpret_cast::<i16>();
            let dst16 = all.at(256)?.reinterpret_cast::<i16>();
            let src32 = all.at(512)?.reinterpret_cast::<i32>();
            let dst32 = all.at(768)?.reinterpret_cast::<i32>();
            for i in 0..128 {
                src16.set_value(i, i as i16 + 1)?;
            }
            for i in 0..64 {
                src32.set_value(i, i as i32 + 1)?;
            }
            let m = 6148914691236517205u64;
            let cases: [(&str, Mask); 2] = [
                ("mask = 64", Mask::Count(64)),
                ("mask = {0x5555…, …}", Mask::Bits([m, m])),
            ];
            for (name, mask) in cases {
                duplicate(&dst16, FILL as i16, 128)?;
                add_l0(&dst16, &src16, &src16, mask, 1, PARAMS)?;
                let v = dst16
                    .to_vec()?
                    .into_iter()
                    .take(128)
                    .map(i32::from)
                    .collect();
                out.lock().unwrap().push((format!("int16_t, {name}"), v));
                duplicate(&dst32, FILL, 64)?;
                let mask32 = match mask {
                    Mask::Bits([lo, _]) => Mask::Bits([lo, 0]),
                    other => other,
                };
                add_l0(&dst32, &src32, &src32, mask32, 1, PARAMS)?;
                let v = dst32.to_vec()?.into_iter().take(64).collect();
                out.lock().unwrap().push((format!("int32_t, {name}"), v));
            }
            Ok(())
        })
        .expect("the kernel runs");
    println!("src0 = src1 = [1, 2, …, N]; every destination was filled with 0x7777 = {FILL} before the Add,");
    println!("so lanes the mask disables still show {FILL}.\n");
    for (name, v) in out.into_inner().unwrap() {
        println!(
            "Add<{name}>, repeat 1, {{1,1,1,8,8,8}}: {} elements",
            v.len()
        );
        for row in v.chunks(16) {
            let cells: Vec<String> = row.iter().map(|x| format!("{x:>6}")).collect();
            println!("  {}", cells.join(""));
        }
        println!();
    }
}
