//! [`Backend::Auto`]: the native search first, then the native and SAT
//! backends racing.
//!
//! Native answers most puzzles in a few failures, and then nothing else
//! runs. Once its failures reach N², and it has run for half a
//! millisecond, it is in a hard part of the search: a second thread starts
//! the SAT backend, with the solutions native has handed out so far
//! blocked, while native goes on (once the SAT side of the last race on
//! this thread has ended, so that a race never runs on more threads than
//! two). Solutions from both
//! sides are handed out as they come, each once: SAT's are passed on
//! whenever native stops to ask whether to give up (every few failures)
//! or finds a solution, and a solution one side finds after the other is
//! dropped. The first side to finish answers:
//!
//! - native finishes: SAT is stopped (varisat is interrupted through its
//!   proof output, see `sat/enumerate.rs`);
//! - SAT finishes: native stops at its next question or solution.
//!
//! If the consumer stops the search first, the side that found the last
//! solution it took answered.
//!
//! The SAT side keeps off the core native was on when the race started
//! (on Linux, where the process may use another). Left to the scheduler,
//! it sometimes shared native's core while something else (the reader of
//! cagey's output is enough) held the other, and native lost whole
//! scheduler ticks.
//!
//! Every solution handed out during the race is remembered, to drop the
//! second finding; past [`RACE_SOLUTIONS`] the race is called off and
//! native goes on alone (still dropping what SAT handed out), so memory
//! stays bounded.

use std::cell::RefCell;
use std::collections::HashSet;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TryRecvError, sync_channel};
use std::thread;
use std::time::{Duration, Instant};

use crate::native::{self, Report};
use crate::puzzle::backend::Backend;
use crate::puzzle::stats::Stats;
use crate::puzzle::{Grid, Puzzle};
use crate::sat;
use crate::solver::error::SolveError;

/// How long native runs alone at least: SAT takes about a millisecond on
/// the smallest puzzles, and starting a race costs a tenth of one.
const RACE_AFTER: Duration = Duration::from_micros(500);

thread_local! {
    /// The SAT side of the last race started on this thread.
    static LAST_SAT: RefCell<Option<thread::JoinHandle<()>>> = const { RefCell::new(None) };
}

/// Whether the SAT side of the last race on this thread has ended. A race
/// starts only then, so that a stopped SAT side that has not yet noticed
/// never takes a core from a running one: on a file of puzzles, where one
/// race follows another, that made native twice as slow during a race.
fn last_sat_done() -> bool {
    LAST_SAT.with_borrow_mut(|last| {
        if last.as_ref().is_some_and(|sat| !sat.is_finished()) {
            return false;
        }
        if let Some(sat) = last.take() {
            let _ = sat.join();
        }
        true
    })
}

/// The most solutions remembered during a race.
const RACE_SOLUTIONS: usize = 10_000;

/// What the SAT side of a race sends.
enum Message {
    /// A solution it found.
    Solution(Grid),
    /// It found every solution; what it did.
    Done(Stats),
    /// It stopped early: asked to, refused the puzzle or failed.
    Out,
}

/// Where a race stands.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Race {
    /// Not started; native's solutions so far are remembered.
    NotYet,
    /// SAT is running.
    On,
    /// SAT found every solution: native stops.
    SatWon,
    /// No race, now or later: SAT is out, or too many solutions were
    /// handed out to remember.
    Off,
}

/// The state both of native's hooks share.
struct Portfolio<'c> {
    race: Race,
    /// Native's solutions handed out before a race, their values one after
    /// the other.
    before: Vec<u8>,
    /// Native's solutions handed out once a race is on (and those before
    /// it): SAT's findings of them are dropped.
    from_native: HashSet<Grid>,
    /// SAT's solutions handed out: native's findings of them are dropped,
    /// to the end.
    from_sat: HashSet<Grid>,
    /// The most solutions to remember before calling the race off.
    remember: usize,
    /// Solutions handed out, from both sides.
    solutions: u64,
    /// Whether the consumer asked to stop.
    stopped: bool,
    /// The side that found the last solution handed out.
    last_from: Backend,
    sat_stats: Option<Stats>,
    messages: Option<Receiver<Message>>,
    on_solution: &'c mut dyn FnMut(&Grid) -> ControlFlow<()>,
}

impl Portfolio<'_> {
    /// Hands `grid` out unless it was already, remembering it while that
    /// matters.
    fn hand_out(&mut self, grid: &Grid, from: Backend) -> ControlFlow<()> {
        if self.race == Race::NotYet {
            // Only native runs yet: its solutions, kept flat (they become a
            // set only if a race starts), cost a copy each.
            self.before.extend_from_slice(grid.values());
            if self.before.len() > self.remember * grid.values().len() {
                self.call_off();
            }
            return self.pass_on(grid, from);
        }
        let (seen, mine) = match from {
            Backend::Sat => (&self.from_native, &mut self.from_sat),
            _ => (&self.from_sat, &mut self.from_native),
        };
        if seen.contains(grid) {
            return ControlFlow::Continue(());
        }
        if self.race != Race::Off || from == Backend::Sat {
            mine.insert(grid.clone());
            if self.race != Race::Off && self.from_native.len() + self.from_sat.len() > self.remember {
                self.call_off();
            }
        }
        self.pass_on(grid, from)
    }

    /// Hands `grid`, found by `from`, to the consumer.
    fn pass_on(&mut self, grid: &Grid, from: Backend) -> ControlFlow<()> {
        self.solutions += 1;
        self.last_from = from;
        let flow = (self.on_solution)(grid);
        self.stopped |= flow.is_break();
        flow
    }

    /// Starts remembering native's solutions as a set, for a race: the
    /// ones handed out so far, which SAT is to block.
    fn remember_native(&mut self, size: usize) -> Vec<Grid> {
        let known: Vec<Grid> = std::mem::take(&mut self.before)
            .chunks(size * size)
            .map(|values| Grid::new(size, values.to_vec()).expect("a grid handed out"))
            .collect();
        self.from_native = known.iter().cloned().collect();
        known
    }

    /// Passes on what SAT has sent; `Break` if native should stop (SAT
    /// won, or the consumer asked to stop).
    fn drain(&mut self) -> ControlFlow<()> {
        while self.race == Race::On {
            let message = match self.messages.as_ref().map(Receiver::try_recv) {
                Some(Ok(message)) => message,
                Some(Err(TryRecvError::Empty)) => break,
                None | Some(Err(TryRecvError::Disconnected)) => Message::Out,
            };
            match message {
                Message::Solution(grid) => self.hand_out(&grid, Backend::Sat)?,
                Message::Done(stats) => {
                    self.race = Race::SatWon;
                    self.sat_stats = Some(stats);
                }
                Message::Out => self.call_off(),
            }
        }
        if self.race == Race::SatWon { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    }

    /// Ends the race for good: SAT's solutions so far are still dropped
    /// when native finds them again.
    fn call_off(&mut self) {
        self.race = Race::Off;
        self.before = Vec::new();
        self.from_native = HashSet::new();
        self.messages = None;
    }
}

/// Hands every solution of `puzzle` to `on_solution`, as [the
/// module](self) describes.
/// Only the solutions in `cubes` are handed out (see `native::enumerate`).
/// Past `deadline`, or once `interrupt` is set, both sides stop.
pub(crate) fn enumerate(
    puzzle: &Puzzle,
    bounds: sat::Bounds,
    cubes: &[Vec<(usize, usize)>],
    deadline: Option<Instant>,
    interrupt: Option<&AtomicBool>,
    on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
) -> Result<Stats, SolveError> {
    let interrupted = || interrupt.is_some_and(|flag| flag.load(Ordering::Relaxed));
    let past = || interrupted() || deadline.is_some_and(|d| Instant::now() >= d);
    enumerate_with(puzzle, bounds, cubes, &past, RACE_SOLUTIONS, on_solution)
}

/// [`enumerate`], stopping once `past()`, remembering at most `remember`
/// solutions for a race.
fn enumerate_with(
    puzzle: &Puzzle,
    bounds: sat::Bounds,
    cubes: &[Vec<(usize, usize)>],
    past: &dyn Fn() -> bool,
    remember: usize,
    on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
) -> Result<Stats, SolveError> {
    let budget = (puzzle.size() * puzzle.size()) as u64;
    let started = Instant::now();
    let stop_sat = Arc::new(AtomicBool::new(false));
    let state = RefCell::new(Portfolio {
        race: Race::NotYet,
        before: Vec::new(),
        from_native: HashSet::new(),
        from_sat: HashSet::new(),
        remember,
        solutions: 0,
        stopped: false,
        last_from: Backend::Native,
        sat_stats: None,
        messages: None,
        on_solution,
    });
    let mut give_up = |failures: u64, _| {
        let mut state = state.borrow_mut();
        if failures >= budget && state.race == Race::NotYet && started.elapsed() >= RACE_AFTER && last_sat_done() {
            let known = state.remember_native(puzzle.size());
            let (sender, receiver) = sync_channel(1024);
            let (puzzle, cubes, stop) = (puzzle.clone(), cubes.to_vec(), Arc::clone(&stop_sat));
            let native_cpu = cpu::current();
            // Not joined: once stopped, it ends within one step of its own
            // (encoding the puzzle, at worst), and the answer need not wait
            // for that; the next race waits for it to end instead.
            let sat = thread::spawn(move || {
                cpu::keep_off(native_cpu);
                race_sat(&puzzle, bounds, &known, &cubes, &stop, &sender)
            });
            LAST_SAT.set(Some(sat));
            state.messages = Some(receiver);
            state.race = Race::On;
        }
        state.drain().is_break() || past()
    };
    let mut hand_out = |grid: &Grid| {
        if past() {
            return ControlFlow::Break(());
        }
        let mut state = state.borrow_mut();
        state.drain()?;
        state.hand_out(grid, Backend::Native)
    };
    let native = native::enumerate_until(puzzle, cubes, &mut give_up, Report::Grid(&mut hand_out));
    stop_sat.store(true, Ordering::Relaxed);
    let mut state = state.into_inner();
    // Dropping the receiver frees a SAT thread blocked on sending.
    state.messages = None;
    let stats = match state.sat_stats {
        Some(sat) if state.race == Race::SatWon => {
            Stats { answered_by: Some(Backend::Sat), nodes: native.nodes, failures: native.failures, ..sat }
        }
        // Stopped by the consumer: the side of the last solution it took.
        _ if state.stopped => Stats { answered_by: Some(state.last_from), ..native },
        _ => Stats { answered_by: Some(Backend::Native), ..native },
    };
    let complete = !state.stopped && (native.complete || state.race == Race::SatWon);
    Ok(Stats { solutions: state.solutions, complete, ..stats })
}

/// The SAT side of a race: sends every solution but `known`, then `Done`,
/// unless `stop` is set or the receiver is gone first.
fn race_sat(
    puzzle: &Puzzle,
    bounds: sat::Bounds,
    known: &[Grid],
    cubes: &[Vec<(usize, usize)>],
    stop: &AtomicBool,
    to: &SyncSender<Message>,
) {
    let stop = sat::Stop { flag: stop, within_calls: true };
    let stats = sat::enumerate(puzzle, bounds, known, cubes, Some(stop), &mut |grid| match to
        .send(Message::Solution(grid.clone()))
    {
        Ok(()) => ControlFlow::Continue(()),
        Err(_) => ControlFlow::Break(()),
    });
    let _ = to.send(match stats {
        Ok(stats) if stats.complete => Message::Done(stats),
        _ => Message::Out,
    });
}

/// Where threads run, on Linux; elsewhere the scheduler decides alone.
mod cpu {
    /// The core the calling thread runs on.
    #[cfg(target_os = "linux")]
    pub fn current() -> Option<usize> {
        nix::sched::sched_getcpu().ok()
    }

    /// Keeps the calling thread off core `cpu`, if it may run on another.
    #[cfg(target_os = "linux")]
    pub fn keep_off(cpu: Option<usize>) {
        use nix::sched::{CpuSet, sched_getaffinity, sched_setaffinity};
        use nix::unistd::Pid;
        let this_thread = Pid::from_raw(0);
        let Some(cpu) = cpu else { return };
        let Ok(mut allowed) = sched_getaffinity(this_thread) else { return };
        if allowed.unset(cpu).is_err() {
            return;
        }
        if (0..CpuSet::count()).any(|c| allowed.is_set(c) == Ok(true)) {
            // A refusal leaves the thread where the scheduler puts it.
            let _ = sched_setaffinity(this_thread, &allowed);
        }
    }

    #[cfg(not(target_os = "linux"))]
    pub fn current() -> Option<usize> {
        None
    }

    #[cfg(not(target_os = "linux"))]
    pub fn keep_off(_: Option<usize>) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format;

    /// The puzzles of a shipped file that start at `lines`.
    fn shipped(path: &str, lines: &[usize]) -> Vec<Puzzle> {
        let text = std::fs::read_to_string(path).unwrap();
        let parsed = format::parse(&text, path, &Default::default()).unwrap();
        parsed.into_iter().filter(|p| lines.contains(&p.line)).map(|p| p.puzzle).collect()
    }

    /// Every solution, checked to be handed out once each.
    fn every(puzzle: &Puzzle, remember: usize, limit: u64) -> (HashSet<Grid>, Stats) {
        let mut found = HashSet::new();
        let bounds = sat::Bounds::tuples(1_000_000);
        let stats = enumerate_with(puzzle, bounds, &[vec![]], &|| false, remember, &mut |grid| {
            assert!(found.insert(grid.clone()), "{grid:?} handed out twice");
            if found.len() as u64 == limit { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
        })
        .unwrap();
        assert_eq!(stats.solutions, found.len() as u64);
        (found, stats)
    }

    fn native(puzzle: &Puzzle) -> HashSet<Grid> {
        let mut found = HashSet::new();
        native::enumerate(puzzle, &[vec![]], &mut |grid| {
            found.insert(grid.clone());
            ControlFlow::Continue(())
        });
        found
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_sat_side_keeps_off_natives_core() {
        use nix::sched::{CpuSet, sched_getaffinity};
        use nix::unistd::Pid;
        let allowed = |cpus: CpuSet| (0..CpuSet::count()).filter(|&c| cpus.is_set(c) == Ok(true)).collect::<Vec<_>>();
        let here = allowed(sched_getaffinity(Pid::from_raw(0)).unwrap());
        let native = cpu::current().unwrap();
        let there = thread::spawn(move || {
            cpu::keep_off(Some(native));
            allowed(sched_getaffinity(Pid::from_raw(0)).unwrap())
        })
        .join()
        .unwrap();
        if here.len() > 1 {
            assert_eq!(there, here.into_iter().filter(|&c| c != native).collect::<Vec<_>>());
        } else {
            assert_eq!(there, here, "with one core, the thread stays where it may run");
        }
        let unchanged = allowed(sched_getaffinity(Pid::from_raw(0)).unwrap());
        assert!(unchanged.contains(&native), "only the calling thread moves");
    }

    #[test]
    fn a_race_hands_out_every_solution_once() {
        // Puzzles native needs thousands of failures for, with one and two
        // solutions, and four in a larger space.
        let mut puzzles = shipped("puzzles/kenken/keen-9x9-e-noop.txt", &[40, 512, 590]);
        puzzles.extend(shipped("puzzles/kenken/generated-9x9-four-solutions.txt", &[1]));
        assert_eq!(puzzles.len(), 4);
        for puzzle in &puzzles {
            for remember in [1, 2, 3, RACE_SOLUTIONS] {
                let (found, stats) = every(puzzle, remember, u64::MAX);
                assert!(stats.complete && stats.answered_by.is_some());
                assert_eq!(found, native(puzzle), "remembering {remember}");
            }
            let (found, stats) = every(puzzle, RACE_SOLUTIONS, 1);
            assert_eq!((found.len(), stats.complete), (1, false));
        }
    }
}
