//! Utility functions of the high-level API.

pub mod init_global_memory;
