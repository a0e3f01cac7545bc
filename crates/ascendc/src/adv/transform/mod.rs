//! The transform family (being written).
