//! Which products provide the system-level APIs of the scalar, resource-management,
//! special-register and atomic groups: one row per API, from the product list of its page.

use crate::chip::{ChipProfile, Product};
use crate::error::{Category, Result, SimError};

use Product::*;

/// One row: the API and the products whose documentation page lists it as supported.
struct Row {
    api: &'static str,
    products: &'static [Product],
}

const A2_A3: &[Product] = &[Ascend910B, Ascend910_93];
const SPM: &[Product] = &[Ascend910, Ascend310P, Ascend910B, Ascend910_93];

const TABLE: &[Row] = &[
    Row {
        api: "WriteGmByPassDCache",
        products: A2_A3,
    },
    Row {
        api: "ReadGmByPassDCache",
        products: A2_A3,
    },
    Row {
        api: "SetCtrlSpr",
        products: A2_A3,
    },
    Row {
        api: "GetCtrlSpr",
        products: A2_A3,
    },
    Row {
        api: "GetSaturationFlag",
        products: A2_A3,
    },
    Row {
        api: "SetSaturationFlag",
        products: A2_A3,
    },
    Row {
        api: "SetStoreAtomicConfig",
        products: &[Ascend910B, Ascend910_93, Ascend310B],
    },
    Row {
        api: "GetStoreAtomicConfig",
        products: &[Ascend910B, Ascend910_93, Ascend310B],
    },
    Row {
        api: "TPipe::InitSpmBuffer",
        products: SPM,
    },
    // The form without a workspace keeps the SPM buffer in L1.
    Row {
        api: "TPipe::InitSpmBuffer(L1)",
        products: &[Ascend910, Ascend310P],
    },
    Row {
        api: "TPipe::WriteSpmBuffer",
        products: SPM,
    },
    Row {
        api: "TPipe::ReadSpmBuffer",
        products: SPM,
    },
    Row {
        api: "PopStackBuffer",
        products: &[Ascend910, Ascend310P, Ascend910B, Ascend910_93, Ascend310B],
    },
    // TQueConfig nd2nz / nz2nd (and the int mask bits 0 / 1).
    Row {
        api: "TQueConfig format conversion",
        products: &[Ascend310P],
    },
];

/// The products that provide `api`.
pub fn products(api: &str) -> &'static [Product] {
    TABLE
        .iter()
        .find(|r| r.api == api)
        .map(|r| r.products)
        .unwrap_or(&[])
}

/// Fails with the documented reason when `profile` is not among the products of `row`; `api`
/// names the call in the error.
pub(crate) fn require(profile: &ChipProfile, api: &'static str, row: &str) -> Result<()> {
    let ps = products(row);
    if ps.contains(&profile.product) {
        return Ok(());
    }
    let names: Vec<String> = ps
        .iter()
        .filter_map(|p| ChipProfile::all().into_iter().find(|c| c.product == *p))
        .map(|c| c.name.to_string())
        .collect();
    Err(SimError::new(
        Category::Unsupported,
        api,
        format!(
            "not supported on {profile}: its documentation lists only {}",
            names.join(", ")
        ),
    ))
}
