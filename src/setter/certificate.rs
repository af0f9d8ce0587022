//! Certificates that a puzzle has exactly one solution, which anyone can
//! check without trusting cagey's search: the puzzle's CNF with that
//! solution ruled out by one more clause, and a proof that this CNF has
//! no model, so that no second solution exists.

use thiserror::Error;

use crate::puzzle::verify::{Violation, verify};
use crate::puzzle::{Grid, Puzzle};
use crate::sat::{self, SatError};
use crate::solver::Solver;

/// Evidence that a puzzle has one solution, from
/// [`Solver::certify`](crate::Solver::certify).
///
/// ```
/// use cagey::{Solver, Uniqueness, format};
///
/// let text = "# 3\n+ 3 A1 A2\n! 3 A3\n- 1 B1 C1\n! 2 C3\n";
/// let puzzle = &format::parse(text, "three.txt", &Default::default()).unwrap()[0].puzzle;
/// let solver = Solver::default();
/// let Uniqueness::Unique(solution) = solver.uniqueness(puzzle).unwrap().uniqueness else { panic!("unique") };
/// let certificate = solver.certify(puzzle, &solution).unwrap();
/// assert!(solver.check_certificate(puzzle, &certificate).is_ok());
/// assert!(certificate.drat.ends_with(b"0\n"), "the empty clause ends the proof");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate {
    /// The one solution.
    pub solution: Grid,
    /// The SAT encoding of the puzzle as DIMACS CNF, with a last clause
    /// that rules out `solution` (as `cagey cnf --block` writes it).
    pub cnf: Vec<u8>,
    /// A proof that `cnf` has no model, in varisat's own format: what
    /// [`Solver::check_certificate`](crate::Solver::check_certificate)
    /// checks, with the `varisat-checker` crate.
    pub proof: Vec<u8>,
    /// The same proof in DRAT, for independent checkers (drat-trim, the
    /// `rate` crate's binary).
    pub drat: Vec<u8>,
}

/// Why a certificate could not be made, or does not check.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum CertificateError {
    /// The grid is not a solution of the puzzle.
    #[error("the solution is not one: {0}")]
    NotASolution(Violation),
    /// The CNF has a model: the puzzle has this other solution.
    #[error("the puzzle has another solution")]
    NotUnique(Grid),
    /// The CNF is not the puzzle's encoding with the solution ruled out.
    #[error("the CNF is not the puzzle's encoding with the solution ruled out")]
    WrongCnf,
    /// The proof does not show the CNF to have no model.
    #[error("{0}")]
    Proof(String),
    /// The DRAT proof is not the checked proof.
    #[error("the DRAT proof is not the proof that was checked")]
    WrongDrat,
    /// The SAT backend refused the puzzle.
    #[error(transparent)]
    Sat(#[from] SatError),
}

/// A certificate that `solution` is the one solution of `puzzle`, encoded
/// within `bounds`.
pub(crate) fn certify(puzzle: &Puzzle, solution: &Grid, bounds: sat::Bounds) -> Result<Certificate, CertificateError> {
    let cnf = expected_cnf(puzzle, solution, bounds)?;
    let proof = match sat::proof::refute(&cnf).map_err(CertificateError::Proof)? {
        sat::proof::Refutation::Proof(proof) => proof,
        sat::proof::Refutation::Model(true_vars) => {
            let n = puzzle.size();
            let mut values = vec![0u8; n * n];
            for var in true_vars.into_iter().filter(|&v| v < n * n * n) {
                values[var / n] = (var % n + 1) as u8;
            }
            let other = Grid::new(n, values).expect("a model gives every cell a value");
            return Err(CertificateError::NotUnique(other));
        }
    };
    let drat = sat::proof::check(&cnf, &proof).map_err(CertificateError::Proof)?;
    Ok(Certificate { solution: solution.clone(), cnf, proof, drat })
}

/// Checks every part of `certificate` for `puzzle`: the solution solves
/// it, the CNF is its encoding with the solution ruled out, the proof
/// refutes the CNF, and the DRAT proof is that proof.
pub(crate) fn check(puzzle: &Puzzle, certificate: &Certificate, bounds: sat::Bounds) -> Result<(), CertificateError> {
    if certificate.cnf != expected_cnf(puzzle, &certificate.solution, bounds)? {
        return Err(CertificateError::WrongCnf);
    }
    let drat = sat::proof::check(&certificate.cnf, &certificate.proof).map_err(CertificateError::Proof)?;
    if drat != certificate.drat {
        return Err(CertificateError::WrongDrat);
    }
    Ok(())
}

/// The DIMACS CNF of `puzzle` with `solution` ruled out, once `solution`
/// is known to solve it.
fn expected_cnf(puzzle: &Puzzle, solution: &Grid, bounds: sat::Bounds) -> Result<Vec<u8>, CertificateError> {
    verify(puzzle, solution).map_err(CertificateError::NotASolution)?;
    let encoding = sat::encode(puzzle, bounds)?;
    let mut cnf = Vec::new();
    sat::dimacs::write(&mut cnf, &encoding, std::slice::from_ref(solution)).expect("writing to memory");
    Ok(cnf)
}

impl Solver {
    /// A certificate that `solution` is the one solution of `puzzle`: its
    /// CNF with `solution` ruled out, and a proof that no model is left,
    /// made by a fresh varisat solver and checked with `varisat-checker`
    /// (whatever this solver's backend; its SAT bounds apply). Fails with
    /// [`CertificateError::NotUnique`] if there is another solution.
    pub fn certify(&self, puzzle: &Puzzle, solution: &Grid) -> Result<Certificate, CertificateError> {
        certify(puzzle, solution, self.bounds())
    }
    /// Checks every part of a certificate for `puzzle`: its solution, that
    /// its CNF is the puzzle's encoding with that solution ruled out, its
    /// proof (with `varisat-checker`), and that its DRAT is that proof.
    pub fn check_certificate(&self, puzzle: &Puzzle, certificate: &Certificate) -> Result<(), CertificateError> {
        check(puzzle, certificate, self.bounds())
    }
}
