//! Prints a token stream as compact Rust: no comments or doc comments, one space only
//! where two tokens would otherwise merge, and that space a line break once a line passes
//! 100 bytes (a break where no space is needed would cost a byte; a line runs on to 1000
//! bytes before one is made anyway).

use proc_macro2::{Delimiter, Spacing, TokenStream, TokenTree};

/// The source text of `tokens`, without doc comments.
pub fn print(tokens: TokenStream) -> String {
    let mut out = Printer { text: String::new(), line_start: 0, last: Last::Start, last_char: ' ' };
    out.stream(tokens);
    out.text.push('\n');
    out.text
}

/// What the previous token was, which decides whether the next needs a space.
#[derive(Clone, Copy, PartialEq)]
enum Last {
    Start,
    /// An identifier, keyword or literal: a word the next word would run into.
    Word,
    /// A literal, which a following `.` or identifier could extend (`1.`, `"a"suffix`).
    Literal,
    /// A punctuation mark that stands alone: another mark right after it would join it.
    Alone,
    /// A punctuation mark joined to the next (`=` of `==`, `'` of a lifetime).
    Joint,
    /// An opening or closing delimiter.
    Delimiter,
}

struct Printer {
    text: String,
    line_start: usize,
    last: Last,
    /// The last punctuation mark printed, which decides whether the next one would join it.
    last_char: char,
}

/// Two marks that, printed together, would read as another token (or open a comment), so a
/// space must stay between them; any other pair of marks may touch. Taken wide: `&&`, `||`
/// and `>>` would often parse the same, but the space costs a byte.
pub(super) fn would_join(a: char, b: char) -> bool {
    const JOINED: [&str; 26] = [
        "::", "->", "=>", "==", "!=", "<=", ">=", "&&", "||", "+=", "-=", "*=", "/=", "%=", "^=", "&=", "|=", "<<",
        ">>", "..", ".=", "//", "/*", "*/", "<-", "#!",
    ];
    JOINED.iter().any(|j| j.starts_with(a) && j.ends_with(b))
}

impl Printer {
    fn stream(&mut self, tokens: TokenStream) {
        let mut iter = tokens.into_iter().peekable();
        while let Some(tt) = iter.next() {
            // `#[doc = "..."]` and `#![doc = "..."]`: the doc comments, left out.
            if let TokenTree::Punct(p) = &tt {
                if p.as_char() == '#' {
                    let mut look = iter.clone();
                    let mut next = look.next();
                    if matches!(&next, Some(TokenTree::Punct(q)) if q.as_char() == '!') {
                        next = look.next();
                    }
                    if let Some(TokenTree::Group(g)) = &next {
                        let first = g.stream().into_iter().next();
                        if g.delimiter() == Delimiter::Bracket
                            && matches!(&first, Some(TokenTree::Ident(i)) if i == "doc")
                        {
                            iter = look;
                            continue;
                        }
                    }
                }
            }
            self.token(tt);
        }
    }

    fn token(&mut self, tt: TokenTree) {
        let words = matches!(self.last, Last::Word | Last::Literal);
        match tt {
            TokenTree::Group(g) => {
                let (open, close) = match g.delimiter() {
                    Delimiter::Parenthesis => ('(', ')'),
                    Delimiter::Brace => ('{', '}'),
                    Delimiter::Bracket => ('[', ']'),
                    // An invisible group is its tokens.
                    Delimiter::None => return self.stream(g.stream()),
                };
                self.separate(false);
                self.text.push(open);
                self.last = Last::Delimiter;
                self.stream(g.stream());
                self.text.push(close);
                self.last = Last::Delimiter;
            }
            TokenTree::Ident(i) => {
                self.separate(words);
                self.text.push_str(&i.to_string());
                self.last = Last::Word;
            }
            TokenTree::Literal(l) => {
                self.separate(words);
                self.text.push_str(&l.to_string());
                self.last = Last::Literal;
            }
            TokenTree::Punct(p) => {
                let c = p.as_char();
                let needs = (self.last == Last::Alone && would_join(self.last_char, c))
                    || (self.last == Last::Literal && c == '.')
                    || (self.last == Last::Word && c == '\'');
                self.separate(needs);
                self.text.push(c);
                self.last_char = c;
                self.last = if p.spacing() == Spacing::Joint { Last::Joint } else { Last::Alone };
            }
        }
    }

    /// Separates the next token from the last: a space where they would merge (`needs`),
    /// a line break instead once the line is long; nothing after a joint mark.
    fn separate(&mut self, needs: bool) {
        if matches!(self.last, Last::Joint | Last::Start) {
            return;
        }
        let long = self.text.len() - self.line_start;
        if (needs && long > 100) || long > 1000 {
            self.text.push('\n');
            self.line_start = self.text.len();
        } else if needs {
            self.text.push(' ');
        }
    }
}
