//! Ctrl-C: a flag the searches watch, so that they stop and say what they
//! found.

use std::sync::atomic::{AtomicBool, Ordering};

/// Set by Ctrl-C: searches stop, and the puzzles not yet started are left.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Whether Ctrl-C was pressed.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}
