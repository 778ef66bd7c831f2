//! The `without` cfgs of the solver file, evaluated for one tailoring: a part the tailoring
//! leaves out is removed wherever a `#[cfg]` names it (items, fields, variants, match arms,
//! statements, struct-expression fields), and a cfg that holds is dropped from the output.
//! Any other cfg (`target_arch`, `test`) is left for the judge's compiler to decide.

use syn::punctuated::Punctuated;
use syn::visit_mut::{self, VisitMut};
use syn::{Attribute, Expr, ImplItem, Item, Lit, Meta, Stmt, Token};

/// Removes what `without` leaves out from `file`; the error names a cfg that mixes `without`
/// with other conditions, which a tailoring cannot decide alone.
pub fn apply(file: &mut syn::File, without: &[&str]) -> Result<(), String> {
    let mut pass = Pass { without, error: None };
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
            match attr.parse_args::<Meta>().map_err(|e| e.to_string()).and_then(|m| eval(&m, self.without)) {
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

    fn items(&mut self, items: &mut Vec<Item>) {
        items.retain_mut(|item| match item_attrs(item) {
            Some(attrs) => self.keep(attrs),
            None => true,
        });
    }
}

/// `Some(holds)` for a predicate over `without` only, `None` for one that never names it.
fn eval(meta: &Meta, without: &[&str]) -> Result<Option<bool>, String> {
    match meta {
        Meta::NameValue(nv) if nv.path.is_ident("without") => match &nv.value {
            Expr::Lit(syn::ExprLit { lit: Lit::Str(s), .. }) => Ok(Some(without.contains(&s.value().as_str()))),
            _ => Err("a `without` cfg takes a string, as in without = \"sixteen\"".into()),
        },
        Meta::List(list) if ["not", "all", "any"].iter().any(|k| list.path.is_ident(k)) => {
            let inner =
                list.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated).map_err(|e| e.to_string())?;
            let values = inner.iter().map(|m| eval(m, without)).collect::<Result<Vec<_>, _>>()?;
            if values.iter().all(Option::is_none) {
                return Ok(None);
            }
            if values.iter().any(Option::is_none) {
                return Err(format!(
                    "a cfg mixes `without` with other conditions: {}",
                    quote::ToTokens::to_token_stream(meta)
                ));
            }
            let values: Vec<bool> = values.into_iter().flatten().collect();
            Ok(Some(if list.path.is_ident("not") {
                !values.first().copied().unwrap_or(false)
            } else if list.path.is_ident("all") {
                values.iter().all(|&v| v)
            } else {
                values.iter().any(|&v| v)
            }))
        }
        _ => Ok(None),
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
