//! Many puzzles or cases on a thread pool, answered in their order.

use std::io;
use std::ops::ControlFlow;

use itertools::Itertools;
use rayon::prelude::*;

use super::exit::RunError;

/// Solves the items on `jobs` threads, a batch at a time, and hands each result to `report` in the order of the items, until
/// `report` says to stop.
pub fn in_order<T: Sync, R: Send>(
    items: impl IntoIterator<Item = T>,
    jobs: usize,
    solve: impl Fn(&T) -> R + Sync,
    mut report: impl FnMut(T, R) -> Result<ControlFlow<()>, RunError>,
) -> Result<(), RunError> {
    let pool =
        rayon::ThreadPoolBuilder::new().num_threads(jobs).build().map_err(|e| RunError::Io(io::Error::other(e)))?;
    let batches = items.into_iter().chunks(32 * pool.current_num_threads());
    for batch in &batches {
        let batch: Vec<T> = batch.collect();
        let results: Vec<R> = if batch.len() == 1 {
            vec![solve(&batch[0])]
        } else {
            pool.install(|| batch.par_iter().map(&solve).collect())
        };
        for (item, result) in batch.into_iter().zip(results) {
            if report(item, result)?.is_break() {
                return Ok(());
            }
        }
    }
    Ok(())
}
