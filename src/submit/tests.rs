//! Each pass of the derivation on small sources, where what it must keep and drop is plain.

use super::*;

fn tailored(source: &str, without: &[&str]) -> String {
    tailor(source, without, "test").unwrap()
}

/// Builds `source` with rustc and runs it; its stdout.
fn run(source: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let (src, exe) = (dir.path().join("t.rs"), dir.path().join("t"));
    std::fs::write(&src, source).unwrap();
    let built = std::process::Command::new("rustc")
        .args(["--edition", "2021", "-D", "warnings", "-o"])
        .arg(&exe)
        .arg(&src)
        .output()
        .unwrap();
    assert!(built.status.success(), "{}\n{source}", String::from_utf8_lossy(&built.stderr));
    String::from_utf8(std::process::Command::new(&exe).output().unwrap().stdout).unwrap()
}

#[test]
fn a_part_left_out_goes_wherever_its_cfg_stands_and_other_cfgs_stay() {
    let source = r#"
        fn main() {
            #[cfg(not(without = "cli"))]
            println!("x");
            let v = match 1 {
                #[cfg(not(without = "cli"))]
                1 => "one",
                _ => "other",
            };
            println!("{v}");
            #[cfg(target_os = "linux")]
            println!("linux");
        }
        #[cfg(not(without = "cli"))]
        fn only_with_x() {}
    "#;
    let with = tailored(source, &[]);
    let without = tailored(source, &["cli"]);
    assert!(with.contains("\"one\"") && !without.contains("\"one\""));
    assert!(!without.contains("println!(\"x\")") && with.contains("println!(\"x\")"));
    assert!(without.contains("target_os"), "a foreign cfg is left for the compiler");
    assert!(!with.contains("without"), "a cfg that holds is dropped");
    assert!(!with.contains("only_with_x"), "main never reaches it");
    assert_eq!(run(&without), "other\nlinux\n");
}

#[test]
fn a_cfg_mixing_without_and_other_conditions_is_refused() {
    let source = "fn main() {}\n#[cfg(all(without = \"cli\", unix))]\nfn f() {}\n";
    assert!(tailor(source, &["cli"], "t").unwrap_err().contains("mixes"));
    assert!(tailor("fn main() {}", &["hexagon"], "t").unwrap_err().contains("unknown part"));
}

#[test]
fn pruning_keeps_what_main_reaches_through_calls_types_trait_impls_and_format_strings() {
    let source = r#"
        const WIDTH: usize = 7;
        const UNUSED: usize = 1;
        struct Wrapper(u8);
        impl std::fmt::Display for Wrapper {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { write!(f, "<{}>", self.0) }
        }
        impl Wrapper {
            fn used(&self) -> u8 { self.0 }
            fn unused_method(&self) -> u8 { 0 }
        }
        fn helper() -> Wrapper { Wrapper(3) }
        fn never_called() {}
        fn main() {
            let w = helper();
            println!("{w} {} {WIDTH}", w.used());
        }
    "#;
    let out = tailored(source, &[]);
    for gone in ["UNUSED", "never_called", "unused_method"] {
        assert!(!out.contains(gone), "{gone} is left: {out}");
    }
    assert_eq!(run(&out), "<3> 3 7\n");
}

#[test]
fn renaming_keeps_std_names_bindings_shorthand_and_format_strings() {
    let source = r#"
        struct Counter { first: Vec<u32>, total_count: usize }
        impl Counter {
            fn next_value(&mut self) -> usize { self.total_count += self.first.len(); self.total_count }
        }
        fn main() {
            let first = vec![4u32, 5];
            let total_count = 1;
            let mut counter = Counter { first, total_count };
            let longer_name = counter.next_value();
            let head = counter.first.first().copied().unwrap_or(0);
            println!("{longer_name} {head:?} {}", counter.total_count);
        }
    "#;
    let out = tailored(source, &[]);
    assert!(!out.contains("longer_name") && !out.contains("next_value") && !out.contains("total_count"), "{out}");
    assert!(out.contains(".first()") && out.contains(".len()"), "std methods keep their names: {out}");
    assert_eq!(run(&out), "3 4 3\n");
}

#[test]
fn the_minified_solver_file_is_the_same_tokens() {
    let file = syn::parse_file(SOLVER_SOURCE).unwrap();
    let mut tokens = file.to_token_stream();
    // Doc comments are the one thing left out.
    tokens = strip_docs(tokens);
    let again: proc_macro2::TokenStream = minify::print(file.to_token_stream()).parse().unwrap();
    assert_eq!(canonical(again).to_string(), canonical(tokens).to_string());
}

/// `tokens` with a mark's spacing kept only where it makes a token with the next mark (`::`,
/// `->`, `..`): whether `&` touches a lifetime's `'` or `,` touches `&` is how the text was
/// laid out, not which tokens it holds. Two marks that would make another token together
/// keep their spacing, so a printer that joined them would show here.
fn canonical(tokens: proc_macro2::TokenStream) -> proc_macro2::TokenStream {
    use proc_macro2::{Group, Punct, Spacing, TokenTree};
    let all: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = Vec::new();
    for (k, tt) in all.iter().enumerate() {
        out.push(match tt {
            TokenTree::Group(g) => {
                let mut group = Group::new(g.delimiter(), canonical(g.stream()));
                group.set_span(g.span());
                TokenTree::Group(group)
            }
            TokenTree::Punct(p) => {
                let next = match all.get(k + 1) {
                    Some(TokenTree::Punct(q)) => Some(q.as_char()),
                    _ => None,
                };
                let joins = p.spacing() == Spacing::Joint
                    && (p.as_char() == '\'' || next.is_some_and(|n| minify::would_join(p.as_char(), n)));
                TokenTree::Punct(Punct::new(p.as_char(), if joins { Spacing::Joint } else { Spacing::Alone }))
            }
            other => other.clone(),
        });
    }
    out.into_iter().collect()
}

fn strip_docs(tokens: proc_macro2::TokenStream) -> proc_macro2::TokenStream {
    use proc_macro2::TokenTree;
    let all: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = Vec::new();
    let mut k = 0;
    while k < all.len() {
        let doc_at = |i: usize| matches!(all.get(i), Some(TokenTree::Group(g)) if g.stream().into_iter().next().is_some_and(|t| t.to_string() == "doc"));
        if matches!(&all[k], TokenTree::Punct(p) if p.as_char() == '#') {
            let bang = matches!(all.get(k + 1), Some(TokenTree::Punct(p)) if p.as_char() == '!');
            let at = k + 1 + usize::from(bang);
            if doc_at(at) {
                k = at + 1;
                continue;
            }
        }
        out.push(match &all[k] {
            TokenTree::Group(g) => TokenTree::Group(proc_macro2::Group::new(g.delimiter(), strip_docs(g.stream()))),
            other => other.clone(),
        });
        k += 1;
    }
    out.into_iter().collect()
}

#[test]
fn a_tailored_file_is_never_in_the_crate_and_leaves_open_what_the_judge_decides() {
    let source = r#"
        #![cfg_attr(not(in_crate), allow(unused_mut))]
        #[cfg(in_crate)]
        fn main() { println!("the crate's"); }
        #[cfg(not(in_crate))]
        fn main() { let mut x = 1; helper(); println!("alone {x}"); x += 0; let _ = x; }
        #[cfg(all(not(in_crate), unix))]
        fn helper() { println!("unix"); }
        #[cfg(all(not(in_crate), not(unix)))]
        fn helper() { println!("elsewhere"); }
    "#;
    let out = tailored(source, &[]);
    assert!(!out.contains("the crate's") && !out.contains("cfg_attr"), "{out}");
    assert!(out.contains("#![allow(unused_mut)]") || out.contains("# ![allow(unused_mut)]"), "{out}");
    // Which of the two helpers is left to the judge's compiler: `unix` is its to decide.
    assert!(out.contains("unix") && out.contains("elsewhere"), "{out}");
    assert_eq!(run(&out), "unix\nalone 1\n");
}
