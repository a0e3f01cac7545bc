//! The transpose family (being written).
