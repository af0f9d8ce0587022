//! The native engine's tuning knobs, in one table. Each trades speed
//! between kinds or sizes of puzzle; none changes which solutions are
//! found. `scripts/speed.sh` measures a change to any of them; ideas that
//! did not pay are in `docs/tried.md`.
//!
//! | knob | value | why |
//! |---|---|---|
//! | [`PAIRS_FIRST_UP_TO`] | 9 | pairs first at small roots; larger roots lose |
//! | [`BANDS_WHILE_PLACED`] | 55 | box–line pruning seldom pays deeper |
//! | [`HIDDEN_WHILE_PLACED_PERCENT`] | 80 | deeper, naked singles find the same a little later |
//! | [`SINGLES_BY_CELL_UP_TO_WORDS`] | 2 | the cell-by-cell index costs more on large grids |
//! | [`FIRST_RESTART`] | 100 | failures before the first restart |
//! | [`PROBE_ABOVE`] | 16 | probing the root pays only on large grids |
//! | [`PROBE_ON_RESTART_ABOVE`] | 9 | mid sizes probe once the search shows itself hard |
//! | [`PEERS_A_FAILURE`] | 1, 4 | open peers in a cell's weight, small and large grids |
//! | [`DECISIONS_BLAMED_UP_TO`] | 9 | blaming decisions grows the trees above 9×9 |
//! | [`EXACT_COMBINATIONS`] | 128, 2,048 | exact cage checks, up to and above 9×9 |
//! | [`EXACT_COMBINATIONS_ANY`] | 1,024 | `?` cages gain most from exact checks |
//! | [`ROOT_EXACT_ABOVE`], [`ROOT_EXACT_LIMIT`] | 16, 16,384 | the whole search inherits the root |
//! | [`LISTED_CELLS`], [`MOST_COMPLETIONS`] | 4, 512 | small `?` cages read a list of completions |
//! | [`LOOSE_AFTER_NODES`], [`LOOSE_NODES_A_FAILURE`] | 16, 4 | when the endgame takes every node it can |
//! | [`MEMO_BITS`] | 12, 14 | the support cache's size, up to and above 9×9 |
//! | [`ASK_EVERY`] | 64 | how often a search asks whether to stop |
//! | [`DERIVED_MOST_CELLS`] | 6 | larger derived sums prune little and cost revisions |
//! | [`LISTED_UP_TO`], [`MOST_STEPS`] | 16, 4,096 | Killer sets listed once up to 16×16, else walked within a bound |

/// Up to this size, the root revises the two-cell cages before the larger
/// ones. In the search that order grows the trees (the weights learnt from
/// pairs steer worse), so it is kept to the root.
pub(super) const PAIRS_FIRST_UP_TO: usize = 9;

/// On a 9×9 grid with 3×3 boxes, box–line interactions are looked for
/// while at most this many cells are placed; deeper they seldom take a
/// place, and a count spends most of its nodes there.
pub(super) const BANDS_WHILE_PLACED: u32 = 55;

/// Hidden singles are looked for while at most this share (percent) of the
/// cells are placed; it also sets where the endgame takes over a search
/// that fails often.
pub(super) const HIDDEN_WHILE_PLACED_PERCENT: usize = 80;

/// Up to this many words a cell set (grids up to 11×11), naked singles are
/// placed cell by cell from a bit-sliced index, with the same trees.
pub(super) const SINGLES_BY_CELL_UP_TO_WORDS: usize = 2;

/// Failures before the first restart; each run allows half as many again
/// as the one before, so that the search ends.
pub(super) const FIRST_RESTART: u64 = 100;

/// Grids above this size have the root of each cube probed before the
/// search; on smaller ones a probe costs as much as the whole search.
pub(super) const PROBE_ABOVE: usize = 16;

/// Grids above this size, up to [`PROBE_ABOVE`], have the root probed at the
/// first restart: only searches that have shown themselves hard pay.
pub(super) const PROBE_ON_RESTART_ABOVE: usize = 9;

/// On grids with no cages but their givens, how many open peers weigh as
/// much as one contradiction in a cell's weight: up to
/// [`DECISIONS_BLAMED_UP_TO`], and above.
pub(super) const PEERS_A_FAILURE: [u64; 2] = [1, 4];

/// On grids with no cages but their givens, up to this size, a decision
/// that fails at once weighs on its cell, and there is no last-conflict
/// reasoning.
pub(super) const DECISIONS_BLAMED_UP_TO: usize = 9;

/// A `+` or `*` cage of three cells or more whose candidates combine in at
/// most this many ways is checked exactly, else by bounds: up to 9×9, and
/// above.
pub(super) const EXACT_COMBINATIONS: [u32; 2] = [128, 2048];

/// The same for `?` cages, at every size: their bounds prune far less, and
/// the values required in a part come only from the exact check.
pub(super) const EXACT_COMBINATIONS_ANY: u32 = 1024;

/// At the root of a grid above this size, every cage is checked exactly up
/// to [`ROOT_EXACT_LIMIT`] combinations: the whole search inherits what the
/// root prunes.
pub(super) const ROOT_EXACT_ABOVE: usize = 16;

/// See [`ROOT_EXACT_ABOVE`].
pub(super) const ROOT_EXACT_LIMIT: u32 = 16_384;

/// `?` cages of three cells up to this many, with as many parts at most,
/// read a list of their completions, made once per kind of cage.
pub(super) const LISTED_CELLS: usize = 4;

/// A `?` cage with more completions than this is checked exactly instead
/// of listed.
pub(super) const MOST_COMPLETIONS: usize = 512;

/// A search counts as seldom failing once it has made this many nodes,
/// fewer than one in [`LOOSE_NODES_A_FAILURE`] failing; then the endgame
/// takes every node with up to 64 open cells.
pub(super) const LOOSE_AFTER_NODES: u64 = 16;

/// See [`LOOSE_AFTER_NODES`].
pub(super) const LOOSE_NODES_A_FAILURE: u64 = 4;

/// The support cache holds 2^bits entries: up to 9×9, and above, where
/// more candidate sets come back.
pub(super) const MEMO_BITS: [u32; 2] = [12, 14];

/// Failures (or probes) between two questions to the caller's `give_up`.
pub(super) const ASK_EVERY: u64 = 64;

/// Sums derived from the law of leftovers (`derive.rs`) are kept when they
/// have at most this many cells: on the forum Killers, 5 and 6 prove all
/// 42 in the least time (4 loses some of the gain, 7 and more most of it).
pub(super) const DERIVED_MOST_CELLS: usize = 6;

/// Up to this size, the sets of values of each count and sum that Killer
/// cages are checked by (`distinct.rs`) are listed once (for a 16×16,
/// 65,536 sets); above, they are walked for each revision.
pub(super) const LISTED_UP_TO: usize = 16;

/// Nodes of a walk over the sets of values of a Killer cage above
/// [`LISTED_UP_TO`] before the revision gives up and leaves the cage to
/// the general rules of sums.
pub(super) const MOST_STEPS: u32 = 4096;
