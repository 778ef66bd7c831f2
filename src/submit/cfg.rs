//! The `without` cfgs of the solver file, evaluated for one tailoring: a part the tailoring
//! leaves out is removed wherever a `#[cfg]` names it (items, fields, variants, match arms,
//! statements, struct-expression fields), and a cfg that holds is dropped from the output.
//! `in_crate` is known too: a tailored file is never built inside this crate, so the std
//! `main` the crate's build keeps goes, and the file's `cfg_attr(not(in_crate), ...)` becomes
//! the plain attribute. Any other cfg (`target_arch`, `unix`) is left for the judge's
//! compiler to decide, and so is a condition it leaves open (`all(not(in_crate), unix)`).

use syn::punctuated::Punctuated;
use syn::visit_mut::{self, VisitMut};
use syn::{Attribute, Expr, ImplItem, Item, Lit, Meta, Stmt, Token};

/// Removes what `without` leaves out from `file`; the error names a cfg that mixes `without`
/// with other conditions, which a tailoring cannot decide alone.
pub fn apply(file: &mut syn::File, without: &[&str]) -> Result<(), String> {
    let mut pass = Pass { without, error: None };
    file.attrs = std::mem::take(&mut file.attrs).into_iter().filter_map(|a| pass.inner_cfg_attr(a)).collect();
    pass.visit_file_mut(file);
    match pass.error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

struct Pass<'a> {
    without: &'a [&'a str],
    error: Option<String>,
}

impl Pass<'_> {
    /// Whether an element with these attributes stays; the `without` cfgs that hold are
    /// removed from them.
    fn keep(&mut self, attrs: &mut Vec<Attribute>) -> bool {
        let mut keep = true;
        let mut failed = None;
        attrs.retain(|attr| {
            if !attr.path().is_ident("cfg") {
                return true;
            }
            match attr.parse_args::<Meta>().map_err(|e| e.to_string()).and_then(|m| decide(&m, self.without)) {
                Ok(Some(holds)) => {
                    keep &= holds;
                    false
                }
                Ok(None) => true,
                Err(e) => {
                    failed = Some(e);
                    true
                }
            }
        });
        if let Some(e) = failed {
            self.error.get_or_insert(e);
        }
        keep
    }

    /// A crate attribute `#![cfg_attr(PREDICATE, ATTRS)]`: the attributes alone where the
    /// predicate holds, nothing where it does not, itself where it is left open.
    fn inner_cfg_attr(&mut self, attr: Attribute) -> Option<Attribute> {
        if !attr.path().is_ident("cfg_attr") {
            return Some(attr);
        }
        let Ok(parts) = attr.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated) else {
            return Some(attr);
        };
        let mut parts = parts.into_iter();
        let predicate = parts.next()?;
        match decide(&predicate, self.without) {
            Ok(Some(true)) if parts.len() == 1 => {
                let meta = parts.next()?;
                Some(syn::parse_quote!(#![#meta]))
            }
            Ok(Some(false)) => None,
            Ok(_) => Some(attr),
            Err(e) => {
                self.error.get_or_insert(e);
                Some(attr)
            }
        }
    }

    fn items(&mut self, items: &mut Vec<Item>) {
        items.retain_mut(|item| match item_attrs(item) {
            Some(attrs) => self.keep(attrs),
            None => true,
        });
    }
}

/// What a tailoring knows of a cfg predicate.
#[derive(Clone, Copy, PartialEq)]
enum Known {
    /// It holds, or does not, in every tailored file.
    Is(bool),
    /// The judge's compiler decides; `without` says whether it names a `without` part,
    /// which that compiler would read wrongly (it sets no `without`).
    Open { without: bool },
}

/// `Some(holds)` for a predicate a tailoring decides, `None` for one it leaves to the
/// judge's compiler; an error for one that leaves open a condition naming `without`.
fn decide(meta: &Meta, without: &[&str]) -> Result<Option<bool>, String> {
    match eval(meta, without)? {
        Known::Is(holds) => Ok(Some(holds)),
        Known::Open { without: false } => Ok(None),
        Known::Open { without: true } => {
            Err(format!("a cfg mixes `without` with other conditions: {}", quote::ToTokens::to_token_stream(meta)))
        }
    }
}

fn eval(meta: &Meta, without: &[&str]) -> Result<Known, String> {
    match meta {
        Meta::NameValue(nv) if nv.path.is_ident("without") => match &nv.value {
            Expr::Lit(syn::ExprLit { lit: Lit::Str(s), .. }) => Ok(Known::Is(without.contains(&s.value().as_str()))),
            _ => Err("a `without` cfg takes a string, as in without = \"sixteen\"".into()),
        },
        Meta::Path(p) if p.is_ident("in_crate") => Ok(Known::Is(false)),
        Meta::List(list) if ["not", "all", "any"].iter().any(|k| list.path.is_ident(k)) => {
            let inner =
                list.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated).map_err(|e| e.to_string())?;
            let values = inner.iter().map(|m| eval(m, without)).collect::<Result<Vec<_>, _>>()?;
            let names_without = values.iter().any(|v| matches!(v, Known::Open { without: true }))
                || inner.iter().any(|m| quote::ToTokens::to_token_stream(m).to_string().contains("without"));
            let open = Known::Open { without: names_without };
            Ok(if list.path.is_ident("not") {
                match values.first() {
                    Some(Known::Is(v)) => Known::Is(!v),
                    _ => open,
                }
            } else {
                // `all` is decided by any false part, `any` by any true one, else by all.
                let all = list.path.is_ident("all");
                if values.contains(&Known::Is(!all)) {
                    Known::Is(!all)
                } else if values.iter().all(|v| *v == Known::Is(all)) {
                    Known::Is(all)
                } else {
                    open
                }
            })
        }
        _ => Ok(Known::Open { without: false }),
    }
}

/// The attributes of an item, for the kinds the solver file uses.
pub fn item_attrs(item: &mut Item) -> Option<&mut Vec<Attribute>> {
    Some(match item {
        Item::Const(i) => &mut i.attrs,
        Item::Enum(i) => &mut i.attrs,
        Item::Fn(i) => &mut i.attrs,
        Item::Impl(i) => &mut i.attrs,
        Item::Macro(i) => &mut i.attrs,
        Item::Mod(i) => &mut i.attrs,
        Item::Static(i) => &mut i.attrs,
        Item::Struct(i) => &mut i.attrs,
        Item::Trait(i) => &mut i.attrs,
        Item::Type(i) => &mut i.attrs,
        Item::Union(i) => &mut i.attrs,
        Item::Use(i) => &mut i.attrs,
        _ => return None,
    })
}

fn impl_item_attrs(item: &mut ImplItem) -> Option<&mut Vec<Attribute>> {
    Some(match item {
        ImplItem::Const(i) => &mut i.attrs,
        ImplItem::Fn(i) => &mut i.attrs,
        ImplItem::Type(i) => &mut i.attrs,
        ImplItem::Macro(i) => &mut i.attrs,
        _ => return None,
    })
}

/// The attributes of an expression statement, for the kinds a cfg can sit on.
fn expr_attrs(expr: &mut Expr) -> Option<&mut Vec<Attribute>> {
    Some(match expr {
        Expr::Assign(e) => &mut e.attrs,
        Expr::Block(e) => &mut e.attrs,
        Expr::Call(e) => &mut e.attrs,
        Expr::ForLoop(e) => &mut e.attrs,
        Expr::If(e) => &mut e.attrs,
        Expr::Loop(e) => &mut e.attrs,
        Expr::Macro(e) => &mut e.attrs,
        Expr::Match(e) => &mut e.attrs,
        Expr::MethodCall(e) => &mut e.attrs,
        Expr::Return(e) => &mut e.attrs,
        Expr::While(e) => &mut e.attrs,
        _ => return None,
    })
}

impl VisitMut for Pass<'_> {
    fn visit_file_mut(&mut self, file: &mut syn::File) {
        self.items(&mut file.items);
        visit_mut::visit_file_mut(self, file);
    }

    fn visit_item_mod_mut(&mut self, m: &mut syn::ItemMod) {
        if let Some((_, items)) = &mut m.content {
            self.items(items);
        }
        visit_mut::visit_item_mod_mut(self, m);
    }

    fn visit_item_impl_mut(&mut self, i: &mut syn::ItemImpl) {
        i.items.retain_mut(|item| match impl_item_attrs(item) {
            Some(attrs) => self.keep(attrs),
            None => true,
        });
        visit_mut::visit_item_impl_mut(self, i);
    }

    fn visit_fields_named_mut(&mut self, f: &mut syn::FieldsNamed) {
        let fields = std::mem::take(&mut f.named);
        f.named = fields.into_iter().filter_map(|mut field| self.keep(&mut field.attrs).then_some(field)).collect();
        visit_mut::visit_fields_named_mut(self, f);
    }

    fn visit_item_enum_mut(&mut self, e: &mut syn::ItemEnum) {
        let variants = std::mem::take(&mut e.variants);
        e.variants = variants.into_iter().filter_map(|mut v| self.keep(&mut v.attrs).then_some(v)).collect();
        visit_mut::visit_item_enum_mut(self, e);
    }

    fn visit_expr_match_mut(&mut self, m: &mut syn::ExprMatch) {
        m.arms.retain_mut(|arm| self.keep(&mut arm.attrs));
        visit_mut::visit_expr_match_mut(self, m);
    }

    fn visit_expr_struct_mut(&mut self, s: &mut syn::ExprStruct) {
        let fields = std::mem::take(&mut s.fields);
        let trailing = fields.trailing_punct() || s.rest.is_some();
        s.fields = fields.into_iter().filter_map(|mut f| self.keep(&mut f.attrs).then_some(f)).collect();
        // `Grid { cand, ..Grid::empty() }` keeps the comma before its `..`.
        if trailing && !s.fields.empty_or_trailing() {
            s.fields.push_punct(Default::default());
        }
        visit_mut::visit_expr_struct_mut(self, s);
    }

    fn visit_block_mut(&mut self, b: &mut syn::Block) {
        b.stmts.retain_mut(|stmt| {
            let attrs = match stmt {
                Stmt::Local(l) => Some(&mut l.attrs),
                Stmt::Item(item) => item_attrs(item),
                Stmt::Expr(e, _) => expr_attrs(e),
                Stmt::Macro(m) => Some(&mut m.attrs),
            };
            match attrs {
                Some(attrs) => self.keep(attrs),
                None => true,
            }
        });
        visit_mut::visit_block_mut(self, b);
    }
}
