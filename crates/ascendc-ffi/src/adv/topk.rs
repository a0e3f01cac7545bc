//! topk C ABI (being written).
