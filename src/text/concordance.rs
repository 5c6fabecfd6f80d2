//! Lines of a text where a token occurs, for the page's view of a selected token.

/// Bytes of a line kept before a token's first occurrence in it, and after its end; a
/// longer line is cut there (at character boundaries) and `…` marks each cut.
pub const CONTEXT_BEFORE: usize = 120;
pub const CONTEXT_AFTER: usize = 240;

/// Up to `max_lines` lines of `text` that hold `token` as a substring (a token ending in a
/// newline matches at a line's end), each trimmed of its line break and cut to a window
/// around the token's first occurrence in it. Without the cut, one line of a 50 MB text
/// without line breaks crossed to the page whole, and held the token millions of times.
pub fn concordance(text: &str, token: &str, max_lines: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut from = 0;
    while lines.len() < max_lines && !token.is_empty() {
        let Some(found) = text[from..].find(token) else { break };
        let at = from + found;
        let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
        let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
        let line = text[start..end].trim_end_matches('\r');
        lines.push(window(line, at - start, token.trim_end_matches(['\r', '\n']).len()));
        // Continue after this line, so each line is listed once.
        from = (end + 1).min(text.len());
        if end >= text.len() {
            break;
        }
    }
    lines
}

/// `line` cut to `CONTEXT_BEFORE` bytes before `at` and `CONTEXT_AFTER` after the token's
/// `length` bytes there, each cut marked with `…`.
fn window(line: &str, at: usize, length: usize) -> String {
    let floor = |mut i: usize| {
        while !line.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let ceil = |mut i: usize| {
        while i < line.len() && !line.is_char_boundary(i) {
            i += 1;
        }
        i
    };
    let at = at.min(line.len());
    let start = floor(at.saturating_sub(CONTEXT_BEFORE));
    let end = ceil((at + length + CONTEXT_AFTER).min(line.len()));
    let mut cut = String::with_capacity(end - start + 6);
    if start > 0 {
        cut.push('…');
    }
    cut.push_str(&line[start..end]);
    if end < line.len() {
        cut.push('…');
    }
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_holding_the_token_once_each() {
        let text = "the king sat\nno one\nking and king\r\nend king\n";
        assert_eq!(concordance(text, "king", 5), ["the king sat", "king and king", "end king"]);
        assert_eq!(concordance(text, "king", 1), ["the king sat"]);
        assert_eq!(concordance(text, "sat\n", 5), ["the king sat"], "a token ending a line");
        assert!(concordance(text, "queen", 5).is_empty());
        assert!(concordance(text, "", 5).is_empty());
    }

    #[test]
    fn a_long_line_is_cut_around_the_first_occurrence() {
        // One line of 5 MB, the token everywhere: a short window comes back.
        let line = "river stone ".repeat(400_000);
        let lines = concordance(&line, "stone", 5);
        assert_eq!(lines.len(), 1);
        assert!(lines[0].len() <= CONTEXT_BEFORE + CONTEXT_AFTER + 5 + 3, "{} bytes", lines[0].len());
        assert!(lines[0].starts_with("river stone") && lines[0].ends_with('…'));
        // Deep in a line, both ends are cut, at character boundaries.
        let text = format!("{}needle{}", "é".repeat(1000), "ü".repeat(1000));
        let cut = &concordance(&text, "needle", 1)[0];
        assert!(cut.starts_with('…') && cut.ends_with('…') && cut.contains("needle"));
        assert!(cut.len() <= CONTEXT_BEFORE + CONTEXT_AFTER + 6 + 6 + 2);
    }
}
