//! What every connection of `cagey serve` shares: settings, bounds and
//! counters.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize};
use std::time::{Duration, Instant};

use cagey::{Backend, Solver};
use tokio::sync::Semaphore;

use super::origin::Origins;

/// What every connection shares.
pub struct Server {
    pub backend: Backend,
    pub tuple_limit: usize,
    pub memory: u64,
    /// How long one request's work may take.
    pub timeout: Duration,
    /// The most bytes one message may take: the CLI's share of the memory
    /// budget for one puzzle's text.
    pub message_limit: usize,
    pub origins: Origins,
    /// Connections open now, bounded by `--max-clients`.
    pub clients: Arc<Semaphore>,
    pub max_clients: usize,
    /// Requests whose work is still running (cancelled ones until they stop).
    pub jobs: AtomicUsize,
    /// Requests answered since the start.
    pub answered: AtomicU64,
}

impl Server {
    /// A solver for one request: it stops at the time budget, or once
    /// `stop` is set (a newer request, a cancel, a closed connection).
    pub fn solver(&self, stop: &Arc<AtomicBool>, tally: Option<&Arc<AtomicU64>>) -> Solver {
        let builder = Solver::builder()
            .backend(self.backend)
            .tuple_limit(self.tuple_limit)
            .memory(self.memory)
            .deadline(Instant::now() + self.timeout)
            .interrupt(Arc::clone(stop));
        match tally {
            Some(tally) => builder.tally(Arc::clone(tally)),
            None => builder,
        }
        .build()
    }
}
