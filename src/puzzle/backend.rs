//! The engines cagey carries, by name.

use std::fmt;
use std::str::FromStr;

/// Which engine solves: one of the two independent backends, or both as a
/// portfolio.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "lowercase"))]
#[non_exhaustive]
pub enum Backend {
    /// Propagation on candidate bitsets and depth-first search.
    Native,
    /// CNF with cages as allowed tuples, solved by varisat; solutions are
    /// blocked by clauses, then split off under assumptions.
    Sat,
    /// Native first; if it fails too often for its solutions, SAT takes
    /// over with native's solutions blocked, so that each solution is still
    /// handed out once. Fast where either backend is, without knowing
    /// which beforehand.
    #[default]
    Auto,
}

impl Backend {
    /// Every backend, as the command line accepts them.
    pub const ALL: [Backend; 3] = [Backend::Native, Backend::Sat, Backend::Auto];

    /// The two independent engines, which share no constraint code: the
    /// pair to compare.
    pub const ENGINES: [Backend; 2] = [Backend::Native, Backend::Sat];

    /// The backend's name on the command line and in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Backend::Native => "native",
            Backend::Sat => "sat",
            Backend::Auto => "auto",
        }
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Backend {
    type Err = String;

    /// `native`, `sat` or `auto`, in any case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Backend::ALL
            .into_iter()
            .find(|b| b.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("unknown backend '{s}': expected native, sat or auto"))
    }
}
