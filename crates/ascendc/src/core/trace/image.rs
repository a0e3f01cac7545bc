//! The last record the hazard check found clean, to recognise a later record that repeats it
//! with its addresses shifted: the next block of an SPMD kernel, which runs the same
//! instructions on its own slice of GM.

use super::{Packed, Record, Space, Trace};

/// A kept record the hazard check found clean, with the per-pipe counts of its trace.
#[derive(Debug, Default)]
pub(crate) struct RecordImage {
    counts: [u64; 8],
    record: Record,
    /// Working memory of [`Trace::repeats`]: per shape, the index of its memory in `shifts`;
    /// per memory, its shift ([`UNSET`] until seen).
    memory_of: Vec<usize>,
    shifts: Vec<(Space, i128)>,
}

/// A shift no two `u64` addresses differ by.
const UNSET: i128 = i128::MIN;

impl Trace {
    /// Copies the kept record into `image` (reusing its memory).
    pub(crate) fn image_into(&self, image: &mut RecordImage) {
        image.counts = self.counts;
        match &self.kept {
            Some(kept) => image.record.clone_from(&kept.record),
            None => image.record.clear(),
        }
    }

    /// Drops the kept record as [`Trace::forget_record`] does, moving it into `image` (whose
    /// old record takes its place as this thread's spare memory) instead of copying it.
    pub(crate) fn forget_record_into(&mut self, image: &mut RecordImage) {
        image.counts = self.counts;
        match &mut self.kept {
            Some(kept) => std::mem::swap(&mut kept.record, &mut image.record),
            None => image.record.clear(),
        }
        self.forget_record();
    }

    /// True when the kept record is the one `image` holds but for its base addresses, which
    /// differ by one shift per memory (every access to a memory moved by the same number of
    /// bytes). Two accesses then overlap, and are ordered, exactly as their images are: the
    /// hazard check finds the same hazards, moved.
    pub(crate) fn repeats(&self, image: &mut RecordImage) -> bool {
        if self.counts != image.counts {
            return false;
        }
        let Some(kept) = &self.kept else {
            return image.record.instrs.is_empty();
        };
        let (r, old) = (&kept.record, &image.record);
        if Packed::bytes(&r.instrs) != Packed::bytes(&old.instrs)
            || r.shapes != old.shapes
            || r.shape_table != old.shape_table
            || r.many != old.many
        {
            return false;
        }
        let RecordImage {
            record: old,
            memory_of,
            shifts,
            ..
        } = image;
        memory_of.clear();
        shifts.clear();
        for shape in &r.shape_table {
            let k = match shifts.iter().position(|s| s.0 == shape.space) {
                Some(k) => k,
                None => {
                    shifts.push((shape.space, UNSET));
                    shifts.len() - 1
                }
            };
            memory_of.push(k);
        }
        for ((&shape, &base), &was) in r.shapes.iter().zip(&r.bases).zip(&old.bases) {
            let d = base as i128 - was as i128;
            let shift = &mut shifts[memory_of[shape as usize]].1;
            if *shift != d {
                if *shift != UNSET {
                    return false;
                }
                *shift = d;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::trace::{Access, HardEvent, InstrKind, Pipe};
    use crate::error::SourceLoc;
    use crate::position::Hardware;

    const LOC: SourceLoc = SourceLoc {
        file: "k.rs",
        line: 1,
        column: 1,
    };

    /// Two tiles of a copy-in, add, copy-out loop at GM offset `gm`, with the second copy-in
    /// `skew` bytes off its place and the flag of the copy-out `event`.
    fn tiles(gm: u64, skew: u64, event: HardEvent) -> Trace {
        let mut t = Trace::new(true);
        let ub = Space::Local(Hardware::UB);
        for k in 0..2u64 {
            let src = gm + k * 512 + if k == 1 { skew } else { 0 };
            let copy_in = [
                Access::contiguous(false, Space::Gm(1), src, 512),
                Access::contiguous(true, ub, k * 512, 512),
            ];
            t.record(Pipe::MTE2, "DataCopy", InstrKind::Op, LOC, &copy_in);
            t.record(
                Pipe::MTE2,
                "EnQue",
                InstrKind::SetFlag(HardEvent::MTE2_V, 0),
                LOC,
                &[],
            );
            t.record(
                Pipe::V,
                "DeQue",
                InstrKind::WaitFlag(HardEvent::MTE2_V, 0),
                LOC,
                &[],
            );
            let add = [Access::contiguous(true, ub, k * 512, 512)];
            t.record(Pipe::V, "Adds", InstrKind::Op, LOC, &add);
            t.record(Pipe::V, "EnQue", InstrKind::SetFlag(event, 0), LOC, &[]);
            t.record(Pipe::MTE3, "DeQue", InstrKind::WaitFlag(event, 0), LOC, &[]);
            let copy_out = [
                Access::contiguous(false, ub, k * 512, 512),
                Access::contiguous(true, Space::Gm(2), gm + k * 512, 512),
            ];
            t.record(Pipe::MTE3, "DataCopy", InstrKind::Op, LOC, &copy_out);
        }
        t
    }

    #[test]
    fn a_record_with_every_memory_shifted_alike_repeats_its_image() {
        let mut image = RecordImage::default();
        tiles(0, 0, HardEvent::V_MTE3).image_into(&mut image);
        assert!(tiles(0, 0, HardEvent::V_MTE3).repeats(&mut image));
        assert!(tiles(1 << 20, 0, HardEvent::V_MTE3).repeats(&mut image));
        assert!(tiles(96, 0, HardEvent::V_MTE3).repeats(&mut image));
    }

    #[test]
    fn a_record_differing_in_more_than_a_shift_per_memory_does_not_repeat() {
        let mut image = RecordImage::default();
        tiles(0, 0, HardEvent::V_MTE3).image_into(&mut image);
        // One access moved on its own: the relations between accesses change.
        assert!(!tiles(0, 32, HardEvent::V_MTE3).repeats(&mut image));
        assert!(!tiles(4096, 32, HardEvent::V_MTE3).repeats(&mut image));
        // Another flag.
        assert!(!tiles(0, 0, HardEvent::V_MTE2).repeats(&mut image));
        // One instruction more.
        let mut short = tiles(0, 0, HardEvent::V_MTE3);
        short.record(Pipe::V, "Adds", InstrKind::Op, LOC, &[]);
        assert!(!short.repeats(&mut image));
        // No record at all.
        assert!(!Trace::new(false).repeats(&mut image));
        Trace::new(false).image_into(&mut image);
        assert!(Trace::new(false).repeats(&mut image));
    }
}
