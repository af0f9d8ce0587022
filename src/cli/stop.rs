//! What stops a run early: Ctrl-C, a flag the searches watch, and the
//! clock of `--total-timeout`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, LazyLock};
use std::time::Instant;

/// Set by Ctrl-C: searches stop, and the puzzles not yet started are left.
pub static INTERRUPTED: LazyLock<Arc<AtomicBool>> = LazyLock::new(Arc::default);

/// When the run started (`main` reads it first).
pub static STARTED: LazyLock<Instant> = LazyLock::new(Instant::now);

/// Whether Ctrl-C was pressed.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}
