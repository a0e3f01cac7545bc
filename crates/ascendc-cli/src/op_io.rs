//! The tensor files of `ascendc op run`: `NAME=FILE` where FILE is a `.npy` file or a raw
//! `.bin` file with its type and shape (`x.bin:float16:8,2048`).

use crate::npy::{self, Array};
use ascendc::DType;
use std::path::PathBuf;

/// One `--input` / `--output` argument.
#[derive(Debug, Clone, PartialEq)]
pub struct TensorArg {
    /// The input or output name of the operator definition.
    pub name: String,
    /// The file.
    pub path: PathBuf,
    /// `.npy` (type and shape in the file) or raw bytes.
    pub npy: bool,
    /// Type and shape given after the `.bin` path (required for `.bin` inputs).
    pub spec: Option<(DType, Vec<u64>)>,
    /// The type given is `bool` (bytes 0 or 1; `spec` says `Uint8`).
    pub boolean: bool,
}

/// Parses `NAME=FILE`, FILE being `path.npy`, `path.bin:dtype:d0,d1,…` or (outputs) `path.bin`;
/// a `.npy` path may carry a type and shape too (an output's, for an operator without
/// InferShape).
pub fn parse_arg(flag: &str, text: &str) -> Result<TensorArg, String> {
    let (name, file) = text
        .split_once('=')
        .filter(|(n, f)| !n.is_empty() && !f.is_empty())
        .ok_or_else(|| {
            format!("{flag} {text}: expected NAME=FILE (FILE is x.npy or x.bin:float16:8,2048)")
        })?;
    let mut arg = TensorArg {
        name: name.to_string(),
        path: PathBuf::from(file),
        npy: false,
        spec: None,
        boolean: false,
    };
    if file.ends_with(".npy") {
        arg.npy = true;
        return Ok(arg);
    }
    let parts: Vec<&str> = file.rsplitn(3, ':').collect();
    if parts.len() == 3 {
        arg.boolean = parts[1] == "bool";
        let dtype = DType::parse(if arg.boolean { "uint8" } else { parts[1] }).ok_or_else(|| {
            format!(
                "{flag} {text}: unknown type '{}' (bool, float16, bfloat16, float32, float64, int8 … uint64)",
                parts[1]
            )
        })?;
        let shape = parts[0]
            .split(',')
            .map(|d| d.trim().parse::<u64>())
            .collect::<Result<Vec<u64>, _>>()
            .map_err(|_| {
                format!(
                    "{flag} {text}: shape '{}' is not comma-separated dimensions (e.g. 8,2048)",
                    parts[0]
                )
            })?;
        arg.path = PathBuf::from(parts[2]);
        arg.npy = parts[2].ends_with(".npy");
        arg.spec = Some((dtype, shape));
    } else if file.contains(':') {
        return Err(format!(
            "{flag} {text}: a .bin file takes its type and shape as FILE:DTYPE:SHAPE (e.g. x.bin:float16:8,2048)"
        ));
    }
    Ok(arg)
}

/// Reads an input: the `.npy` file, or the raw file checked against its type and shape.
pub fn read_input(arg: &TensorArg) -> Result<Array, String> {
    let shown = arg.path.display();
    let bytes = std::fs::read(&arg.path)
        .map_err(|e| format!("--input {}: cannot read {shown}: {e}", arg.name))?;
    if arg.npy {
        let a = npy::parse(&bytes).map_err(|e| format!("--input {}: {shown}: {e}", arg.name))?;
        if let Some((dtype, shape)) = &arg.spec {
            if (*dtype, shape, arg.boolean) != (a.dtype, &a.shape, a.boolean) {
                return Err(format!(
                    "--input {}: {shown} holds {} of shape {:?}, the argument says {} of shape {shape:?}",
                    arg.name,
                    a.dtype.c_name(),
                    a.shape,
                    dtype.c_name()
                ));
            }
        }
        return Ok(a);
    }
    let (dtype, shape) = arg.spec.clone().ok_or_else(|| {
        format!(
            "--input {}: {shown} is raw data: give its type and shape, {}={shown}:float16:8,2048",
            arg.name, arg.name
        )
    })?;
    let want = shape.iter().product::<u64>() as usize * dtype.size();
    if bytes.len() != want {
        return Err(format!(
            "--input {}: {shown} has {} bytes; {} of shape {shape:?} needs {want}",
            arg.name,
            bytes.len(),
            dtype.c_name()
        ));
    }
    Ok(Array {
        dtype,
        boolean: arg.boolean,
        shape,
        data: bytes,
    })
}

/// Writes an output as `.npy` or raw bytes; a type and shape given with a `.bin` path must be
/// the output's.
pub fn write_output(arg: &TensorArg, a: &Array) -> Result<(), String> {
    if let Some((dtype, shape)) = &arg.spec {
        if *dtype != a.dtype || *shape != a.shape || arg.boolean != a.boolean {
            return Err(format!(
                "--output {}: the output is {} of shape {:?}, the argument says {} of shape {shape:?}",
                arg.name,
                a.dtype.c_name(),
                a.shape,
                dtype.c_name()
            ));
        }
    }
    let bytes = if arg.npy {
        npy::write(a).map_err(|e| format!("--output {}: {e}", arg.name))?
    } else {
        a.data.clone()
    };
    std::fs::write(&arg.path, bytes).map_err(|e| {
        format!(
            "--output {}: cannot write {}: {e}",
            arg.name,
            arg.path.display()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_arguments_parse() {
        let a = parse_arg("--input", "x=data/x.bin:float16:8,2048").unwrap();
        assert_eq!(a.name, "x");
        assert_eq!(a.path, PathBuf::from("data/x.bin"));
        assert_eq!(a.spec, Some((DType::Half, vec![8, 2048])));
        assert!(parse_arg("--input", "x=x.npy").unwrap().npy);
        let y = parse_arg("--output", "y=y.npy:float32:3,4").unwrap();
        assert!(y.npy && y.spec == Some((DType::Float, vec![3, 4])));
        assert!(parse_arg("--output", "z=z.bin").unwrap().spec.is_none());
        assert!(parse_arg("--input", "x.npy")
            .unwrap_err()
            .contains("NAME=FILE"));
        assert!(parse_arg("--input", "x=x.bin:f99:4")
            .unwrap_err()
            .contains("unknown type 'f99'"));
        assert!(parse_arg("--input", "x=x.bin:float32:4,a")
            .unwrap_err()
            .contains("shape '4,a'"));
    }
}
