//! Holding the engines to account: comparing their solution sets
//! ([`check`]) on random puzzles with planted solutions ([`generate`]).

pub mod check;
pub mod generate;
