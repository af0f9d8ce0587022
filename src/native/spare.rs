//! Buffers kept on the thread from one search to the next, so that a
//! batch of puzzles allocates nothing per puzzle once the first has run:
//! an easy puzzle's search is over in microseconds, and building its
//! tables afresh took a tenth of that in `malloc` and `free` alone.

use std::any::Any;
use std::cell::RefCell;

/// Kinds of buffers kept at most: a few for each grid width in use.
const KINDS: usize = 16;

thread_local! {
    static SPARE: RefCell<Vec<Box<dyn Any>>> = const { RefCell::new(Vec::new()) };
}

/// The buffers of type `T` the last search on this thread gave back, or
/// new ones. What they hold is left over: the caller clears it.
pub(super) fn take<T: Default + 'static>() -> Box<T> {
    let kept = SPARE.with_borrow_mut(|spare| spare.iter().position(|b| b.is::<T>()).map(|i| spare.swap_remove(i)));
    kept.and_then(|b| b.downcast().ok()).unwrap_or_default()
}

/// Keeps `buffers` for the next search on this thread.
pub(super) fn give<T: 'static>(buffers: Box<T>) {
    let dropped = SPARE.with_borrow_mut(|spare| {
        let oldest = (spare.len() >= KINDS).then(|| spare.remove(0));
        spare.push(buffers);
        oldest
    });
    drop(dropped);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_come_back_by_type_with_their_room() {
        let mut numbers = take::<Vec<u64>>();
        assert!(numbers.is_empty() && numbers.capacity() == 0, "nothing kept yet");
        numbers.extend([1, 2, 3]);
        let room = numbers.capacity();
        give(numbers);
        give(Box::new(vec![true]));
        assert_eq!(*take::<Vec<bool>>(), [true]);
        let numbers = take::<Vec<u64>>();
        assert_eq!(numbers.capacity(), room, "the same buffer");
        assert!(take::<Vec<u64>>().is_empty(), "taken once only");
        for i in 0..KINDS as u8 + 4 {
            give(Box::new(vec![i; 1]));
        }
        SPARE.with_borrow(|spare| assert_eq!(spare.len(), KINDS, "bounded"));
    }
}
