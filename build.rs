//! Sets `in_crate` for every target of this package: the solver file, built alone as judges
//! build it, replaces std's `main` with a C entry point that skips std's runtime set-up (see
//! the file's top). Inside the crate it is also a module of the lib, which binaries with their
//! own `main` link, so there it must keep std's `main`.
fn main() {
    println!("cargo:rustc-cfg=in_crate");
    println!("cargo:rerun-if-changed=build.rs");
}
