//! transpose C ABI (being written).
