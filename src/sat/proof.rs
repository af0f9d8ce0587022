//! Proofs that a formula has no model: made by a fresh varisat solver (it
//! writes proofs only when not used incrementally), checked by the
//! `varisat-checker` crate, and rendered as DRAT for independent checkers.

use std::io::Write;

use anyhow::anyhow;
use varisat::{ProofFormat, Solver};
use varisat_checker::{CheckedProofStep, Checker, CheckerData, ProofProcessor};

/// What became of a formula given to [`refute`].
pub(crate) enum Refutation {
    /// It has no model: a proof of that in varisat's own format.
    Proof(Vec<u8>),
    /// It has a model, given as the true variables (from 0).
    Model(Vec<usize>),
}

/// Solves the DIMACS CNF `cnf` with a fresh solver that writes a proof.
pub(crate) fn refute(cnf: &[u8]) -> Result<Refutation, String> {
    let mut proof = Vec::new();
    let mut solver = Solver::new();
    solver.write_proof(&mut proof, ProofFormat::Varisat);
    solver.add_dimacs_cnf(cnf).map_err(|e| format!("cannot read the CNF: {e}"))?;
    let satisfiable = solver.solve().map_err(|e| format!("varisat failed: {e}"))?;
    if satisfiable {
        let model = solver.model().expect("a model after SAT");
        return Ok(Refutation::Model(model.iter().filter(|l| l.is_positive()).map(|l| l.var().index()).collect()));
    }
    solver.close_proof().map_err(|e| format!("cannot finish the proof: {e}"))?;
    drop(solver);
    Ok(Refutation::Proof(proof))
}

/// Checks with `varisat-checker` that `proof` (varisat's format) shows the
/// DIMACS CNF `cnf` to have no model, and returns the same proof in DRAT.
pub(crate) fn check(cnf: &[u8], proof: &[u8]) -> Result<Vec<u8>, String> {
    let mut drat = Drat::default();
    {
        let mut checker = Checker::new();
        checker.add_processor(&mut drat);
        checker.add_dimacs_cnf(cnf).map_err(|e| format!("cannot read the CNF: {e}"))?;
        checker.check_proof(proof).map_err(|e| format!("the proof does not check: {e}"))?;
    }
    if !drat.refuted {
        return Err("the proof does not reach the empty clause".to_string());
    }
    Ok(drat.text)
}

/// Writes each checked step that DRAT has as a line: learnt clauses, and
/// the deletion of clauses no longer needed.
#[derive(Default)]
struct Drat {
    text: Vec<u8>,
    /// Whether the empty clause was derived.
    refuted: bool,
}

impl Drat {
    fn line(&mut self, delete: bool, clause: &[varisat::Lit], data: CheckerData) -> Result<(), anyhow::Error> {
        if delete {
            self.text.extend_from_slice(b"d ");
        }
        for &lit in clause {
            let var = data
                .user_from_proof_var(lit.var())
                .ok_or_else(|| anyhow!("the proof uses a variable of its own, which DRAT cannot name"))?;
            write!(self.text, "{} ", var.to_dimacs() * if lit.is_positive() { 1 } else { -1 })?;
        }
        self.text.extend_from_slice(b"0\n");
        Ok(())
    }
}

impl ProofProcessor for Drat {
    fn process_step(&mut self, step: &CheckedProofStep, data: CheckerData) -> Result<(), anyhow::Error> {
        match *step {
            CheckedProofStep::AtClause { clause, .. } => {
                self.refuted |= clause.is_empty();
                self.line(false, clause, data)
            }
            CheckedProofStep::DeleteClause { clause, .. }
            | CheckedProofStep::DeleteAtClause { clause, keep_as_redundant: false, .. }
            | CheckedProofStep::DeleteRatClause { clause, keep_as_redundant: false, .. } => {
                self.line(true, clause, data)
            }
            _ => Ok(()),
        }
    }
}
