//! Which products each debugging, tool, cache-control and synchronisation API of this group runs
//! on: the product lists of the API documentation pages, as data. A call on a product its page
//! does not list is refused with that reason.

use crate::chip::Product::{self, *};
use crate::core::Core;
use crate::error::{Category, Result, SimError};

const ALL: &[Product] = &[Ascend910, Ascend310P, Ascend910B, Ascend910_93, Ascend310B];
const NO_910: &[Product] = &[Ascend310P, Ascend910B, Ascend910_93, Ascend310B];
const P310_A2_A3: &[Product] = &[Ascend310P, Ascend910B, Ascend910_93];
const A2_A3: &[Product] = &[Ascend910B, Ascend910_93];
const A2_A3_310B: &[Product] = &[Ascend910B, Ascend910_93, Ascend310B];

/// (API, the products its page lists as supported).
const TABLE: &[(&str, &[Product])] = &[
    ("PrintTimeStamp", A2_A3_310B),
    ("ascendc_assert", NO_910),
    ("assert", NO_910),
    ("Trap", P310_A2_A3),
    ("CheckLocalMemoryIA", NO_910),
    ("MetricsProfStart", A2_A3),
    ("MetricsProfStop", A2_A3),
    ("Async", A2_A3),
    (
        "GetDataBlockSizeInBytes",
        &[Ascend910, Ascend310P, Ascend910B, Ascend910_93],
    ),
    ("GetArchVersion", P310_A2_A3),
    ("GetProgramCounter", P310_A2_A3),
    ("GetSubBlockNum", A2_A3),
    ("DataCachePreload", NO_910),
    ("DataCacheCleanAndInvalid", NO_910),
    ("ICachePreLoad", P310_A2_A3),
    ("GetICachePreloadStatus", A2_A3),
    ("TQueSync", ALL),
    ("DataSyncBarrier", A2_A3_310B),
    ("SetNextTaskStart", ALL),
    ("WaitPreTaskEnd", ALL),
    ("InitDetermineComputeWorkspace", P310_A2_A3),
    ("NotifyNextBlock", P310_A2_A3),
    ("WaitPreBlock", P310_A2_A3),
    ("GroupBarrier", &[Ascend910B]),
];

/// The products `api`'s documentation page lists (empty for an API not in this table).
pub fn products(api: &str) -> &'static [Product] {
    TABLE
        .iter()
        .find(|(a, _)| *a == api)
        .map_or(&[], |(_, p)| p)
}

/// Refuses `api` on a product its documentation page does not list.
pub(crate) fn require(core: &Core, api: &'static str) -> Result<()> {
    if products(api).contains(&core.profile.product) {
        Ok(())
    } else {
        Err(SimError::new(
            Category::Unsupported,
            api,
            format!(
                "{api} is not available on {}: its documentation does not list this product",
                core.profile
            ),
        ))
    }
}
