//! Shortens the names the solver file defines: functions, types, constants, fields,
//! variants, methods and local variables get one- or two-letter names, the most used the
//! shortest.
//!
//! Names are mapped by spelling, the same everywhere, token by token (macro arguments and
//! struct shorthand included), which keeps every binding as it was, provided that no
//! occurrence of a renamed spelling means something the file does not define. So a spelling
//! is kept whenever it also appears as something foreign: after `::` behind a path that is
//! not the file's own (`Vec::new`), as a method called on what may be a std type (`.len()`,
//! or one of [`STD_NAMES`] that the file also defines), as a trait's method, inside an
//! attribute or a `use` of std, or named by a format string (`{found}`). Fresh names are
//! spellings the file never uses, capitalised as the old name was, so no naming lint fires.
//! The tests compile every tailored file and compare its answers with the full file's, which
//! is what catches a std method added to the file under a name it also defines: add it here.

use proc_macro2::{Delimiter, Group, Ident, Literal, TokenStream, TokenTree};
use std::collections::{BTreeMap, BTreeSet};
use syn::visit::{self, Visit};

/// Names of std that the solver file may also define: a call `.next()` may be either, and
/// so may a bare `drop(x)` where a local is named `drop`; they keep their spelling.
pub const STD_NAMES: [&str; 27] = [
    "new", "next", "peek", "count", "position", "len", "is_empty", "get", "first", "last", "push", "pop", "insert",
    "remove", "clear", "contains", "find", "fill", "swap", "write", "read", "flush", "solve", "empty", "drop", "split",
    "neg",
];

/// Macros whose string literals are format strings: a `{name}` there is renamed with the
/// variable.
const FORMAT_MACROS: [&str; 9] =
    ["format", "write", "writeln", "print", "println", "eprint", "eprintln", "panic", "assert"];

/// Whether the group at `k` is the arguments of a format macro (`format!(...)`).
fn format_call(tokens: &[TokenTree], k: usize) -> bool {
    let bang = k.checked_sub(1).is_some_and(|j| matches!(&tokens[j], TokenTree::Punct(p) if p.as_char() == '!'));
    let name = k.checked_sub(2).and_then(|j| match &tokens[j] {
        TokenTree::Ident(i) => Some(i.to_string()),
        _ => None,
    });
    bang && name.is_some_and(|n| FORMAT_MACROS.contains(&n.as_str()))
}

const KEYWORDS: [&str; 51] = [
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for", "if", "impl", "in",
    "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "self", "Self", "static", "struct", "super",
    "trait", "true", "type", "unsafe", "use", "where", "while", "async", "await", "dyn", "abstract", "become", "box",
    "do", "final", "macro", "override", "priv", "typeof", "unsized", "virtual", "yield", "try",
];

/// `tokens` with the file's own names shortened; `file` is the same code, parsed.
pub fn apply(file: &syn::File, tokens: TokenStream) -> TokenStream {
    let mut defs = Defs::default();
    defs.visit_file(file);
    let mut scan = Scan { defs: &defs, foreign: BTreeSet::new(), used: BTreeSet::new(), counts: BTreeMap::new() };
    scan.stream(tokens.clone(), false, false);
    let map = scan.plan();
    rewrite(tokens, &map, false)
}

/// What the file defines, by role.
#[derive(Default)]
struct Defs {
    /// Everything it defines, whatever the role.
    all: BTreeSet<String>,
    /// Types, modules and enums: a path behind one of them is the file's own.
    paths: BTreeSet<String>,
    /// Methods and associated items of its inherent impls.
    methods: BTreeSet<String>,
    fields: BTreeSet<String>,
    /// Members of trait impls: the trait's names, never the file's.
    trait_members: BTreeSet<String>,
}

impl<'ast> Visit<'ast> for Defs {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let (name, path) = match item {
            syn::Item::Fn(i) => (Some(&i.sig.ident), false),
            syn::Item::Const(i) => (Some(&i.ident), false),
            syn::Item::Static(i) => (Some(&i.ident), false),
            syn::Item::Struct(i) => (Some(&i.ident), true),
            syn::Item::Enum(i) => (Some(&i.ident), true),
            syn::Item::Type(i) => (Some(&i.ident), true),
            syn::Item::Mod(i) => {
                self.paths.insert(i.ident.to_string());
                (None, false)
            }
            _ => (None, false),
        };
        if let Some(name) = name {
            self.all.insert(name.to_string());
            if path {
                self.paths.insert(name.to_string());
            }
        }
        visit::visit_item(self, item);
    }

    fn visit_item_impl(&mut self, i: &'ast syn::ItemImpl) {
        for member in &i.items {
            let name = match member {
                syn::ImplItem::Fn(f) => &f.sig.ident,
                syn::ImplItem::Const(c) => &c.ident,
                _ => continue,
            };
            if i.trait_.is_some() {
                self.trait_members.insert(name.to_string());
            } else {
                self.methods.insert(name.to_string());
                self.all.insert(name.to_string());
            }
        }
        visit::visit_item_impl(self, i);
    }

    fn visit_field(&mut self, f: &'ast syn::Field) {
        if let Some(name) = &f.ident {
            self.fields.insert(name.to_string());
            self.all.insert(name.to_string());
        }
        visit::visit_field(self, f);
    }

    fn visit_variant(&mut self, v: &'ast syn::Variant) {
        self.all.insert(v.ident.to_string());
        visit::visit_variant(self, v);
    }

    fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
        // A capitalised name in a pattern is a variant or constant (`None`), not a binding.
        let name = p.ident.to_string();
        if !name.starts_with(|c: char| c.is_ascii_uppercase()) {
            self.all.insert(name);
        }
        visit::visit_pat_ident(self, p);
    }
}

/// One pass over the tokens: which spellings are foreign somewhere, which are used at all,
/// and how often each of the file's own appears.
struct Scan<'a> {
    defs: &'a Defs,
    foreign: BTreeSet<String>,
    used: BTreeSet<String>,
    counts: BTreeMap<String, usize>,
}

impl Scan<'_> {
    fn stream(&mut self, tokens: TokenStream, all_foreign: bool, format: bool) {
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        for (k, tt) in tokens.iter().enumerate() {
            let punct = |at: Option<usize>, c: char| {
                at.and_then(|i| tokens.get(i)).is_some_and(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == c))
            };
            match tt {
                TokenTree::Group(g) => {
                    // An attribute's words (`derive`, `inline`, `target_arch`) are never ours.
                    let attribute = g.delimiter() == Delimiter::Bracket
                        && (punct(k.checked_sub(1), '#')
                            || (punct(k.checked_sub(1), '!') && punct(k.checked_sub(2), '#')));
                    // `use std::...` names std's items.
                    let std_use = matches!(tokens.get(k.wrapping_sub(1)), Some(TokenTree::Ident(i)) if i == "use");
                    self.stream(g.stream(), all_foreign || attribute || std_use, format_call(&tokens, k));
                }
                // A format string's names are renamed with their variables; any other
                // literal's `{name}` is text, and keeps that spelling out of the plan.
                TokenTree::Literal(l) if !format => {
                    for name in format_names(&l.to_string()) {
                        self.foreign.insert(name);
                    }
                }
                TokenTree::Literal(_) => {}
                TokenTree::Punct(_) => {}
                TokenTree::Ident(i) => {
                    let name = i.to_string();
                    self.used.insert(name.clone());
                    *self.counts.entry(name.clone()).or_default() += 1;
                    let prev_ident = |back: usize| match k.checked_sub(back).and_then(|j| tokens.get(j)) {
                        Some(TokenTree::Ident(p)) => Some(p.to_string()),
                        _ => None,
                    };
                    let after_path = punct(k.checked_sub(1), ':') && punct(k.checked_sub(2), ':');
                    let behind = prev_ident(3);
                    let foreign_path = after_path
                        && behind.as_deref().map_or(true, |b| {
                            !self.defs.paths.contains(b) && !["Self", "self", "super", "crate"].contains(&b)
                        });
                    let member = punct(k.checked_sub(1), '.');
                    let called = matches!(tokens.get(k + 1), Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis)
                        || (punct(Some(k + 1), ':') && punct(Some(k + 2), ':'));
                    let foreign_member = member
                        && if called { !self.defs.methods.contains(&name) } else { !self.defs.fields.contains(&name) };
                    let is_macro = punct(Some(k + 1), '!') && !punct(Some(k + 2), '=');
                    let is_std_use =
                        matches!(prev_ident(1).as_deref(), Some("use")) && (name == "std" || name == "core");
                    if all_foreign
                        || foreign_path
                        || foreign_member
                        || is_macro
                        || is_std_use
                        || self.defs.trait_members.contains(&name)
                        || STD_NAMES.contains(&name.as_str())
                        || name == "main"
                    {
                        self.foreign.insert(name);
                    }
                }
            }
        }
    }

    /// The new spelling of each name that gets one.
    fn plan(&self) -> BTreeMap<String, String> {
        let mut names: Vec<(&String, usize)> = self
            .counts
            .iter()
            .filter(|(n, _)| self.defs.all.contains(*n) && !self.foreign.contains(*n) && !n.starts_with("r#"))
            .map(|(n, &c)| (n, c))
            .collect();
        // The most bytes saved first.
        names.sort_by_key(|(n, c)| (std::cmp::Reverse(n.len() * c), (*n).clone()));
        let mut fresh = Fresh { used: &self.used, next: [0, 0] };
        let mut map = BTreeMap::new();
        for (name, _) in names {
            let upper = name.starts_with(|c: char| c.is_ascii_uppercase());
            let short = fresh.take(upper);
            if short.len() < name.len() {
                map.insert(name.clone(), short);
            }
        }
        map
    }
}

/// Spellings no token of the file has, in order of length: `a`..`z`, then `aa`...
struct Fresh<'a> {
    used: &'a BTreeSet<String>,
    /// How far each case's sequence has gone.
    next: [usize; 2],
}

impl Fresh<'_> {
    fn take(&mut self, upper: bool) -> String {
        let letters: Vec<char> = if upper { ('A'..='Z').collect() } else { ('a'..='z').collect() };
        let tail: Vec<char> = letters.iter().copied().chain('0'..='9').collect();
        loop {
            let i = self.next[usize::from(upper)];
            self.next[usize::from(upper)] += 1;
            let name = if i < letters.len() {
                letters[i].to_string()
            } else {
                let j = i - letters.len();
                format!("{}{}", letters[(j / tail.len()) % letters.len()], tail[j % tail.len()])
            };
            if !self.used.contains(&name) && !KEYWORDS.contains(&name.as_str()) {
                return name;
            }
        }
    }
}

/// The names a format string interpolates: `{name}`, `{name:?}`; `{{` is a brace.
fn format_names(literal: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = literal;
    while let Some(i) = rest.find('{') {
        rest = &rest[i + 1..];
        if let Some(after) = rest.strip_prefix('{') {
            rest = after;
            continue;
        }
        let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        if !name.is_empty() && !name.starts_with(|c: char| c.is_ascii_digit()) {
            out.push(name);
        }
    }
    out
}

/// `tokens` with every ident in `map` renamed, and string literals written without their
/// line continuations.
fn rewrite(tokens: TokenStream, map: &BTreeMap<String, String>, format: bool) -> TokenStream {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let calls: Vec<bool> = (0..tokens.len()).map(|k| format_call(&tokens, k)).collect();
    tokens
        .into_iter()
        .zip(calls)
        .map(|(tt, call)| match tt {
            TokenTree::Group(g) => {
                let mut new = Group::new(g.delimiter(), rewrite(g.stream(), map, call));
                new.set_span(g.span());
                TokenTree::Group(new)
            }
            TokenTree::Ident(i) => match map.get(&i.to_string()) {
                Some(short) => TokenTree::Ident(Ident::new(short, i.span())),
                None => TokenTree::Ident(i),
            },
            TokenTree::Literal(l) if format => TokenTree::Literal(rename_format(l, map)),
            TokenTree::Literal(l) => TokenTree::Literal(compact(l)),
            other => other,
        })
        .collect()
}

/// A string literal with `\` line continuations (and the indentation after them) is
/// written again from its value.
fn compact(l: Literal) -> Literal {
    let text = l.to_string();
    if !text.starts_with('"') || !text.contains("\\\n") {
        return l;
    }
    match syn::parse_str::<syn::LitStr>(&text) {
        Ok(s) => Literal::string(&s.value()),
        Err(_) => l,
    }
}

/// A format string with its `{name}`s renamed (and written compactly).
fn rename_format(l: Literal, map: &BTreeMap<String, String>) -> Literal {
    let Ok(s) = syn::parse_str::<syn::LitStr>(&l.to_string()) else {
        return l;
    };
    let value = s.value();
    if format_names(&format!("{value:?}")).iter().all(|n| !map.contains_key(n)) {
        return compact(l);
    }
    let mut out = String::new();
    let mut rest = value.as_str();
    while let Some(i) = rest.find('{') {
        out.push_str(&rest[..=i]);
        rest = &rest[i + 1..];
        if let Some(after) = rest.strip_prefix('{') {
            out.push('{');
            rest = after;
            continue;
        }
        let len = rest.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(rest.len());
        match map.get(&rest[..len]) {
            Some(short) => out.push_str(short),
            None => out.push_str(&rest[..len]),
        }
        rest = &rest[len..];
    }
    out.push_str(rest);
    Literal::string(&out)
}
