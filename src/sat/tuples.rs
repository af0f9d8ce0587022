//! The allowed tuples of a cage: every assignment of values to its cells
//! that satisfies the op and target and keeps apart the cells that share a
//! group.
//!
//! Generated depth first, cell by cell, cutting a branch as soon as the
//! partial sum or product cannot reach the target, so the work follows the
//! number of tuples rather than N^k. This is the SAT backend's own cage
//! arithmetic, written apart from the native solver's and the checker's:
//! a product target is held as a big number (`big.rs`), and each value
//! divides what is left of it exactly, so no product is ever computed and
//! none can overflow.

use super::big::Big;
use crate::puzzle::Op;

/// A cage reduced to what tuple generation needs.
pub(super) struct CageShape<'a> {
    pub op: Op,
    /// The target's decimal digits.
    pub target: &'a str,
    /// N: values run from 1 to N.
    pub size: u8,
    /// `apart[i][j]`: cells i and j of the cage share a group.
    pub apart: &'a [Vec<bool>],
    /// The values each cell may take (bit v for value v): every value but
    /// those given to a cell it shares a group with.
    pub domains: &'a [u32],
}

/// Why a cage's tuples were not generated.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Refused {
    /// More than the limit of allowed tuples.
    TooMany,
    /// The search for them took more than this many steps (a big cage whose
    /// partial assignments mostly dead-end).
    TooLong(u64),
}

/// Search steps (value comparisons) allowed per allowed tuple of the limit.
const STEPS_PER_TUPLE: u64 = 100;

/// Every allowed tuple (values in the order of the cage's cells). Refused
/// once there are more than `limit`, or once the search has made more than
/// 100 comparisons per tuple of the limit. The tuples are counted before any
/// is stored, so a refused cage costs bounded time and no memory.
pub(super) fn allowed_tuples(cage: &CageShape, limit: usize) -> Result<Vec<Vec<u8>>, Refused> {
    let budget = (limit as u64).saturating_mul(STEPS_PER_TUPLE).max(1_000_000);
    let goal = Goal::new(cage);
    let mut search = Search { cage, goal: &goal, limit, count: 0, steps: budget, budget, out: None };
    let mut values = Vec::with_capacity(cage.apart.len());
    search.extend(&mut values, 0, goal.product.clone())?;
    search = Search { count: 0, steps: budget, out: Some(Vec::with_capacity(search.count)), ..search };
    search.extend(&mut values, 0, goal.product.clone())?;
    Ok(search.out.unwrap_or_default())
}

/// The target read for the search.
struct Goal {
    /// The target, if it fits in a `u64` (every reachable sum does).
    small: Option<u64>,
    /// The target as a big number, if the op may be a product and the
    /// target is not beyond every product of the cage's values.
    product: Option<Big>,
    /// N^k for k from 0 to the cage's cells: the largest product of k values.
    powers: Vec<Big>,
}

impl Goal {
    fn new(cage: &CageShape) -> Self {
        let cells = cage.apart.len();
        let mut powers = vec![Big::from_u64(1)];
        for k in 0..cells {
            powers.push(powers[k].times(u32::from(cage.size)));
        }
        let product = matches!(cage.op, Op::Mul | Op::Any)
            .then(|| Big::read_decimal(cage.target))
            .flatten()
            .filter(|t| t <= &powers[cells]);
        Goal { small: cage.target.parse().ok(), product, powers }
    }
}

struct Search<'a> {
    cage: &'a CageShape<'a>,
    goal: &'a Goal,
    limit: usize,
    count: usize,
    /// Steps left of the budget.
    steps: u64,
    budget: u64,
    /// Where tuples go, on the pass that stores them.
    out: Option<Vec<Vec<u8>>>,
}

impl Search<'_> {
    /// Extends `values`, whose sum is `sum` and which leave `rest` of the
    /// target as a product (`None` once no product can reach it).
    fn extend(&mut self, values: &mut Vec<u8>, sum: u64, rest: Option<Big>) -> Result<(), Refused> {
        let cage = self.cage;
        let cells = cage.apart.len();
        let i = values.len();
        // A step is one comparison with an earlier cell, so the budget bounds
        // time whatever the size of the cage.
        let cost = (i as u64 + 1) * u64::from(cage.size);
        if self.steps < cost {
            return Err(Refused::TooLong(self.budget));
        }
        self.steps -= cost;
        if i == cells {
            if satisfied(cage.op, self.goal.small, values, rest.as_ref()) {
                if self.count == self.limit {
                    return Err(Refused::TooMany);
                }
                self.count += 1;
                if let Some(out) = &mut self.out {
                    out.push(values.clone());
                }
            }
            return Ok(());
        }
        let left_after = cells - i - 1;
        for v in 1..=cage.size {
            if cage.domains[i] & (1 << v) == 0 || (0..i).any(|j| cage.apart[i][j] && values[j] == v) {
                continue;
            }
            let sum = sum + u64::from(v);
            let rest = rest.as_ref().and_then(|r| r.divided_exactly(u32::from(v)));
            let rest = rest.filter(|r| r <= &self.goal.powers[left_after]);
            let n = u64::from(cage.size);
            let sum_open =
                || self.goal.small.is_some_and(|t| sum + left_after as u64 <= t && sum + left_after as u64 * n >= t);
            let open = match cage.op {
                Op::Add => sum_open(),
                Op::Mul => rest.is_some(),
                Op::Any if cells >= 3 => rest.is_some() || sum_open(),
                _ => true,
            };
            if !open {
                continue;
            }
            values.push(v);
            let result = self.extend(values, sum, rest);
            values.pop();
            result?;
        }
        Ok(())
    }
}

/// Whether complete `values` satisfy the op and the target (`small` when it
/// fits in a u64; `rest` is what their product leaves of it, if it divides it).
fn satisfied(op: Op, small: Option<u64>, values: &[u8], rest: Option<&Big>) -> bool {
    let product_holds = rest.is_some_and(Big::is_one);
    let Some(target) = small else {
        // Only a product can reach a target beyond u64.
        return matches!(op, Op::Mul | Op::Any) && values.len() >= 3 && product_holds;
    };
    let sum: u64 = values.iter().map(|&v| u64::from(v)).sum();
    match (op, values) {
        (Op::Add, _) => sum == target,
        (Op::Mul, _) => product_holds,
        (Op::Sub, &[a, b]) => u64::from(a.abs_diff(b)) == target,
        (Op::Div, &[a, b]) => u64::from(a.min(b)).checked_mul(target) == Some(u64::from(a.max(b))),
        (Op::Given | Op::Any, &[a]) => u64::from(a) == target,
        (Op::Any, &[_, _]) => {
            [Op::Add, Op::Sub, Op::Mul, Op::Div].into_iter().any(|op| satisfied(op, small, values, rest))
        }
        (Op::Any, _) => sum == target || product_holds,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tuples(op: Op, target: u64, size: u8, cells: usize, apart_pairs: &[(usize, usize)]) -> Vec<Vec<u8>> {
        let mut apart = vec![vec![false; cells]; cells];
        for &(i, j) in apart_pairs {
            apart[i][j] = true;
            apart[j][i] = true;
        }
        let target = target.to_string();
        let domains = vec![u32::MAX; cells];
        let cage = CageShape { op, target: &target, size, apart: &apart, domains: &domains };
        allowed_tuples(&cage, 1_000_000).unwrap()
    }

    #[test]
    fn pairs_of_every_op() {
        assert_eq!(tuples(Op::Sub, 3, 4, 2, &[(0, 1)]), [[1, 4], [4, 1]]);
        assert_eq!(tuples(Op::Div, 2, 4, 2, &[(0, 1)]), [[1, 2], [2, 1], [2, 4], [4, 2]]);
        assert_eq!(tuples(Op::Add, 4, 3, 2, &[(0, 1)]), [[1, 3], [3, 1]]);
        assert_eq!(tuples(Op::Mul, 4, 4, 2, &[(0, 1)]), [[1, 4], [4, 1]]);
        assert_eq!(tuples(Op::Given, 2, 4, 1, &[]), [[2]]);
    }

    #[test]
    fn values_repeat_only_in_cells_that_share_no_group() {
        // An L-shaped cage: cells 0 and 2 share neither row nor column.
        let l_shape = [(0, 1), (1, 2)];
        let found = tuples(Op::Add, 4, 3, 3, &l_shape);
        assert_eq!(found, [[1, 2, 1]]);
        assert_eq!(tuples(Op::Mul, 4, 4, 2, &[]), [[1, 4], [2, 2], [4, 1]]);
        assert_eq!(tuples(Op::Mul, 4, 4, 2, &[(0, 1)]), [[1, 4], [4, 1]]);
    }

    #[test]
    fn no_op_cages_take_the_union_of_the_allowed_ops() {
        // Two cells of 1..=4 with target 2: 1+1 (apart? no), 3-1, 4-2, 1*2, 2/1, 4/2.
        let found = tuples(Op::Any, 2, 4, 2, &[(0, 1)]);
        assert_eq!(found, [[1, 2], [1, 3], [2, 1], [2, 4], [3, 1], [4, 2]]);
        // Three cells: sum or product only, never a difference.
        let found = tuples(Op::Any, 6, 3, 3, &[(0, 1), (1, 2), (0, 2)]);
        assert_eq!(found.len(), 6, "the permutations of 1 2 3, whose sum and product are both 6");
        assert!(tuples(Op::Any, 1, 3, 3, &[(0, 1), (1, 2), (0, 2)]).is_empty());
        assert_eq!(tuples(Op::Any, 3, 4, 1, &[]), [[3]]);
    }

    #[test]
    fn cages_with_no_tuple() {
        assert!(tuples(Op::Sub, 4, 4, 2, &[(0, 1)]).is_empty());
        assert!(tuples(Op::Div, 3, 2, 2, &[(0, 1)]).is_empty());
        assert!(tuples(Op::Add, 100, 4, 3, &[]).is_empty());
        assert!(tuples(Op::Mul, 7, 6, 2, &[]).is_empty());
        assert!(tuples(Op::Given, 5, 4, 1, &[]).is_empty());
    }

    #[test]
    fn generation_stops_at_the_limit() {
        let apart = vec![vec![false; 12]; 12];
        let domains = vec![u32::MAX; 625];
        let cage = CageShape { op: Op::Add, target: "40", size: 9, apart: &apart, domains: &domains };
        assert_eq!(allowed_tuples(&cage, 1000), Err(Refused::TooMany));
        // A whole 25x25 Latin square as one cage: the plain search dead-ends
        // too often to finish, and is cut off by the step budget.
        let n = 25;
        let apart: Vec<Vec<bool>> =
            (0..n * n).map(|a| (0..n * n).map(|b| a != b && (a / n == b / n || a % n == b % n)).collect()).collect();
        let target = (25 * 325).to_string();
        let cage = CageShape { op: Op::Add, target: &target, size: 25, apart: &apart, domains: &domains };
        assert!(matches!(allowed_tuples(&cage, 1000), Err(Refused::TooLong(_))));
    }
}
