//! The transform family's C ABI (BroadCast is not implemented yet).
