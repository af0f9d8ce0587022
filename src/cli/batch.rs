//! Many puzzles or cases on a thread pool, answered in their order.

use std::io;
use std::ops::ControlFlow;

use rayon::prelude::*;

use super::exit::RunError;

/// Solves the items on `jobs` threads, a batch at a time, and hands each
/// result to `report` in the order of the items, with whether it ends a
/// batch (a time to flush output), until `report` says to stop. Items are
/// taken from `items` only as a batch needs them, so that a file is read
/// as it is solved; the first batches are small, so that the first answers
/// come at once. An item that is an error ends the run once the items
/// before it are reported.
pub fn in_order<T: Sync, R: Send>(
    items: impl IntoIterator<Item = Result<T, RunError>>,
    jobs: usize,
    solve: impl Fn(&T) -> R + Sync,
    mut report: impl FnMut(T, R, bool) -> Result<ControlFlow<()>, RunError>,
) -> Result<(), RunError> {
    // One job runs on this thread: handing each batch to a pool thread and
    // waiting for it cost a tenth of the time of a file of easy Sudoku.
    let pool = (jobs != 1)
        .then(|| rayon::ThreadPoolBuilder::new().num_threads(jobs).build())
        .transpose()
        .map_err(|e| RunError::Io(io::Error::other(e)))?;
    let most = 32 * pool.as_ref().map_or(1, |pool| pool.current_num_threads());
    let mut items = items.into_iter();
    let mut size = 1;
    loop {
        let mut batch = Vec::with_capacity(size);
        let mut failed = None;
        for item in items.by_ref() {
            match item {
                Ok(item) => batch.push(item),
                Err(error) => failed = Some(error),
            }
            if failed.is_some() || batch.len() == size {
                break;
            }
        }
        let results: Vec<R> = match &pool {
            Some(pool) if batch.len() > 1 => pool.install(|| batch.par_iter().map(&solve).collect()),
            _ => batch.iter().map(&solve).collect(),
        };
        let last = results.len();
        for (i, (item, result)) in batch.into_iter().zip(results).enumerate() {
            if report(item, result, i + 1 == last)?.is_break() {
                return Ok(());
            }
        }
        if let Some(error) = failed {
            return Err(error);
        }
        if last < size {
            return Ok(());
        }
        size = (2 * size).min(most);
    }
}
