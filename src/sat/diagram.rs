//! A cage's allowed tuples — every assignment of values to its cells that
//! satisfies the op and target and keeps apart the cells that share a
//! group — as a layered decision diagram (an MDD): one layer per cell, an
//! arc per value a cell can take after the values before it, and each
//! node standing for every way the cells after it can complete the cage.
//!
//! Built depth first, cell by cell, from states: what the values so far
//! leave of the target (a partial sum, and the quotient a product still
//! needs), and the values each later cell may no longer take because a
//! cell it shares a group with holds them. A pair whose op is `-`, `/` or
//! `?` keeps the first value itself. Equal states are built once, and
//! nodes with the same arcs are one node, so the diagram is reduced: each
//! node a different set of completions. A branch is cut as soon as its sum
//! or product cannot reach the target, so the work follows the diagram's
//! size rather than N^k, or the number of tuples.
//!
//! This is the SAT backend's own cage arithmetic, written apart from the
//! native solver's and the checker's: a product target is held as a big
//! number (`big.rs`), and each value divides what is left of it exactly,
//! so no product is ever computed and none can overflow.

use std::collections::HashMap;

use super::big::Big;
use crate::puzzle::Op;

/// A cage reduced to what the diagram needs.
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

/// Why a cage's diagram was not built.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Refused {
    /// More than the limit of arcs.
    TooMany,
    /// The search for them took more than this many steps (a big cage whose
    /// partial assignments mostly dead-end, or seldom meet).
    TooLong(u64),
}

/// Search steps (values tried) allowed per arc of the limit.
const STEPS_PER_ARC: u64 = 100;

/// An arc of a [`Diagram`]: from a node of its layer, by a value of that
/// layer's cell, to a node of the next layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Arc {
    pub from: u32,
    pub value: u8,
    pub to: u32,
}

/// A reduced, layered decision diagram of a cage's allowed tuples. Layer
/// `i` holds the arcs for the cage's cell `i`; its nodes are numbered from
/// 0 within the layer. Layer 0 has one node, the root, and so does the
/// layer after the last cell, the end; every node lies on a path from one
/// to the other, and each path is an allowed tuple. A cage with no allowed
/// tuple has no arcs and no root.
#[derive(Debug)]
pub(super) struct Diagram {
    /// The arcs of each cell's layer, grouped by the node they leave.
    pub arcs: Vec<Vec<Arc>>,
    /// How many nodes each layer has, from the root's to the end's.
    pub nodes: Vec<u32>,
}

impl Diagram {
    /// Whether the cage has no allowed tuple.
    pub fn is_empty(&self) -> bool {
        self.nodes[0] == 0
    }

    /// Every arc of every layer.
    pub fn arc_count(&self) -> usize {
        self.arcs.iter().map(Vec::len).sum()
    }

    /// Every allowed tuple, values in the order of the cage's cells.
    #[cfg(test)]
    pub fn tuples(&self) -> Vec<Vec<u8>> {
        fn walk(diagram: &Diagram, layer: usize, node: u32, values: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
            if layer == diagram.arcs.len() {
                out.push(values.clone());
                return;
            }
            for arc in diagram.arcs[layer].iter().filter(|arc| arc.from == node) {
                values.push(arc.value);
                walk(diagram, layer + 1, arc.to, values, out);
                values.pop();
            }
        }
        let mut out = Vec::new();
        if !self.is_empty() {
            walk(self, 0, 0, &mut Vec::new(), &mut out);
        }
        out
    }
}

/// The diagram of `cage`'s allowed tuples. Refused once it has more than
/// `limit` arcs, or once the search has tried more than 100 values per arc
/// of the limit; either way, a refused cage costs bounded time and memory.
pub(super) fn diagram(cage: &CageShape, limit: usize) -> Result<Diagram, Refused> {
    let cells = cage.apart.len();
    let budget = (limit as u64).saturating_mul(STEPS_PER_ARC).max(1_000_000);
    let goal = Goal::new(cage);
    let mut builder = Builder {
        cage,
        goal: &goal,
        limit,
        steps: budget,
        budget,
        seen: vec![HashMap::new(); cells],
        nodes: vec![HashMap::new(); cells],
        arcs: vec![Vec::new(); cells],
        arc_count: 0,
    };
    let root = State {
        sum: (goal.tracks_sum && goal.small.is_some()).then_some(0),
        rest: goal.product.clone(),
        prefix: Vec::new(),
        taken: vec![0; cells],
    };
    if builder.node(0, root)?.is_none() {
        return Ok(Diagram { arcs: vec![Vec::new(); cells], nodes: vec![0; cells + 1] });
    }
    // Every layer's nodes, and the end.
    let nodes = builder.nodes.iter().map(|layer| layer.len() as u32).chain([1]).collect();
    Ok(Diagram { arcs: builder.arcs, nodes })
}

/// The target read for the search.
struct Goal {
    /// The target, if it fits in a `u64` (every reachable sum does).
    small: Option<u64>,
    /// Whether states carry the sum: `+` cages, and `?` cages of three
    /// cells or more.
    tracks_sum: bool,
    /// The target as a big number, if the cage may be a product of three
    /// cells or more, or a `*` pair, and the target is not beyond every
    /// product of the cage's values.
    product: Option<Big>,
    /// Whether states carry the values themselves: pairs whose op is not
    /// monotone (`-`, `/`, `?`), and one-cell cages.
    tracks_prefix: bool,
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
        let tracks_prefix =
            cells < 2 || matches!(cage.op, Op::Sub | Op::Div | Op::Given) || cage.op == Op::Any && cells == 2;
        let tracks_sum = !tracks_prefix && matches!(cage.op, Op::Add | Op::Any);
        let product = (!tracks_prefix && matches!(cage.op, Op::Mul | Op::Any))
            .then(|| Big::read_decimal(cage.target))
            .flatten()
            .filter(|t| t <= &powers[cells]);
        Goal { small: cage.target.parse().ok(), tracks_sum, product, tracks_prefix, powers }
    }
}

/// What the values of the cells before a layer leave to the cells from
/// it on.
#[derive(Clone, PartialEq, Eq, Hash)]
struct State {
    /// Their sum, if states carry it and it can still reach the target.
    sum: Option<u64>,
    /// What their product leaves of the target, if states carry it and it
    /// divides the target and can still reach it.
    rest: Option<Big>,
    /// The values themselves, if states carry them.
    prefix: Vec<u8>,
    /// For each cell from the layer on, the values it may not take: those
    /// of the cells before that share a group with it (bit v for value v).
    taken: Vec<u32>,
}

struct Builder<'a> {
    cage: &'a CageShape<'a>,
    goal: &'a Goal,
    limit: usize,
    /// Steps left of the budget.
    steps: u64,
    budget: u64,
    /// For each layer, the node each state seen there leads to (`None`:
    /// no completion).
    seen: Vec<HashMap<State, Option<u32>>>,
    /// For each layer, its nodes, keyed by their arcs (value, next node).
    nodes: Vec<HashMap<Vec<(u8, u32)>, u32>>,
    arcs: Vec<Vec<Arc>>,
    arc_count: usize,
}

impl Builder<'_> {
    /// The node of layer `layer` that `state` leads to, built if new, or
    /// `None` if no values of the cells from `layer` on complete it. The
    /// end (after the last cell) is node 0.
    fn node(&mut self, layer: usize, state: State) -> Result<Option<u32>, Refused> {
        let cells = self.cage.apart.len();
        if layer == cells {
            return Ok(self.complete(&state).then_some(0));
        }
        if let Some(&node) = self.seen[layer].get(&state) {
            return Ok(node);
        }
        let size = u64::from(self.cage.size);
        if self.steps < size {
            return Err(Refused::TooLong(self.budget));
        }
        self.steps -= size;
        let mut out = Vec::new();
        for v in 1..=self.cage.size {
            if (self.cage.domains[layer] & !state.taken[0]) & (1 << v) == 0 {
                continue;
            }
            if let Some(next) = self.step(layer, &state, v)
                && let Some(to) = self.node(layer + 1, next)?
            {
                out.push((v, to));
            }
        }
        let node = if out.is_empty() { None } else { Some(self.intern(layer, out)?) };
        self.seen[layer].insert(state, node);
        Ok(node)
    }

    /// The node of `layer` with arcs `out`: an existing one with the same
    /// arcs, or a new one.
    fn intern(&mut self, layer: usize, out: Vec<(u8, u32)>) -> Result<u32, Refused> {
        if let Some(&node) = self.nodes[layer].get(&out) {
            return Ok(node);
        }
        self.arc_count += out.len();
        if self.arc_count > self.limit {
            return Err(Refused::TooMany);
        }
        let node = self.nodes[layer].len() as u32;
        self.arcs[layer].extend(out.iter().map(|&(value, to)| Arc { from: node, value, to }));
        self.nodes[layer].insert(out, node);
        Ok(node)
    }

    /// The state after cell `layer` takes `v`, or `None` if no values of
    /// the cells after it can complete the cage.
    fn step(&self, layer: usize, state: &State, v: u8) -> Option<State> {
        let (cage, goal) = (self.cage, self.goal);
        let left = cage.apart.len() - layer - 1;
        let n = u64::from(cage.size);
        let sum = state
            .sum
            .map(|sum| sum + u64::from(v))
            .filter(|&sum| goal.small.is_some_and(|t| sum + left as u64 <= t && sum + left as u64 * n >= t));
        let rest =
            state.rest.as_ref().and_then(|r| r.divided_exactly(u32::from(v))).filter(|r| r <= &goal.powers[left]);
        if !goal.tracks_prefix && sum.is_none() && rest.is_none() {
            return None;
        }
        let mut prefix = state.prefix.clone();
        if goal.tracks_prefix {
            prefix.push(v);
        }
        let taken = (layer + 1..cage.apart.len())
            .zip(&state.taken[1..])
            .map(|(j, &taken)| if cage.apart[layer][j] { taken | 1 << v } else { taken })
            .collect();
        Some(State { sum, rest, prefix, taken })
    }

    /// Whether the values that led to `state`, one for every cell,
    /// satisfy the op and the target.
    fn complete(&self, state: &State) -> bool {
        let goal = self.goal;
        let sum_holds = state.sum.is_some() && state.sum == goal.small;
        let product_holds = state.rest.as_ref().is_some_and(Big::is_one);
        if !goal.tracks_prefix {
            return sum_holds || product_holds;
        }
        let Some(target) = goal.small else { return false };
        let holds = |op: Op, values: &[u8]| match (op, values) {
            (Op::Add, &[a, b]) => u64::from(a) + u64::from(b) == target,
            (Op::Mul, &[a, b]) => u64::from(a) * u64::from(b) == target,
            (Op::Sub, &[a, b]) => u64::from(a.abs_diff(b)) == target,
            (Op::Div, &[a, b]) => u64::from(a.min(b)).checked_mul(target) == Some(u64::from(a.max(b))),
            (_, &[a]) => u64::from(a) == target,
            _ => false,
        };
        match self.cage.op {
            Op::Any if state.prefix.len() == 2 => {
                [Op::Add, Op::Sub, Op::Mul, Op::Div].into_iter().any(|op| holds(op, &state.prefix))
            }
            op => holds(op, &state.prefix),
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn shape_tuples(op: Op, target: &str, size: u8, apart: &[Vec<bool>], domains: &[u32]) -> Vec<Vec<u8>> {
        let cage = CageShape { op, target, size, apart, domains };
        let mut found = diagram(&cage, 1_000_000).unwrap().tuples();
        found.sort();
        found
    }

    fn tuples(op: Op, target: u64, size: u8, cells: usize, apart_pairs: &[(usize, usize)]) -> Vec<Vec<u8>> {
        let mut apart = vec![vec![false; cells]; cells];
        for &(i, j) in apart_pairs {
            apart[i][j] = true;
            apart[j][i] = true;
        }
        shape_tuples(op, &target.to_string(), size, &apart, &vec![u32::MAX; cells])
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
        assert_eq!(tuples(Op::Add, 4, 3, 3, &l_shape), [[1, 2, 1]]);
        assert_eq!(tuples(Op::Mul, 4, 4, 2, &[]), [[1, 4], [2, 2], [4, 1]]);
        assert_eq!(tuples(Op::Mul, 4, 4, 2, &[(0, 1)]), [[1, 4], [4, 1]]);
    }

    #[test]
    fn no_op_cages_take_the_union_of_the_allowed_ops() {
        // Two cells of 1..=4 with target 2: 3-1, 4-2, 1*2, 2/1, 4/2 (1+1 would repeat).
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
    fn equal_completions_share_a_node() {
        // Three cells of a row summing to 6 in a 9x9: after 1 and after 2 the
        // cells left differ in what they may not take, so every prefix is
        // a node of its own; without groups, 1+2 and 2+1 leave the same.
        let cage = |apart: bool| {
            let apart = vec![vec![apart; 3]; 3];
            diagram(&CageShape { op: Op::Add, target: "6", size: 9, apart: &apart, domains: &[u32::MAX; 3] }, 1000)
                .unwrap()
        };
        assert_eq!(cage(true).tuples().len(), 6);
        assert_eq!(cage(false).tuples().len(), 10);
        assert_eq!(cage(false).nodes, [1, 4, 4, 1], "left to reach: 5 4 3 2, then 1 2 3 4");
        // A sum of 9 cells to 45 over 1..9, all apart: the subsets are the
        // nodes, 2^9 of them, where the tuples are 9! = 362,880.
        let all = vec![vec![true; 9]; 9];
        let big =
            diagram(&CageShape { op: Op::Add, target: "45", size: 9, apart: &all, domains: &[u32::MAX; 9] }, 5000)
                .unwrap();
        assert_eq!(big.nodes.iter().sum::<u32>(), 1 << 9);
    }

    #[test]
    fn building_stops_at_the_limit() {
        let apart = vec![vec![false; 12]; 12];
        let domains = vec![u32::MAX; 625];
        let cage = CageShape { op: Op::Add, target: "40", size: 9, apart: &apart, domains: &domains };
        assert_eq!(diagram(&cage, 1000).unwrap_err(), Refused::TooMany);
        let arcs = diagram(&cage, 100_000).unwrap().arc_count();
        assert!((1000..3000).contains(&arcs), "sums to 40 over 12 cells: {arcs} arcs, for billions of tuples");
        // A whole 25x25 Latin square as one cage: the states never meet,
        // and the search is cut off by the step budget.
        let n = 25;
        let apart: Vec<Vec<bool>> =
            (0..n * n).map(|a| (0..n * n).map(|b| a != b && (a / n == b / n || a % n == b % n)).collect()).collect();
        let target = (25 * 325).to_string();
        let cage = CageShape { op: Op::Add, target: &target, size: 25, apart: &apart, domains: &domains };
        assert!(matches!(diagram(&cage, 1000), Err(Refused::TooLong(_))));
    }

    /// Every tuple of values 1..=size for `cells` cells, kept where it
    /// satisfies the op (computed in u128) and keeps apart cells that share
    /// a group, and respects the domains: the plain expansion.
    fn expand(op: Op, target: u128, size: u8, apart: &[Vec<bool>], domains: &[u32]) -> Vec<Vec<u8>> {
        let cells = apart.len();
        let mut out = Vec::new();
        let mut values = vec![1u8; cells];
        loop {
            let sum: u128 = values.iter().map(|&v| u128::from(v)).sum();
            let product: u128 = values.iter().map(|&v| u128::from(v)).product();
            let sub = cells == 2 && u128::from(values[0].abs_diff(values[1])) == target;
            let div = cells == 2 && {
                let (lo, hi) = (u128::from(values[0].min(values[1])), u128::from(values[0].max(values[1])));
                lo * target == hi
            };
            let holds = match op {
                Op::Add => sum == target,
                Op::Mul => product == target,
                Op::Sub => sub,
                Op::Div => div,
                Op::Given => cells == 1 && sum == target,
                Op::Any if cells == 1 => sum == target,
                Op::Any if cells == 2 => sum == target || product == target || sub || div,
                Op::Any => sum == target || product == target,
            };
            let apart_ok = (0..cells).all(|i| (0..i).all(|j| !apart[i][j] || values[i] != values[j]));
            let in_domains = (0..cells).all(|i| domains[i] & (1 << values[i]) != 0);
            if holds && apart_ok && in_domains {
                out.push(values.clone());
            }
            let Some(i) = (0..cells).rev().find(|&i| values[i] < size) else { break };
            values[i] += 1;
            values[i + 1..].fill(1);
        }
        out
    }

    fn random_cage() -> impl Strategy<Value = (Op, u8, Vec<Vec<bool>>, Vec<u32>, u128)> {
        (1usize..=5, 2u8..=7).prop_flat_map(|(cells, size)| {
            let ops = match cells {
                1 => vec![Op::Given, Op::Any],
                2 => vec![Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Any],
                _ => vec![Op::Add, Op::Mul, Op::Any],
            };
            (
                proptest::sample::select(ops),
                Just(size),
                proptest::collection::vec(any::<bool>(), cells * cells),
                proptest::collection::vec(any::<u32>(), cells),
                proptest::collection::vec(1..=size, cells),
                any::<bool>(),
            )
                .prop_map(move |(op, size, bits, masks, planted, by_product)| {
                    let apart: Vec<Vec<bool>> = (0..cells)
                        .map(|i| (0..cells).map(|j| i != j && bits[i.min(j) * cells + i.max(j)]).collect())
                        .collect();
                    // Most domains keep most values, and the planted ones.
                    let domains = (0..cells).map(|i| (masks[i] | masks[i] >> 7 | 1 << planted[i]) & !1).collect();
                    let target = if by_product && op != Op::Sub {
                        planted.iter().map(|&v| u128::from(v)).product()
                    } else {
                        match op {
                            Op::Sub if cells == 2 => u128::from(planted[0].abs_diff(planted[1])),
                            _ => planted.iter().map(|&v| u128::from(v)).sum(),
                        }
                    };
                    (op, size, apart, domains, target)
                })
        })
    }

    proptest! {
        #[test]
        fn the_diagram_accepts_exactly_the_plain_expansion((op, size, apart, domains, target) in random_cage()) {
            let expected = expand(op, target, size, &apart, &domains);
            let found = shape_tuples(op, &target.to_string(), size, &apart, &domains);
            prop_assert_eq!(found, expected);
        }

        #[test]
        fn a_target_next_to_the_planted_one_too((op, size, apart, domains, target) in random_cage()) {
            let target = target + 1;
            let expected = expand(op, target, size, &apart, &domains);
            let found = shape_tuples(op, &target.to_string(), size, &apart, &domains);
            prop_assert_eq!(found, expected);
        }
    }
}
