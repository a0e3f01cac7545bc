//! The topk family (being written).
