//! Text from outside (a solver, a checker, a file name, a web page) made harmless before it
//! reaches a terminal: every stage that shows such text goes through [`tame`].

use std::fmt::Write;

/// Text from a solver, a checker or a file name made harmless for a terminal: every control
/// character but newline and tab is shown as `\xNN` (escape codes could clear the screen and
/// print a fake "all passed"; a stray newline could forge a table row).
pub fn tame(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' | '\t' => out.push(c),
            c if c.is_control() => {
                let _ = write!(out, "\\x{:02X}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}
