//! What a search did, in one typed record that every backend fills.
//!
//! Plain data, shared by both backends and the front end; it holds no
//! constraint code, so sharing it cannot hide a bug from the cross-check.

use crate::puzzle::backend::Backend;

/// What a search did: how many solutions it handed out, whether it ran to
/// the end, and the counters of the backend that ran it. A counter the
/// backend does not keep is `None`.
///
/// ```
/// use cagey::{Backend, Puzzle, Solver};
///
/// let latin = Puzzle::new(3, vec![], vec![]).unwrap();
/// let stats = Solver::new(Backend::Native).count(&latin, None).unwrap().stats;
/// assert_eq!((stats.solutions, stats.complete), (12, true));
/// assert!(stats.nodes.is_some() && stats.sat_calls.is_none());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Stats {
    /// Solutions handed to the callback (`count` in JSON).
    #[cfg_attr(feature = "serde", serde(rename = "count"))]
    pub solutions: u64,
    /// Whether the whole search space was explored (no early stop).
    pub complete: bool,
    /// Whether the solver's timeout cut the search short.
    pub timed_out: bool,
    /// The engine that finished the search: native, or SAT when it won
    /// the race under [`Backend::Auto`]; `Auto` when the parts of a search
    /// split across threads were answered by different engines. Set by the
    /// [`Solver`](crate::Solver), not by the engines.
    pub answered_by: Option<Backend>,
    /// Native: search nodes, the root and every branch tried.
    pub nodes: Option<u64>,
    /// Native: nodes where propagation found a contradiction.
    pub failures: Option<u64>,
    /// SAT: variables of the encoding.
    pub variables: Option<u64>,
    /// SAT: clauses of the encoding plus the most blocking clauses live at
    /// once.
    pub clauses: Option<u64>,
    /// SAT: calls to the SAT solver.
    pub sat_calls: Option<u64>,
}
