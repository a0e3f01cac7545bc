#[path = "kernels/add.rs"]
mod kernels;
use ascendc::prelude::*;
use kernels::{add_custom, AddTiling, BUFFER_NUM};
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let n: usize = a[1].parse().unwrap();
    let tile: u32 = a[2].parse().unwrap();
    let threads: usize = a.get(3).map(|s| s.parse().unwrap()).unwrap_or(1);
    let block_dim = 8u32;
    let x: Vec<f32> = (0..n).map(|i| (i % 1000) as f32 * 0.5).collect();
    let y: Vec<f32> = (0..n).map(|i| (i % 777) as f32 * 0.25).collect();
    let (xg, yg, zg) = (
        GmBuffer::from_slice(&x),
        GmBuffer::from_slice(&y),
        GmBuffer::zeroed(n * 4),
    );
    let (xa, ya, za) = (xg.addr(), yg.addr(), zg.addr());
    let tiling = AddTiling {
        total_length: n as u32,
        tile_num: n as u32 / block_dim / BUFFER_NUM / tile,
    };
    for _ in 0..3 {
        let s = std::time::Instant::now();
        Launch::new(block_dim)
            .threads(threads)
            .record_trace(false)
            .run(|| add_custom(xa.clone(), ya.clone(), za.clone(), tiling))
            .unwrap();
        println!("{:?}", s.elapsed());
    }
    let s = std::time::Instant::now();
    let mut z = vec![0f32; n];
    for ((o, a), b) in z.iter_mut().zip(&x).zip(&y) {
        *o = a + b;
    }
    std::hint::black_box(&mut z);
    println!("native {:?}", s.elapsed());
}
