//! Word-level tokenizers: [`WordTokenizer`] (Unicode-aware, splits punctuation from words)
//! and [`WhitespaceTokenizer`] (splits on whitespace only, like word2vec.c and gensim's
//! `LineSentence`, so a pre-tokenized corpus is used exactly as it is).
//!
//! Both treat each line as a sentence; `\r\n` line ends are accepted.

use super::{TokenSink, Tokenizer};

/// Splits each line on whitespace and nothing else.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WhitespaceTokenizer;

impl Tokenizer for WhitespaceTokenizer {
    fn tokenize(&self, text: &str, sink: &mut dyn TokenSink) {
        for line in text.lines() {
            line.split_whitespace().for_each(|t| sink.token(t));
            sink.end_sentence();
        }
    }

    fn describe(&self) -> String {
        "whitespace".into()
    }
}

/// Splits each line into words and punctuation.
///
/// A word is a maximal run of letters, digits, `_` and combining marks, where a single
/// apostrophe or hyphen between two such characters stays inside the word (`don't`,
/// `well-known`). Every other non-space character is punctuation: one token per character
/// when `keep_punctuation` is set, dropped otherwise. So `night,` and `night.` are both `night`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WordTokenizer {
    /// Lowercase every word (Unicode-aware: `ÉTÉ` becomes `été`).
    pub lowercase: bool,
    /// Emit punctuation characters as tokens of their own instead of dropping them.
    pub keep_punctuation: bool,
}

impl Tokenizer for WordTokenizer {
    fn tokenize(&self, text: &str, sink: &mut dyn TokenSink) {
        let mut lowered = String::new();
        let mut emit = |token: &str, sink: &mut dyn TokenSink| {
            if self.lowercase && token.chars().any(|c| !c.is_lowercase()) {
                lowered.clear();
                token.chars().flat_map(char::to_lowercase).for_each(|c| lowered.push(c));
                sink.token(&lowered);
            } else {
                sink.token(token);
            }
        };
        for line in text.lines() {
            let mut chars = line.char_indices().peekable();
            while let Some((start, c)) = chars.next() {
                if is_word_char(c) {
                    let mut end = start + c.len_utf8();
                    loop {
                        match chars.peek() {
                            Some(&(i, n)) if is_word_char(n) => {
                                end = i + n.len_utf8();
                                chars.next();
                            }
                            Some(&(i, n)) if is_joiner(n) => {
                                // Keep the joiner only when a word character follows it.
                                let after = line[i + n.len_utf8()..].chars().next();
                                if !after.is_some_and(is_word_char) {
                                    break;
                                }
                                end = i + n.len_utf8();
                                chars.next();
                            }
                            _ => break,
                        }
                    }
                    emit(&line[start..end], sink);
                } else if !c.is_whitespace() && self.keep_punctuation {
                    sink.token(&line[start..start + c.len_utf8()]);
                }
            }
            sink.end_sentence();
        }
    }

    fn describe(&self) -> String {
        format!("word(lowercase={},punctuation={})", self.lowercase, self.keep_punctuation)
    }
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || is_combining_mark(c)
}

fn is_joiner(c: char) -> bool {
    matches!(c, '\'' | '\u{2019}' | '-' | '\u{2010}')
}

/// The main blocks of combining marks; std has no general-category table, and these are
/// the marks that decomposed (NFD) Latin, Greek, Cyrillic and the Indic scripts use.
fn is_combining_mark(c: char) -> bool {
    matches!(c,
        '\u{0300}'..='\u{036F}' | '\u{0483}'..='\u{0489}' | '\u{0591}'..='\u{05BD}'
        | '\u{0610}'..='\u{061A}' | '\u{064B}'..='\u{065F}' | '\u{0900}'..='\u{0903}'
        | '\u{093A}'..='\u{094F}' | '\u{1AB0}'..='\u{1AFF}' | '\u{1DC0}'..='\u{1DFF}'
        | '\u{20D0}'..='\u{20FF}' | '\u{FE20}'..='\u{FE2F}')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fuzz::random_unicode;
    use crate::text::Sentences;
    use rand::rngs::Xoshiro256PlusPlus;
    use rand::{RngExt, SeedableRng};

    fn check(tokenizer: &dyn Tokenizer, input: &str, expected: &[&[&str]]) {
        let got = Sentences::of(input, tokenizer);
        let expected: Vec<Vec<String>> =
            expected.iter().map(|s| s.iter().map(|t| t.to_string()).collect()).collect();
        assert_eq!(got, expected, "input {input:?}");
    }

    #[test]
    fn word_tokenizer_splits_punctuation_from_words() {
        let plain = WordTokenizer::default();
        let cases: &[(&str, &[&[&str]])] = &[
            ("In the night, and the night.", &[&["In", "the", "night", "and", "the", "night"]]),
            ("don't stop well-known 'quoted'", &[&["don't", "stop", "well-known", "quoted"]]),
            ("trailing- -leading end'", &[&["trailing", "leading", "end"]]),
            ("Café naïve Ελλάδα москва 東京", &[&["Café", "naïve", "Ελλάδα", "москва", "東京"]]),
            // "e" followed by a combining acute accent stays one word.
            ("cafe\u{301} ok", &[&["cafe\u{301}", "ok"]]),
            ("verse 3:16 said_so", &[&["verse", "3", "16", "said_so"]]),
            ("first line\r\n\r\n  \nsecond", &[&["first", "line"], &["second"]]),
            ("", &[]),
            ("!!! ... ,", &[]),
        ];
        for (input, expected) in cases {
            check(&plain, input, expected);
        }
    }

    #[test]
    fn word_tokenizer_options() {
        let lower = WordTokenizer { lowercase: true, keep_punctuation: false };
        check(&lower, "The LORD said, ÉTÉ", &[&["the", "lord", "said", "été"]]);
        let punct = WordTokenizer { lowercase: false, keep_punctuation: true };
        check(&punct, "Yes, (no).", &[&["Yes", ",", "(", "no", ")", "."]]);
        assert_ne!(lower.describe(), punct.describe());
    }

    /// Checks every token as it arrives.
    struct CheckTokens {
        tokens: usize,
    }

    impl TokenSink for CheckTokens {
        fn token(&mut self, token: &str) {
            assert!(!token.is_empty());
            assert!(!token.contains(char::is_whitespace), "{token:?}");
            self.tokens += 1;
        }

        fn end_sentence(&mut self) {}
    }

    #[test]
    fn random_text_never_makes_an_empty_token_or_a_panic() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
        let mut tokenizers: Vec<Box<dyn Tokenizer>> = vec![Box::new(WhitespaceTokenizer)];
        for lowercase in [false, true] {
            for keep_punctuation in [false, true] {
                tokenizers.push(Box::new(WordTokenizer { lowercase, keep_punctuation }));
            }
        }
        let mut tokens = 0;
        for _ in 0..2_000 {
            let len = rng.random_range(0..120);
            let text = random_unicode(&mut rng, len);
            for tokenizer in &tokenizers {
                let mut sink = CheckTokens { tokens: 0 };
                tokenizer.tokenize(&text, &mut sink);
                tokens += sink.tokens;
            }
        }
        assert!(tokens > 100_000, "{tokens}");
    }

    #[test]
    fn whitespace_tokenizer_keeps_tokens_as_they_are() {
        check(
            &WhitespaceTokenizer,
            "In the night,\tand\n\nthe night.\r\n",
            &[&["In", "the", "night,", "and"], &["the", "night."]],
        );
    }
}
