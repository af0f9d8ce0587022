//! What the KenKen and Sudoku readers share: text handed over a line at a
//! time, so that memory follows the puzzle being read, not the text.

use crate::format::error::{ParseError, ParseErrorKind};

use super::options::Parsed;

/// A puzzle read, or the line, column and kind of the error that stopped it.
pub(super) type Item = Result<Parsed, (usize, usize, ParseErrorKind)>;

/// A reader of one format, fed a line at a time. After an error it skips
/// to where the next puzzle may start, so that a caller that reads on gets
/// the puzzles after the bad one.
pub(super) trait LineReader {
    /// Reads line `line_no` (1-based, without its line ending), handing to
    /// `out` each puzzle it completes and each error it finds.
    fn line(&mut self, line_no: usize, line: &str, out: &mut dyn FnMut(Item));

    /// The end of the text: hands out what was still being read.
    fn finish(&mut self, out: &mut dyn FnMut(Item));

    /// Bytes of text held for puzzles not yet handed out.
    fn held(&self) -> usize;
}

/// Every puzzle of `text`, or the first error; [`ParseErrorKind::Empty`]
/// when it holds none.
pub(super) fn read_all(reader: &mut dyn LineReader, text: &str, name: &str) -> Result<Vec<Parsed>, ParseError> {
    let (mut parsed, mut failed) = (Vec::new(), None);
    let mut keep = |item: Item, failed: &mut Option<_>| match item {
        Ok(puzzle) => parsed.push(puzzle),
        Err(error) => drop(failed.get_or_insert(error)),
    };
    // Up to the first error, at a line or at the end.
    for (index, line) in text.lines().enumerate() {
        reader.line(index + 1, line, &mut |item| keep(item, &mut failed));
        if failed.is_some() {
            break;
        }
    }
    if failed.is_none() {
        reader.finish(&mut |item| keep(item, &mut failed));
    }
    let error = |(line, column, kind)| ParseError { source_name: name.to_string(), line, column, kind };
    match failed {
        Some(e) => Err(error(e)),
        None if parsed.is_empty() => Err(error((1, 1, ParseErrorKind::Empty))),
        None => Ok(parsed),
    }
}
