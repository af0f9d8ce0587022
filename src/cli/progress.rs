//! A progress bar on standard error for runs of many puzzles: shown only on
//! a terminal, only with text output, and only once a run has lasted a
//! second, so that pipes, JSON and quick runs never see it.

use std::io::IsTerminal;
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
        let style = ProgressStyle::with_template("{spinner} {human_pos} puzzles, {per_sec}, {elapsed}");
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
