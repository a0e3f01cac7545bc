//! Per-thread spare storage: structures a kernel makes in every block (queue buffer tables,
//! FIFO slots, buffer lifetimes, a front end's boxed queues) take their storage from the
//! thread's previous block instead of the allocator. A launch of tens of thousands of small
//! blocks otherwise spends a good part of each block in `malloc` / `free`.

use std::cell::RefCell;
use std::mem::MaybeUninit;
use std::thread::LocalKey;

/// Most spare vectors a thread keeps of one element type.
const MAX_SPARES: usize = 32;

/// Largest capacity (in elements) a spare vector may keep: a rare large table goes back to the
/// allocator rather than staying with the thread.
const MAX_CAPACITY: usize = 256;

/// A thread's stack of spare vectors of `T`.
pub type VecStack<T> = RefCell<Vec<Vec<T>>>;

/// The spare vectors of one element type, one stack per thread.
pub struct Spares<T: 'static> {
    stack: &'static LocalKey<VecStack<T>>,
}

impl<T: 'static> Spares<T> {
    /// The spares kept in `stack` (a `thread_local!` of the element type).
    pub const fn new(stack: &'static LocalKey<VecStack<T>>) -> Spares<T> {
        Spares { stack }
    }

    /// An empty vector: this thread's last spare one, or a new one (which allocates nothing).
    #[inline]
    pub fn take(&self) -> Vec<T> {
        self.stack
            .try_with(|s| s.try_borrow_mut().ok().and_then(|mut s| s.pop()))
            .ok()
            .flatten()
            .unwrap_or_default()
    }

    /// Keeps `v`'s storage for a later [`Spares::take`] on this thread (its elements are
    /// dropped now). Vectors with no storage or a large one, and vectors beyond the thread's
    /// quota, are freed.
    #[inline]
    pub fn give(&self, mut v: Vec<T>) {
        if v.capacity() == 0 || v.capacity() > MAX_CAPACITY {
            return;
        }
        v.clear();
        // During thread exit the stack may be gone: then `v` is simply freed.
        let _ = self.stack.try_with(|s| {
            if let Ok(mut s) = s.try_borrow_mut() {
                if s.len() < MAX_SPARES {
                    s.push(v);
                }
            }
        });
    }
}

/// A thread's stack of spare boxes of `T`: the boxes are the allocations kept for reuse.
#[allow(clippy::vec_box)]
pub type BoxStack<T> = RefCell<Vec<Box<MaybeUninit<T>>>>;

/// The spare boxes of one type, one stack per thread: for objects a front end holds by pointer
/// and makes in every block.
pub struct SpareBoxes<T: 'static> {
    stack: &'static LocalKey<BoxStack<T>>,
}

impl<T: 'static> SpareBoxes<T> {
    /// The spares kept in `stack` (a `thread_local!` of the type).
    pub const fn new(stack: &'static LocalKey<BoxStack<T>>) -> Self {
        SpareBoxes { stack }
    }

    /// `value` in a box (this thread's last spare one, or a new one), as a raw pointer to give
    /// back to [`SpareBoxes::free`].
    #[inline]
    pub fn boxed(&self, value: T) -> *mut T {
        let spare = self
            .stack
            .try_with(|s| s.try_borrow_mut().ok().and_then(|mut s| s.pop()))
            .ok()
            .flatten();
        match spare {
            Some(b) => Box::into_raw(Box::write(b, value)),
            None => Box::into_raw(Box::new(value)),
        }
    }

    /// Drops the value at `p` and keeps its box for a later [`SpareBoxes::boxed`] on this
    /// thread (or frees it when the thread keeps enough).
    ///
    /// # Safety
    /// `p` came from [`SpareBoxes::boxed`] (or `Box::into_raw`) and is not used afterwards.
    #[inline]
    pub unsafe fn free(&self, p: *mut T) {
        // SAFETY (caller): `p` owns a live value in a box of its type.
        unsafe { std::ptr::drop_in_place(p) };
        // SAFETY: the value is dropped; the allocation is a box of `MaybeUninit<T>`'s layout.
        let spare = unsafe { Box::from_raw(p.cast::<MaybeUninit<T>>()) };
        let _ = self.stack.try_with(|s| {
            if let Ok(mut s) = s.try_borrow_mut() {
                if s.len() < MAX_SPARES {
                    s.push(spare);
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    thread_local! {
        static STACK: VecStack<u32> = const { RefCell::new(Vec::new()) };
    }
    static SPARES: Spares<u32> = Spares::new(&STACK);

    #[test]
    fn a_given_vector_comes_back_empty_with_its_storage() {
        let mut v = SPARES.take();
        assert_eq!(v.capacity(), 0);
        v.extend([1, 2, 3]);
        let (ptr, cap) = (v.as_ptr(), v.capacity());
        SPARES.give(v);
        let again = SPARES.take();
        assert!(again.is_empty());
        assert_eq!((again.as_ptr(), again.capacity()), (ptr, cap));
        // The stack is empty again: the next one is new.
        assert_eq!(SPARES.take().capacity(), 0);
    }

    thread_local! {
        static BOXES: BoxStack<Vec<u8>> = const { RefCell::new(Vec::new()) };
    }
    static SPARE_BOXES: SpareBoxes<Vec<u8>> = SpareBoxes::new(&BOXES);

    #[test]
    fn a_freed_box_holds_the_next_value_and_its_old_value_is_dropped() {
        let p = SPARE_BOXES.boxed(vec![1, 2, 3]);
        // SAFETY: `p` is live until it is freed.
        assert_eq!(unsafe { &*p }, &[1, 2, 3]);
        let counted = std::rc::Rc::new(());
        thread_local! {
            static RC_BOXES: BoxStack<std::rc::Rc<()>> = const { RefCell::new(Vec::new()) };
        }
        static RCS: SpareBoxes<std::rc::Rc<()>> = SpareBoxes::new(&RC_BOXES);
        let r = RCS.boxed(counted.clone());
        assert_eq!(std::rc::Rc::strong_count(&counted), 2);
        // SAFETY: `r` came from `boxed` and is not used again.
        unsafe { RCS.free(r) };
        assert_eq!(std::rc::Rc::strong_count(&counted), 1);
        // SAFETY: as above.
        unsafe { SPARE_BOXES.free(p) };
        let q = SPARE_BOXES.boxed(vec![9]);
        assert_eq!(q, p, "the box is reused");
        // SAFETY: `q` is live until it is freed.
        assert_eq!(unsafe { &*q }, &[9]);
        unsafe { SPARE_BOXES.free(q) };
        BOXES.with(|b| b.borrow_mut().clear());
    }

    #[test]
    fn empty_large_and_surplus_vectors_are_freed() {
        SPARES.give(Vec::new());
        SPARES.give(Vec::with_capacity(MAX_CAPACITY + 1));
        assert_eq!(STACK.with(|s| s.borrow().len()), 0);
        for _ in 0..MAX_SPARES + 5 {
            SPARES.give(Vec::with_capacity(4));
        }
        assert_eq!(STACK.with(|s| s.borrow().len()), MAX_SPARES);
        // Each thread has its own stack.
        std::thread::spawn(|| assert_eq!(SPARES.take().capacity(), 0))
            .join()
            .unwrap();
        STACK.with(|s| s.borrow_mut().clear());
    }
}
