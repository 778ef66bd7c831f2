//! Leaves out every item a tailored file never reaches from `main`: functions, types,
//! constants and methods whose names no kept code mentions. Names are matched as words,
//! whatever they resolve to, so the pass can keep too much but never too little: a name
//! that two items share keeps both. Trait impls stay with their type, since their methods
//! are called without being named (`?`, `{}`).

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use std::collections::{BTreeMap, BTreeSet};
use syn::{ImplItem, Item};

/// Removes from `file` what `main` cannot reach.
pub fn apply(file: &mut syn::File) {
    let mut graph = Graph::default();
    graph.collect(&file.items);
    let live = graph.reach("main");
    let mut removed_mods = BTreeSet::new();
    retain(&mut file.items, &live, &mut removed_mods);
    // A glob import of a module that is gone would not compile.
    file.items.retain(|item| match item {
        Item::Use(u) => !removed_mods.contains(&use_root(&u.tree)),
        _ => true,
    });
}

/// Names and what each definition of a name mentions.
#[derive(Default)]
struct Graph {
    /// For each name, the words of every item or method so named.
    defs: BTreeMap<String, Vec<BTreeSet<String>>>,
    /// For each type, the words of its trait impls (kept whenever the type is).
    trait_impls: BTreeMap<String, Vec<BTreeSet<String>>>,
}

impl Graph {
    fn collect(&mut self, items: &[Item]) {
        for item in items {
            match item {
                Item::Mod(m) => {
                    if let Some((_, inner)) = &m.content {
                        self.collect(inner);
                    }
                }
                Item::Impl(i) => {
                    let Some(ty) = self_type(i) else { continue };
                    if i.trait_.is_some() {
                        self.trait_impls.entry(ty).or_default().push(words(i.to_token_stream()));
                        continue;
                    }
                    // An inherent method needs its impl's header (generics, the type).
                    let mut header = i.clone();
                    header.items.clear();
                    let header = words(header.to_token_stream());
                    for member in &i.items {
                        if let Some(name) = impl_item_name(member) {
                            let mut w = words(member.to_token_stream());
                            w.extend(header.iter().cloned());
                            self.defs.entry(name).or_default().push(w);
                        }
                    }
                }
                _ => {
                    if let Some(name) = item_name(item) {
                        self.defs.entry(name).or_default().push(words(item.to_token_stream()));
                    }
                }
            }
        }
    }

    /// Every name reachable from `root`.
    fn reach(&self, root: &str) -> BTreeSet<String> {
        let mut live = BTreeSet::new();
        let mut todo = vec![root.to_string()];
        while let Some(name) = todo.pop() {
            if !live.insert(name.clone()) {
                continue;
            }
            let found = self.defs.get(&name).into_iter().chain(self.trait_impls.get(&name));
            for w in found.flatten() {
                todo.extend(w.iter().filter(|n| !live.contains(*n)).cloned());
            }
        }
        live
    }
}

fn retain(items: &mut Vec<Item>, live: &BTreeSet<String>, removed_mods: &mut BTreeSet<String>) {
    items.retain_mut(|item| match item {
        Item::Mod(m) => {
            if let Some((_, inner)) = &mut m.content {
                retain(inner, live, removed_mods);
                if inner.iter().all(|i| matches!(i, Item::Use(_))) {
                    removed_mods.insert(m.ident.to_string());
                    return false;
                }
            }
            true
        }
        Item::Impl(i) => {
            let Some(ty) = self_type(i) else { return true };
            if !live.contains(&ty) {
                return false;
            }
            if i.trait_.is_none() {
                i.items.retain(|member| impl_item_name(member).map_or(true, |n| live.contains(&n)));
                return !i.items.is_empty();
            }
            true
        }
        _ => item_name(item).map_or(true, |n| live.contains(&n)),
    });
}

fn item_name(item: &Item) -> Option<String> {
    let ident = match item {
        Item::Const(i) => &i.ident,
        Item::Enum(i) => &i.ident,
        Item::Fn(i) => &i.sig.ident,
        Item::Static(i) => &i.ident,
        Item::Struct(i) => &i.ident,
        Item::Trait(i) => &i.ident,
        Item::Type(i) => &i.ident,
        Item::Union(i) => &i.ident,
        _ => return None,
    };
    Some(ident.to_string())
}

fn impl_item_name(item: &ImplItem) -> Option<String> {
    match item {
        ImplItem::Const(i) => Some(i.ident.to_string()),
        ImplItem::Fn(i) => Some(i.sig.ident.to_string()),
        ImplItem::Type(i) => Some(i.ident.to_string()),
        _ => None,
    }
}

fn self_type(i: &syn::ItemImpl) -> Option<String> {
    match &*i.self_ty {
        syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    }
}

fn use_root(tree: &syn::UseTree) -> String {
    match tree {
        syn::UseTree::Path(p) => p.ident.to_string(),
        syn::UseTree::Name(n) => n.ident.to_string(),
        syn::UseTree::Rename(r) => r.ident.to_string(),
        _ => String::new(),
    }
}

/// Every identifier in `tokens`, and every name a format string interpolates (`{n}`,
/// `{MAX:?}`), which the tokens hide inside a literal.
fn words(tokens: TokenStream) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut stack = vec![tokens];
    while let Some(ts) = stack.pop() {
        for tt in ts {
            match tt {
                TokenTree::Ident(i) => {
                    out.insert(i.to_string().trim_start_matches("r#").to_string());
                }
                TokenTree::Group(g) => stack.push(g.stream()),
                TokenTree::Literal(l) => {
                    let text = l.to_string();
                    for piece in text.split('{').skip(1) {
                        let name: String = piece.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                        if !name.is_empty() {
                            out.insert(name);
                        }
                    }
                }
                TokenTree::Punct(_) => {}
            }
        }
    }
    out
}
