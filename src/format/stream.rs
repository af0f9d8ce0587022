//! Reading a text of any length a line at a time: [`Parser`].

use std::collections::VecDeque;

use crate::format::error::{ParseError, ParseErrorKind};

use super::detect::detect_line;
use super::fields::fields;
use super::options::{Format, ParseOptions, Parsed};
use super::reader::{Item, LineReader, read_all};
use super::{fpuzzles, keen, kenken, killer, sudoku};

/// Reads puzzles from text handed over a line at a time, holding only the
/// puzzle being read: the memory a file of a million puzzles takes is that
/// of its largest one.
///
/// Each puzzle, or the error that stopped one, is ready as soon as the line
/// that ends it is pushed. After an error the parser skips to where the
/// next puzzle may start (a KenKen size line, a Sudoku line or block), so a
/// caller may stop at the first error, as [`parse`](super::parse) does, or
/// report it and read on.
///
/// ```
/// use cagey::format::Parser;
///
/// let mut parser = Parser::new("two.txt", Default::default());
/// let mut found = Vec::new();
/// for line in ["# 2", "+ 3 A1 A2", "# 2", "% 3 A1 A2", "# 2", "! 2 B2"] {
///     parser.push(line);
///     found.extend(parser.by_ref().map(|item| item.map(|p| p.line).map_err(|e| e.line)));
/// }
/// parser.finish();
/// found.extend(parser.by_ref().map(|item| item.map(|p| p.line).map_err(|e| e.line)));
/// assert_eq!(found, [Ok(1), Err(4), Ok(5)]);
/// ```
pub struct Parser {
    name: String,
    reader: Detecting,
    /// Lines pushed so far.
    lines: usize,
    ready: VecDeque<Result<Parsed, ParseError>>,
    /// Whether anything, a puzzle or an error, was ever made ready.
    any: bool,
}

impl Parser {
    /// A parser for the text named `source_name` in error messages.
    pub fn new(source_name: &str, options: ParseOptions) -> Self {
        Parser {
            name: source_name.to_string(),
            reader: Detecting::new(options),
            lines: 0,
            ready: VecDeque::new(),
            any: false,
        }
    }

    /// Reads the next line, without its line ending.
    pub fn push(&mut self, line: &str) {
        self.lines += 1;
        let line = if self.lines == 1 { line.strip_prefix('\u{feff}').unwrap_or(line) } else { line };
        let (name, ready) = (&self.name, &mut self.ready);
        self.reader.line(self.lines, line, &mut |item| ready.push_back(named(name, item)));
        self.any |= !self.ready.is_empty();
    }

    /// The end of the text: makes ready what was still being read, or an
    /// [`Empty`](ParseErrorKind::Empty) error if the text held nothing.
    pub fn finish(&mut self) {
        let (name, ready) = (&self.name, &mut self.ready);
        self.reader.finish(&mut |item| ready.push_back(named(name, item)));
        if !self.any && self.ready.is_empty() {
            self.ready.push_back(named(name, Err((1, 1, ParseErrorKind::Empty))));
        }
        self.any = true;
    }

    /// The format of the text, once a line has shown it (or as forced).
    pub fn found_format(&self) -> Option<Format> {
        self.reader.format()
    }

    /// Bytes of text held for puzzles not yet ready.
    pub fn held(&self) -> usize {
        self.reader.held()
    }
}

/// The puzzles and errors ready, in the order of the text.
impl Iterator for Parser {
    type Item = Result<Parsed, ParseError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.ready.pop_front()
    }
}

fn named(name: &str, item: Item) -> Result<Parsed, ParseError> {
    item.map_err(|(line, column, kind)| ParseError { source_name: name.to_string(), line, column, kind })
}

/// Every puzzle in `text` by the format the options force or its first
/// meaningful line shows; see [`parse`](super::parse).
pub(super) fn parse(text: &str, source_name: &str, options: &ParseOptions) -> Result<Vec<Parsed>, ParseError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    read_all(&mut Detecting::new(*options), text, source_name)
}

/// A reader of the format the options force or the first meaningful line
/// shows. Lines before that line are blank or `#` lines; those that KenKen
/// would not skip as comments are kept to be read once the format is known.
struct Detecting {
    options: ParseOptions,
    reader: Option<Box<dyn LineReader>>,
    format: Option<Format>,
    waiting: Vec<(usize, String)>,
}

impl Detecting {
    fn new(options: ParseOptions) -> Self {
        let mut reader = Detecting { options, reader: None, format: None, waiting: Vec::new() };
        if let Some(format) = options.format {
            reader.start(format);
        }
        reader
    }

    fn start(&mut self, format: Format) {
        self.format = Some(format);
        self.reader = Some(match format {
            Format::KenKen => Box::new(kenken::Reader::default()),
            Format::Sudoku => Box::new(sudoku::Reader::new(self.options.boxes)),
            Format::Keen => Box::new(keen::Reader),
            Format::Killer => Box::new(killer::Reader),
            Format::FPuzzles => Box::new(fpuzzles::Reader::default()),
        });
    }

    fn format(&self) -> Option<Format> {
        self.format
    }
}

impl LineReader for Detecting {
    fn line(&mut self, line_no: usize, line: &str, out: &mut dyn FnMut(Item)) {
        if self.reader.is_none() {
            match detect_line(line) {
                Some(format) => self.start(format),
                None => {
                    let fields = fields(line);
                    if !fields.is_empty() && !kenken::is_comment(&fields) {
                        self.waiting.push((line_no, line.to_string()));
                    }
                    return;
                }
            }
        }
        let reader = self.reader.as_mut().expect("started");
        for (line_no, line) in self.waiting.drain(..) {
            reader.line(line_no, &line, out);
        }
        reader.line(line_no, line, out);
    }

    fn finish(&mut self, out: &mut dyn FnMut(Item)) {
        if let Some(reader) = self.reader.as_mut() {
            reader.finish(out);
        }
    }

    fn held(&self) -> usize {
        self.waiting.iter().map(|(_, line)| line.len()).sum::<usize>() + self.reader.as_ref().map_or(0, |r| r.held())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines of puzzles, each read as soon as its line is pushed.
    fn read(parser: &mut Parser, lines: &[&str]) -> Vec<Result<usize, (usize, usize)>> {
        let mut found = Vec::new();
        for line in lines {
            parser.push(line);
            found.extend(parser.by_ref().map(|item| item.map(|p| p.line).map_err(|e| (e.line, e.column))));
        }
        found
    }

    #[test]
    fn a_long_block_of_sudoku_lines_is_read_as_it_comes_in_flat_memory() {
        let mut parser = Parser::new("t", ParseOptions::default());
        let line = "1..............2";
        let mut ready_after = Vec::new();
        for i in 1..=100_000 {
            parser.push(line);
            if parser.by_ref().count() > 0 {
                ready_after.push(i);
            }
            assert!(parser.held() <= 26 * line.len());
        }
        // The first 26 lines wait to show they are not a grid; then each
        // line is a puzzle at once.
        assert_eq!(ready_after.len(), 100_000 - 25);
        assert_eq!((ready_after[0], ready_after[1]), (26, 27));
        assert_eq!(parser.held(), 0);
    }

    #[test]
    fn a_kenken_puzzle_is_ready_at_the_next_size_line_and_errors_skip_to_it() {
        let mut parser = Parser::new("t", ParseOptions::default());
        let lines = ["# note", "# 2", "+ 3 A1 A2", "# 2", "+ 3 A1 Z9", "+ 3 B1 B2", "# 2", "! 1 A1"];
        assert_eq!(read(&mut parser, &lines), [Ok(2), Err((5, 8))]);
        assert!(parser.held() > 0);
        parser.finish();
        assert_eq!(parser.map(|p| p.unwrap().line).collect::<Vec<_>>(), [7]);
    }

    #[test]
    fn sudoku_reads_on_after_a_bad_line_or_grid() {
        let mut parser = Parser::new("t", ParseOptions::default());
        let grid = ["1 . . .", ". . x .", ". . . .", ". . . 1", ""];
        let lines = ["1..x............", "..1.............", "", "1 . . .", ""];
        let found = read(&mut parser, &[&grid[..], &lines[..]].concat());
        assert_eq!(found, [Err((2, 5)), Err((6, 4)), Ok(7), Err((9, 1))]);
    }

    #[test]
    fn the_first_meaningful_line_decides_and_the_lines_before_it_are_read_by_that_format() {
        let mut parser = Parser::new("t", ParseOptions::default());
        assert_eq!(read(&mut parser, &["\u{feff}", "# 4x", "# hello"]), []);
        assert_eq!(parser.found_format(), None);
        assert_eq!(read(&mut parser, &["+ 3 A1 A2"]), [Err((2, 3))]);
        assert_eq!(parser.found_format(), Some(Format::KenKen));
        let mut parser = Parser::new("t", ParseOptions::default());
        parser.finish();
        assert!(matches!(parser.next(), Some(Err(e)) if e.kind == ParseErrorKind::Empty));
    }
}
