//! Splitting a line into fields, keeping their columns for error messages.

/// The fields of a line split at spaces and tabs, each with its 1-based
/// column in characters.
pub(super) fn fields(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None;
    let mut column = 0;
    for (byte, ch) in line.char_indices() {
        column += 1;
        let blank = ch == ' ' || ch == '\t' || ch == '\r';
        match (blank, start) {
            (true, Some((b, c))) => {
                out.push((c, &line[b..byte]));
                start = None;
            }
            (false, None) => start = Some((byte, column)),
            _ => {}
        }
    }
    if let Some((b, c)) = start {
        out.push((c, &line[b..]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_carry_columns() {
        assert_eq!(fields(" +\t3  A1"), [(2, "+"), (4, "3"), (7, "A1")]);
        assert_eq!(fields("÷ 2 B1"), [(1, "÷"), (3, "2"), (5, "B1")]);
    }
}
