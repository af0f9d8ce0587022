//! Telling the text formats apart.

use super::fields::fields;
use super::options::Format;

/// Guesses the format from the first meaningful line: a `# N` size line or
/// a cage line means KenKen, an f-puzzles or SudokuPad link (or payload, or
/// JSON) f-puzzles, a Keen game ID (`6dn:…,…`) Keen, 81 characters of sums
/// and arrows a killer string, anything else Sudoku (whose `#` lines are
/// comments). `None` for a text with no meaningful
/// line.
pub fn detect(text: &str) -> Option<Format> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    text.lines().find_map(detect_line)
}

/// The format one line shows, if it is meaningful (not blank, not a `#`
/// comment).
pub(super) fn detect_line(line: &str) -> Option<Format> {
    let fields = fields(line);
    let &(_, first) = fields.first()?;
    if let Some(rest) = first.strip_prefix('#') {
        // `# N` or `#N`, perhaps with `boxes RxC` or `killer` after it.
        let words: Vec<&str> =
            [rest].into_iter().filter(|r| !r.is_empty()).chain(fields[1..].iter().map(|f| f.1)).collect();
        let is_size = words.first().is_some_and(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()));
        let mut rest = words.get(1..).unwrap_or_default();
        while let Some(after) = match rest {
            ["killer", after @ ..] | ["boxes", _, after @ ..] => Some(after),
            _ => None,
        } {
            rest = after;
        }
        return (is_size && rest.is_empty()).then_some(Format::KenKen);
    }
    let op = |field: Option<&(usize, &str)>| field.is_some_and(|f| crate::puzzle::Op::from_symbol(f.1).is_some());
    let marked = ["distinct", "overlap"].contains(&first) && fields.len() > 1;
    if (op(Some(&fields[0])) || marked) && fields.len() > 1 {
        return Some(Format::KenKen);
    }
    if super::fpuzzles::looks_like(first) {
        return Some(Format::FPuzzles);
    }
    if super::killer::looks_like(first) {
        return Some(Format::Killer);
    }
    if super::keen::looks_like_id(first) {
        return Some(Format::Keen);
    }
    Some(Format::Sudoku)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detection() {
        assert_eq!(detect("# 4\n+ 3 A1 A2"), Some(Format::KenKen));
        assert_eq!(detect("\n#5\n"), Some(Format::KenKen));
        assert_eq!(detect("# 9 boxes 3x3\n+ 3 A1 A2"), Some(Format::KenKen));
        assert_eq!(detect("+ 3 A1 A2"), Some(Format::KenKen));
        assert_eq!(detect("# a comment\n1...\n"), Some(Format::Sudoku));
        assert_eq!(detect("....\n"), Some(Format::Sudoku));
        assert_eq!(detect("5 3 . | . 7 ."), Some(Format::Sudoku));
        assert_eq!(detect("# only a comment\n\n"), None);
        // A byte-order mark, as some editors write, changes nothing.
        assert_eq!(detect("\u{feff}# 4\n+ 3 A1 A2"), Some(Format::KenKen));
        assert_eq!(detect("\u{feff}1...\n"), Some(Format::Sudoku));
        assert_eq!(detect("# Keen\n4de:a3_3a__a__a_ba,d2a9s1m4m48d2s2\n"), Some(Format::Keen));
        assert_eq!(detect("9:_,a1\n"), Some(Format::Keen));
        // A Keen ID gone wrong is still read as one, to be told what is wrong.
        assert_eq!(detect("4:garbage\n"), Some(Format::Keen));
        assert_eq!(detect("1:1\n"), Some(Format::Sudoku));
        // Sudoku lines may end in a count after a colon.
        assert_eq!(detect("1234........:388\n"), Some(Format::Sudoku));
        assert_eq!(detect("# 9 boxes 3x3 killer\n+ 3 A1 A2"), Some(Format::KenKen));
        assert_eq!(detect("# 4 killer\n"), Some(Format::KenKen));
        assert_eq!(detect("overlap + 3 A1 B2"), Some(Format::KenKen));
        let killer = "G<<L<K<L<^G>^>^E^^>^IJ<G^<G^>^^I^<>^HC<C^<B^N^^G^<>^>^^E^<DF<^PG^<>^^J<^^<H<<>^>^";
        assert_eq!(detect(&format!("# forum\n{killer} some name\n")), Some(Format::Killer));
        assert_eq!(detect(&".".repeat(81)), Some(Format::Sudoku));
    }
}
