//! What a search learns when it restarts: the subtrees it has finished.
//!
//! Until it finds a first solution, the search restarts from the root when
//! failures pile up (the learnt weights then steer it elsewhere). Before it does, the decisions on its
//! current path become nogoods, so that no finished subtree is searched,
//! nor any solution reported, twice: for each level i, "if the decisions
//! above level i hold, its cell takes none of the values already tried
//! there".

use super::propagate::{Boards, Contradiction, Propagator};

/// One level of an abandoned path: its cell, the value being tried when
/// the search restarted, and the values whose subtrees were finished.
#[derive(Clone, Copy)]
pub(super) struct Decision {
    pub cell: usize,
    pub value: usize,
    pub finished: u32,
}

/// The paths of every restart so far.
#[derive(Default)]
pub(super) struct Nogoods {
    paths: Vec<Vec<Decision>>,
}

impl Nogoods {
    /// Records the path a restart abandons.
    pub fn learn(&mut self, path: &[Decision]) {
        self.paths.push(path.to_vec());
    }

    /// Removes from `boards` the values that a nogood rules out at this
    /// node. Reports whether anything went (so that propagation must run
    /// again), or a contradiction when a placed cell holds such a value.
    pub fn apply<const W: usize, const N: usize>(
        &self,
        prop: &mut Propagator<'_, W, N>,
        boards: &mut Boards<W>,
    ) -> Result<bool, Contradiction> {
        let mut pruned = false;
        for path in &self.paths {
            for (i, decision) in path.iter().enumerate() {
                let values = prop.values(boards, decision.cell);
                let gone = values & decision.finished;
                if gone == values {
                    return Err(Contradiction);
                }
                if gone != 0 {
                    prop.remove(boards, decision.cell, gone);
                    pruned = true;
                }
                if i + 1 == path.len() || !prop.holds(boards, decision.cell, decision.value) {
                    break;
                }
            }
        }
        Ok(pruned)
    }
}
