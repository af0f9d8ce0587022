//! A progress bar on standard error for runs of many puzzles: shown only on
//! a terminal, only with text output, and only once a run has lasted a
//! second, so that pipes, JSON and quick runs never see it.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Puzzles done out of a run's, with the rate and the time left.
pub struct Progress {
    bar: ProgressBar,
    started: Instant,
    /// Whether it may be shown at all.
    wanted: bool,
    shown: bool,
}

impl Progress {
    /// A bar for `len` puzzles, shown if `text` output goes with a terminal
    /// on standard error.
    pub fn new(len: usize, text: bool) -> Self {
        let bar = ProgressBar::with_draw_target(Some(len as u64), ProgressDrawTarget::hidden());
        let style = ProgressStyle::with_template("{bar:40} {pos}/{len} puzzles, {per_sec}, {eta} left");
        bar.set_style(style.expect("a valid template"));
        let wanted = text && len > 1 && std::io::stderr().is_terminal();
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
