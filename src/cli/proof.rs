//! Certificates of uniqueness on disk: `unique --proof DIR` writes them,
//! `check-proof DIR…` checks them again.

use std::io::Write;
use std::path::{Path, PathBuf};

use cagey::format::{self, Format, ParseOptions, kenken};
use cagey::{Certificate, CertificateError, Grid, Solver};

use super::args::CheckProofArgs;
use super::exit::{Answer, RunError};
use super::input::{CliError, Entry, grids};

/// The files of a certificate, in its directory.
const PUZZLE: &str = "puzzle.txt";
const SOLUTION: &str = "solution.txt";
const CNF: &str = "puzzle.cnf";
const PROOF: &str = "puzzle.varisat";
const DRAT: &str = "puzzle.drat";

/// Makes the certificate of `solution`, the one solution of `entry`'s
/// puzzle, writes it to `dir`, and checks it again as read back from
/// there. A certificate that cannot be made or does not check is an error.
pub fn certify(solver: &Solver, entry: &Entry, solution: &Grid, dir: &Path) -> Result<(), CliError> {
    let failed = |error: CertificateError| {
        let message = match error {
            CertificateError::NotUnique(other) => {
                format!(
                    "the SAT proof found another solution, which the search missed: a bug, please report it\n{other}"
                )
            }
            error => format!("cannot certify the solution: {error}"),
        };
        CliError::Unfit { place: entry.label(), message }
    };
    let certificate = solver.certify(&entry.puzzle, solution).map_err(failed)?;
    let write = |name: &str, bytes: &[u8]| {
        let path = dir.join(name);
        std::fs::write(&path, bytes).map_err(|error| CliError::Write { path, error })
    };
    std::fs::create_dir_all(dir).map_err(|error| CliError::Write { path: dir.to_path_buf(), error })?;
    write(PUZZLE, kenken::write(&entry.puzzle).as_bytes())?;
    write(SOLUTION, certificate.solution.to_string().as_bytes())?;
    write(CNF, &certificate.cnf)?;
    write(PROOF, &certificate.proof)?;
    write(DRAT, &certificate.drat)?;
    check_dir(solver, dir).map_err(|message| CliError::Unfit { place: dir.display().to_string(), message })
}

/// Checks the certificate in `dir`: its puzzle, solution, CNF, proof and
/// DRAT, as [`Solver::check_certificate`] does.
fn check_dir(solver: &Solver, dir: &Path) -> Result<(), String> {
    let read = |name: &str| std::fs::read(dir.join(name)).map_err(|e| format!("cannot read {name}: {e}"));
    let text = String::from_utf8(read(PUZZLE)?).map_err(|_| format!("{PUZZLE} is not text"))?;
    let options = ParseOptions { format: Some(Format::KenKen), ..Default::default() };
    let parsed = format::parse(&text, PUZZLE, &options).map_err(|e| e.to_string())?;
    let [parsed] = &parsed[..] else { return Err(format!("{PUZZLE} holds {} puzzles, not one", parsed.len())) };
    let puzzle = &parsed.puzzle;
    let budget = u64::MAX;
    let mut solutions = grids(&dir.join(SOLUTION), puzzle.size(), budget).map_err(|e| e.to_string())?;
    let solution = match solutions.len() {
        1 => solutions.remove(0).1,
        count => return Err(format!("{SOLUTION} holds {count} grids, not one")),
    };
    let certificate = Certificate { solution, cnf: read(CNF)?, proof: read(PROOF)?, drat: read(DRAT)? };
    solver.check_certificate(puzzle, &certificate).map_err(|e| e.to_string())
}

/// The directory for puzzle `k` (from 1) of a run: `dir` itself when the
/// run has one puzzle, `dir/k` when it has several.
pub fn directory(dir: &Path, k: usize, one: bool) -> PathBuf {
    if one { dir.to_path_buf() } else { dir.join(k.to_string()) }
}

/// `cagey check-proof DIR…`.
pub fn check_proof(args: &CheckProofArgs, out: &mut dyn Write) -> Result<Answer, RunError> {
    let solver = args.tuples.apply(Solver::builder()).build();
    let mut answer = Answer::Positive;
    for dir in &args.dirs {
        match check_dir(&solver, dir) {
            Ok(()) => writeln!(out, "{}: certified unique", dir.display())?,
            Err(message) => {
                writeln!(out, "{}: rejected: {message}", dir.display())?;
                answer = Answer::Negative;
            }
        }
    }
    Ok(answer)
}
