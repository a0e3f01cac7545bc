//! Host helpers of the sort pages (排序操作/GetConcatTmpSize, GetSortTmpSize): the temporary
//! space of the high-level `Concat` and `Sort` (`crate::api::sort`).

use crate::chip::Product;

/// Whether `product` sorts (score, index) pairs of 8 bytes (A2/A3) rather than region
/// proposals of 8 elements.
fn pairs(product: Product) -> bool {
    matches!(product, Product::Ascend910B | Product::Ascend910_93)
}

/// Elements of temporary space per sorted element: 2 floats or 4 halves (a pair), else 8.
fn per_element(product: Product, type_size: u32) -> u32 {
    match type_size {
        4 if pairs(product) => 2,
        _ if pairs(product) => 4,
        _ => 8,
    }
}

/// `GetConcatTmpSize(platform, elemCount, dataTypeSize)`: bytes of `Concat`'s temporary
/// space: none on A2/A3, `elemCount · 8 · dataTypeSize` elsewhere.
pub fn concat_tmp_size(product: Product, elem_count: u32, type_size: u32) -> u32 {
    if pairs(product) {
        0
    } else {
        elem_count * 8 * type_size
    }
}

/// `GetSortTmpSize(platform, elemCount, dataTypeSize)`: bytes of `Sort`'s temporary space,
/// `elemCount · dataTypeSize` times 2 (A2/A3 float), 4 (A2/A3 half) or 8 (region proposals).
pub fn sort_tmp_size(product: Product, elem_count: u32, type_size: u32) -> u32 {
    elem_count * per_element(product, type_size) * type_size
}
