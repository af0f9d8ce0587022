//! The encoding as DIMACS CNF, for external SAT solvers.

use std::io::{self, Write};

use varisat::dimacs::{DimacsHeader, write_dimacs_clauses, write_dimacs_header};

use super::encode::Encoding;
use crate::puzzle::Grid;

/// Writes `encoding` as DIMACS CNF with comment lines that give the size and
/// the variable numbering, plus one blocking clause per grid of `blocked`,
/// so that a solver answers "is there a solution besides these?".
pub fn write(out: &mut dyn Write, encoding: &Encoding, blocked: &[Grid]) -> io::Result<()> {
    let n = encoding.size();
    let formula = encoding.formula();
    writeln!(out, "c cagey: CNF of a {n}x{n} puzzle")?;
    writeln!(out, "c variable (r*{n} + c)*{n} + v is true when row r, column c (both from 0) holds value v (from 1)")?;
    writeln!(
        out,
        "c variables 1 to {} are cells; {} more stand for allowed cage tuples",
        n * n * n,
        encoding.tuple_vars()
    )?;
    if !blocked.is_empty() {
        writeln!(out, "c the last {} clauses block given solutions", blocked.len())?;
    }
    let header = DimacsHeader { var_count: formula.var_count(), clause_count: formula.len() + blocked.len() };
    let mut out = io::BufWriter::new(out);
    write_dimacs_header(&mut out, header)?;
    write_dimacs_clauses(&mut out, formula.iter())?;
    write_dimacs_clauses(&mut out, blocked.iter().map(|grid| encoding.blocking_clause(grid)))?;
    out.flush()
}
