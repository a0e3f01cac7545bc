//! Reading and writing numpy `.npy` files (format versions 1.0 to 3.0, C order, little-endian
//! numeric types) as raw element bytes with a shape.

use ascendc::DType;

const MAGIC: &[u8] = b"\x93NUMPY";

/// The `descr` numpy writes for each element type (bfloat16 has none).
const DESCRS: [(DType, &str); 11] = [
    (DType::Int8, "|i1"),
    (DType::Uint8, "|u1"),
    (DType::Int16, "<i2"),
    (DType::Uint16, "<u2"),
    (DType::Int32, "<i4"),
    (DType::Uint32, "<u4"),
    (DType::Int64, "<i8"),
    (DType::Uint64, "<u8"),
    (DType::Half, "<f2"),
    (DType::Float, "<f4"),
    (DType::Double, "<f8"),
];

/// An array: element type, shape (elements per dimension) and the raw little-endian bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct Array {
    /// Element type (`Uint8` for bool arrays).
    pub dtype: DType,
    /// A bool array (numpy `|b1`): one byte, 0 or 1, per element.
    pub boolean: bool,
    /// Elements per dimension, outermost first (empty for a scalar).
    pub shape: Vec<u64>,
    /// `shape.product() * dtype.size()` bytes in C order.
    pub data: Vec<u8>,
}

/// The value of `key` in the header dictionary (up to the next top-level comma or brace).
fn dict_value<'a>(header: &'a str, key: &str) -> Result<&'a str, String> {
    let at = header
        .find(&format!("'{key}'"))
        .ok_or_else(|| format!("the header has no '{key}'"))?;
    let rest = header[at + key.len() + 2..].trim_start();
    let rest = rest
        .strip_prefix(':')
        .ok_or_else(|| format!("'{key}' has no value"))?
        .trim_start();
    let end = if rest.starts_with('(') {
        rest.find(')').map(|e| e + 1)
    } else {
        rest.find([',', '}'])
    }
    .ok_or_else(|| format!("the value of '{key}' is not terminated"))?;
    Ok(rest[..end].trim())
}

/// Parses `.npy` bytes.
pub fn parse(bytes: &[u8]) -> Result<Array, String> {
    if bytes.len() < 10 || &bytes[..6] != MAGIC {
        return Err("not a .npy file (no \\x93NUMPY magic)".into());
    }
    let (len, start) = match bytes[6] {
        1 => (u16::from_le_bytes([bytes[8], bytes[9]]) as usize, 10),
        2 | 3 if bytes.len() >= 12 => (
            u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize,
            12,
        ),
        v => return Err(format!(".npy format version {v} is not supported (1 to 3)")),
    };
    let header = bytes
        .get(start..start + len)
        .ok_or("the .npy header is cut short")?;
    let header = std::str::from_utf8(header).map_err(|_| "the .npy header is not text")?;
    let descr = dict_value(header, "descr")?.trim_matches(['\'', '"']);
    let descr_norm = descr.replace('=', "<");
    let boolean = descr_norm == "|b1";
    let dtype = if boolean {
        Some(DType::Uint8)
    } else {
        None
    }
    .or_else(|| {
        DESCRS
        .iter()
        .find(|(_, d)| {
            *d == descr_norm || (d.starts_with('|') && d[1..] == *descr_norm.trim_start_matches('<'))
        })
            .map(|(t, _)| *t)
    })
    .ok_or_else(|| {
        format!(
                "element type '{descr}' is not supported in .npy (bool, little-endian int8 … uint64, float16, float32, float64; bfloat16 as .bin:bfloat16:SHAPE)"
            )
        })?;
    if dict_value(header, "fortran_order")? != "False" {
        return Err(
            "Fortran-order arrays are not supported (save with np.ascontiguousarray)".into(),
        );
    }
    let shape_text = dict_value(header, "shape")?;
    let shape = shape_text
        .trim_start_matches('(')
        .trim_end_matches(')')
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.trim_end_matches('L')
                .parse::<u64>()
                .map_err(|_| format!("bad shape {shape_text}"))
        })
        .collect::<Result<Vec<u64>, String>>()?;
    let data = &bytes[start + len..];
    let want = shape.iter().product::<u64>() as usize * dtype.size();
    if data.len() != want {
        return Err(format!(
            "the data has {} bytes, shape {shape_text} of {} needs {want}",
            data.len(),
            dtype.c_name()
        ));
    }
    Ok(Array {
        dtype,
        boolean,
        shape,
        data: data.to_vec(),
    })
}

/// The `.npy` (format 1.0) bytes of `a`.
pub fn write(a: &Array) -> Result<Vec<u8>, String> {
    let descr = [(DType::Uint8, "|b1")]
        .iter()
        .filter(|_| a.boolean)
        .chain(&DESCRS)
        .find(|(t, _)| *t == a.dtype)
        .map(|(_, d)| *d)
        .ok_or_else(|| {
            format!(
                "{} has no .npy element type: write the output as .bin",
                a.dtype.c_name()
            )
        })?;
    let dims: Vec<String> = a.shape.iter().map(u64::to_string).collect();
    let shape = match dims.len() {
        1 => format!("({},)", dims[0]),
        _ => format!("({})", dims.join(", ")),
    };
    let mut header = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    // Magic, version and length take 10 bytes; the header ends in a newline; the whole is a
    // multiple of 64 bytes.
    let pad = (64 - (10 + header.len() + 1) % 64) % 64;
    header.push_str(&" ".repeat(pad));
    header.push('\n');
    let mut out = MAGIC.to_vec();
    out.extend([1, 0]);
    out.extend((header.len() as u16).to_le_bytes());
    out.extend(header.as_bytes());
    out.extend(&a.data);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_keeps_type_shape_and_data() {
        let a = Array {
            dtype: DType::Half,
            boolean: false,
            shape: vec![2, 3],
            data: (0u8..12).collect(),
        };
        let bytes = write(&a).unwrap();
        assert_eq!(
            (10 + u16::from_le_bytes([bytes[8], bytes[9]]) as usize) % 64,
            0
        );
        assert_eq!(parse(&bytes).unwrap(), a);
        let one = Array {
            dtype: DType::Int8,
            boolean: false,
            shape: vec![4],
            data: vec![1, 2, 3, 4],
        };
        assert!(String::from_utf8_lossy(&write(&one).unwrap()).contains("'shape': (4,)"));
        assert_eq!(parse(&write(&one).unwrap()).unwrap(), one);
        let flags = Array {
            dtype: DType::Uint8,
            boolean: true,
            shape: vec![3],
            data: vec![1, 0, 1],
        };
        assert!(String::from_utf8_lossy(&write(&flags).unwrap()).contains("'|b1'"));
        assert_eq!(parse(&write(&flags).unwrap()).unwrap(), flags);
    }

    #[test]
    fn bad_files_are_named_errors() {
        assert!(parse(b"hello").unwrap_err().contains("magic"));
        let mut b = write(&Array {
            dtype: DType::Float,
            boolean: false,
            shape: vec![2],
            data: vec![0; 8],
        })
        .unwrap();
        b.pop();
        assert!(parse(&b).unwrap_err().contains("needs 8"));
        let at = b.windows(3).position(|w| w == b"<f4").unwrap();
        b[at] = b'>';
        assert!(parse(&b).unwrap_err().contains("'>f4'"));
    }
}
