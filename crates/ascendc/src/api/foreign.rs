//! What front ends in other languages need to pass tensor handles by value cheaply: the
//! running core's on-chip buffer sizes, read once per block, and handles checked against them
//! without entering the core on every call.

use super::context::try_with_core;
use super::tensor::{LocalTensor, Owner, OwnerParts};
use crate::dtype::Element;
use crate::position::{Hardware, TPosition};

/// The byte sizes of a core's on-chip buffers ([`Hardware::LOCAL`] order), as
/// [`LocalSizes::current`] read them from the running core.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LocalSizes([u32; Hardware::LOCAL.len()]);

impl LocalSizes {
    /// The running core's buffer sizes; `None` outside a kernel (or inside another API call).
    pub fn current() -> Option<LocalSizes> {
        try_with_core(|core| LocalSizes(Hardware::LOCAL.map(|hw| core.mem.size(hw))))
    }

    /// The size of buffer `hw` in bytes (0 for GM).
    #[inline]
    pub fn size(&self, hw: Hardware) -> u32 {
        hw.local_index().map_or(0, |i| self.0[i])
    }
}

impl<T: Element> LocalTensor<T> {
    /// Makes this tensor the handle [`LocalTensor::to_parts`] took apart (without a ShapeInfo)
    /// when its byte range `addr .. addr + len` lies inside the on-chip buffer `hw` as `sizes`
    /// (read by [`LocalSizes::current`] on the running core) gives it, found without entering
    /// the core; returns false and leaves the tensor as it was otherwise
    /// ([`LocalTensor::from_parts`] then reports the handle). Assigned in place, as front ends
    /// rebuild a handle on every call.
    #[doc(hidden)]
    #[inline]
    pub fn assign_parts_within(
        &mut self,
        sizes: &LocalSizes,
        pos: TPosition,
        hw: Hardware,
        addr: u32,
        len: u32,
        owner: Option<OwnerParts>,
    ) -> bool {
        let Some(i) = hw.local_index() else {
            return false;
        };
        if addr as u64 + len as u64 > sizes.0[i] as u64 {
            return false;
        }
        self.pos = pos;
        self.hw = hw;
        self.addr = addr;
        self.len = len;
        self.owner = owner.map(|(queue, buf, gen)| Owner { queue, buf, gen });
        self.shape = None;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Launch;

    #[test]
    fn handles_are_checked_against_the_cached_sizes() {
        assert_eq!(LocalSizes::current(), None);
        Launch::new(1)
            .run(|| {
                let sizes = LocalSizes::current().expect("inside a kernel");
                let ub = sizes.size(Hardware::UB);
                assert_eq!(
                    ub,
                    crate::chip::ChipProfile::default_profile().buffer_size[0]
                );
                assert_eq!(sizes.size(Hardware::GM), 0);
                let within = |hw, addr, len| {
                    let mut t = LocalTensor::<f32>::default();
                    t.set_shape_info(crate::ShapeInfo::new(&[4], crate::DataFormat::ND)?);
                    let before = t.to_parts();
                    let ok = t.assign_parts_within(
                        &sizes,
                        TPosition::VECIN,
                        hw,
                        addr,
                        len,
                        Some((3, 1, 7)),
                    );
                    assert_eq!(t.get_shape_info().is_none(), ok);
                    assert!(ok || t.to_parts() == before);
                    Ok::<_, crate::SimError>(ok.then(|| t.to_parts()))
                };
                assert_eq!(
                    within(Hardware::UB, ub - 64, 64)?,
                    Some((TPosition::VECIN, Hardware::UB, ub - 64, 64, Some((3, 1, 7))))
                );
                assert_eq!(within(Hardware::UB, ub - 32, 64)?, None);
                assert_eq!(within(Hardware::UB, u32::MAX, 2)?, None);
                assert_eq!(within(Hardware::GM, 0, 0)?, None);
                Ok(())
            })
            .expect("kernel runs");
    }
}
