//! Progress on standard error, of the puzzles of a run or of the solutions
//! of one long count: shown only on a terminal, only with text output, and
//! only once a run has lasted a second, so that pipes, JSON and quick runs
//! never see it.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, LazyLock};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Puzzles done, with the rate and the time taken (how many there are is
/// not known: the input is read as it is solved).
pub struct Progress {
    bar: ProgressBar,
    started: Instant,
    /// Whether it may be shown at all.
    wanted: bool,
    shown: bool,
}

impl Progress {
    /// A counter of puzzles, shown if `text` output goes with a terminal on
    /// standard error.
    pub fn new(text: bool) -> Self {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        let style = ProgressStyle::with_template("{spinner} {human_pos} puzzles, {per_sec:0}, {elapsed}");
        bar.set_style(style.expect("a valid template"));
        let wanted = text && std::io::stderr().is_terminal();
        Progress { bar, started: Instant::now(), wanted, shown: false }
    }

    /// One more puzzle done.
    pub fn inc(&mut self) {
        self.bar.inc(1);
        if self.wanted && !self.shown && self.started.elapsed() > Duration::from_secs(1) {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
            self.shown = true;
        }
    }

    /// Takes the bar off the screen.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// Solutions found by the count [`Solutions`] shows (see
/// `SolverBuilder::tally`).
pub static FOUND: LazyLock<Arc<AtomicU64>> = LazyLock::new(Arc::default);

/// The solutions of one long count, with the rate, read from [`FOUND`] by a
/// thread of its own.
pub struct Solutions {
    stop: mpsc::Sender<()>,
    thread: JoinHandle<()>,
}

impl Solutions {
    /// Starts showing, if `text` output goes with a terminal on standard
    /// error.
    pub fn start(text: bool) -> Option<Self> {
        if !(text && std::io::stderr().is_terminal()) {
            return None;
        }
        let (stop, stopped) = mpsc::channel();
        let thread = thread::spawn(move || {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
            let style = ProgressStyle::with_template("{spinner} {human_pos} solutions, {per_sec:0}, {elapsed}");
            bar.set_style(style.expect("a valid template"));
            let started = Instant::now();
            while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(Duration::from_millis(200)) {
                bar.set_position(FOUND.load(Ordering::Relaxed));
                if bar.is_hidden() && started.elapsed() > Duration::from_secs(1) {
                    bar.set_draw_target(ProgressDrawTarget::stderr());
                }
            }
            bar.finish_and_clear();
        });
        Some(Solutions { stop, thread })
    }

    /// Takes it off the screen.
    pub fn finish(self) {
        let _ = self.stop.send(());
        let _ = self.thread.join();
    }
}
