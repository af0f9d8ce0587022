//! The setter's questions, each a `Solver` method built on the engines:
//! where the solutions differ ([`Analysis`]), the fewest givens that make a
//! puzzle unique ([`Suggestion`]), cage changes that would ([`CageChange`]),
//! and certificates of uniqueness ([`Certificate`]).

pub(crate) mod analysis;
pub(crate) mod cage_change;
pub(crate) mod certificate;
pub(crate) mod suggest;
