//! `DumpTensor` / `DumpAccChkPoint`: a tensor's elements printed in the documented dump format.
//!
//! The text is one header line, `DumpTensor: desc=<desc>, addr=0x<byte address>, data_type=<type>,
//! position=<UB|L1|L0C|GM…>, dump_size=<elements>`, then the elements: `[v0, v1, …]` without a
//! shape; with a [`ShapeInfo`] one bracket level per dimension (`[[a,b],\n[c,d]]`), preceded by a
//! note when the shape and the dump size differ (missing elements print as `-`). Floating-point
//! elements print with six decimals (`%f`), integers in decimal.

use super::context::with_core;
use super::tensor::{GlobalTensor, LocalTensor, ShapeInfo};
use crate::core::dma::{self, Endpoint};
use crate::core::trace::{Access, Pipe, Space};
use crate::dtype::{DType, Element};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::position::Hardware;

/// Largest dump of one call, in bytes; larger dumps are not printed (a warning says so).
pub const DUMP_LIMIT_BYTES: u64 = 30 * 1024;

/// A tensor [`dump_tensor`] can print: a [`LocalTensor`] (UB, L1, L0C…) or a [`GlobalTensor`].
pub trait DumpSource {
    /// Reads `count` elements from element `offset` on `core`, as printed text each, plus the
    /// byte address and position name of element `offset`.
    #[doc(hidden)]
    fn dump_read(
        &self,
        core: &mut crate::core::Core,
        api: &'static str,
        offset: u32,
        count: u32,
        loc: SourceLoc,
    ) -> Result<(u64, &'static str, &'static str, Vec<String>)>;
}

fn type_name(d: DType) -> &'static str {
    match d {
        DType::Int8 => "int8",
        DType::Uint8 => "uint8",
        DType::Int16 => "int16",
        DType::Uint16 => "uint16",
        DType::Int32 => "int32",
        DType::Uint32 => "uint32",
        DType::Int64 => "int64",
        DType::Uint64 => "uint64",
        DType::Half => "float16",
        DType::Bfloat16 => "bfloat16",
        DType::Float => "float32",
        DType::Double => "float64",
        DType::Int4 => "int4",
    }
}

fn position_name(hw: Hardware) -> &'static str {
    match hw {
        Hardware::GM => "GM",
        Hardware::UB => "UB",
        Hardware::L1 => "L1",
        Hardware::L0A => "L0A",
        Hardware::L0B => "L0B",
        Hardware::L0C => "L0C",
        Hardware::BIAS => "BIAS",
        Hardware::FIXBUF => "FIXBUF",
    }
}

fn element_text<T: Element>(v: T) -> String {
    match T::DTYPE {
        DType::Half | DType::Bfloat16 | DType::Float | DType::Double => {
            format!("{:.6}", v.to_f64())
        }
        _ => format!("{v}"),
    }
}

fn elements<T: Element>(bytes: &[u8]) -> Vec<String> {
    bytes
        .chunks_exact(T::SIZE)
        .map(|c| element_text(bytemuck::pod_read_unaligned::<T>(c)))
        .collect()
}

fn too_many(api: &'static str, offset: u32, count: u32, size: u64) -> SimError {
    SimError::new(
        Category::Size,
        api,
        format!("offset {offset} + dumpSize {count} elements exceed the tensor's {size} elements"),
    )
}

impl<T: Element> DumpSource for LocalTensor<T> {
    fn dump_read(
        &self,
        core: &mut crate::core::Core,
        api: &'static str,
        offset: u32,
        count: u32,
        loc: SourceLoc,
    ) -> Result<(u64, &'static str, &'static str, Vec<String>)> {
        if offset as u64 + count as u64 > self.get_size() as u64 {
            return Err(too_many(api, offset, count, self.get_size() as u64));
        }
        let addr = self.addr as u64 + offset as u64 * T::SIZE as u64;
        let mut bytes = vec![0u8; count as usize * T::SIZE];
        dma::read(core, api, Endpoint::Local(self.hw, addr), &mut bytes)?;
        let access = Access::contiguous(false, Space::Local(self.hw), addr, bytes.len() as u64);
        core.issue(Pipe::S, api, loc, &[access]);
        Ok((
            addr,
            type_name(T::DTYPE),
            position_name(self.hw),
            elements::<T>(&bytes),
        ))
    }
}

impl<T: Element> DumpSource for GlobalTensor<T> {
    fn dump_read(
        &self,
        core: &mut crate::core::Core,
        api: &'static str,
        offset: u32,
        count: u32,
        loc: SourceLoc,
    ) -> Result<(u64, &'static str, &'static str, Vec<String>)> {
        let g = self.gm(api)?;
        if self.size > 0 && offset as u64 + count as u64 > self.size {
            return Err(too_many(api, offset, count, self.size));
        }
        let off = offset as u64 * T::SIZE as u64;
        let mut bytes = vec![0u8; count as usize * T::SIZE];
        dma::read(core, api, Endpoint::Gm(g, off), &mut bytes)?;
        let access = Access::contiguous(
            false,
            Space::Gm(g.region_id()),
            g.offset() as u64 + off,
            bytes.len() as u64,
        );
        core.issue(Pipe::S, api, loc, &[access]);
        Ok((
            g.offset() as u64 + off,
            type_name(T::DTYPE),
            "GM",
            elements::<T>(&bytes),
        ))
    }
}

/// Formats `values` nested by `dims` (outermost first), `-` past the end of `values`.
fn nest(values: &[String], dims: &[u32], start: &mut usize, out: &mut String) {
    out.push('[');
    match dims {
        [] => {}
        [n] => {
            for i in 0..*n {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(values.get(*start).map_or("-", |s| s.as_str()));
                *start += 1;
            }
        }
        [n, rest @ ..] => {
            for i in 0..*n {
                if i > 0 {
                    out.push_str(",\n");
                }
                nest(values, rest, start, out);
            }
        }
    }
    out.push(']');
}

/// The text `DumpTensor` (`count_off` 0) or `DumpAccChkPoint` prints for `dump_size` elements of
/// `tensor` starting `count_off` elements in, with `desc` in the header and laid out by `shape`
/// when given. Counts are in elements. Fails when the elements lie outside the tensor or the
/// shape has more than 8 dimensions.
#[track_caller]
pub fn dump_text<D: DumpSource>(
    tensor: &D,
    desc: u32,
    count_off: u32,
    dump_size: u32,
    shape: Option<&ShapeInfo>,
) -> Result<String> {
    let loc = SourceLoc::caller();
    const API: &str = "DumpTensor";
    with_core(API, loc, |core| {
        let (addr, dtype, position, values) =
            tensor.dump_read(core, API, count_off, dump_size, loc)?;
        let mut out = format!(
            "DumpTensor: desc={desc}, addr=0x{addr:x}, data_type={dtype}, position={position}, dump_size={dump_size}\n"
        );
        match shape {
            None => {
                out.push('[');
                out.push_str(&values.join(", "));
                out.push(']');
            }
            Some(s) => {
                if s.shape_dim as usize > s.shape.len() {
                    return Err(SimError::new(
                        Category::Range,
                        API,
                        format!("ShapeInfo has {} dimensions; at most 8", s.shape_dim),
                    ));
                }
                let dims = &s.shape[..s.shape_dim as usize];
                let shape_size: u64 = dims.iter().map(|&d| d as u64).product();
                let listed: Vec<String> = dims.iter().map(|d| d.to_string()).collect();
                if shape_size < dump_size as u64 {
                    out.push_str(&format!(
                        "shape is [{}], dumpSize is {dump_size}, dumpSize is greater than shapeSize.\n",
                        listed.join(", ")
                    ));
                } else if shape_size > dump_size as u64 {
                    out.push_str(&format!(
                        "shape is [{}], dumpSize is {dump_size}, data is not enough.\n",
                        listed.join(", ")
                    ));
                }
                nest(&values, dims, &mut 0, &mut out);
            }
        }
        out.push('\n');
        let bytes = dump_size as u64 * element_bytes(dtype);
        if bytes > DUMP_LIMIT_BYTES {
            core.warn(
                Category::Size,
                API,
                format!("a dump of {bytes} bytes exceeds the {DUMP_LIMIT_BYTES}-byte limit of one call; nothing printed"),
                loc,
            );
            return Ok(String::new());
        }
        Ok(out)
    })
}

fn element_bytes(type_name: &str) -> u64 {
    match type_name {
        "int8" | "uint8" => 1,
        "int16" | "uint16" | "float16" | "bfloat16" => 2,
        "int32" | "uint32" | "float32" => 4,
        _ => 8,
    }
}

/// `DumpTensor(tensor, desc, dumpSize)`: prints `dump_size` elements of `tensor` to stdout.
#[track_caller]
pub fn dump_tensor<D: DumpSource>(tensor: &D, desc: u32, dump_size: u32) -> Result<()> {
    print!("{}", dump_text(tensor, desc, 0, dump_size, None)?);
    Ok(())
}

/// `DumpTensor(tensor, desc, dumpSize, shapeInfo)`: prints `dump_size` elements laid out by `shape`.
#[track_caller]
pub fn dump_tensor_shaped<D: DumpSource>(
    tensor: &D,
    desc: u32,
    dump_size: u32,
    shape: &ShapeInfo,
) -> Result<()> {
    print!("{}", dump_text(tensor, desc, 0, dump_size, Some(shape))?);
    Ok(())
}

/// `DumpAccChkPoint(tensor, index, countOff, dumpSize)`: prints `dump_size` elements starting
/// `count_off` elements in, with `index` in the header.
#[track_caller]
pub fn dump_acc_chk_point<D: DumpSource>(
    tensor: &D,
    index: u32,
    count_off: u32,
    dump_size: u32,
) -> Result<()> {
    print!("{}", dump_text(tensor, index, count_off, dump_size, None)?);
    Ok(())
}
