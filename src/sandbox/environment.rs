//! A run's environment: a few variables a judge sets, never the judge's own (which holds the
//! user's tokens and credentials). `PATH` as the judge's, so a program finds the same tools;
//! `HOME` and `TMPDIR` its scratch folder (set by the launcher, which makes it); `LANG` a
//! UTF-8 C locale; `ONLINE_JUDGE`, as Codeforces and AtCoder define it; `PYENV_VERSION`
//! when set, so `python3` runs the version the user chose. `--env NAME` passes the judge's
//! value of NAME on, `--env NAME=VALUE` sets one.

use std::ffi::OsString;

/// Variables every sandboxed run gets, beside `HOME` and `TMPDIR`.
const FIXED: [(&str, &str); 2] = [("LANG", "C.UTF-8"), ("ONLINE_JUDGE", "1")];

/// Variables passed on from the judge's environment when they are set.
const INHERITED: [&str; 2] = ["PATH", "PYENV_VERSION"];

/// The environment of a sandboxed run of a program that asks for `own` (a build's settings,
/// `case.toml`'s `env`), which wins over the rest, with the variables its sandbox passes on
/// (`--env`: a name alone takes the judge's value); `HOME` and `TMPDIR` are left to the
/// launcher, which makes the scratch folder they name.
pub fn for_run(own: &[(OsString, OsString)], passed: &[(OsString, Option<OsString>)]) -> Vec<(OsString, OsString)> {
    let mut env: Vec<(OsString, OsString)> = FIXED.iter().map(|(k, v)| (k.into(), v.into())).collect();
    for name in INHERITED {
        if let Some(value) = std::env::var_os(name) {
            env.push((name.into(), value));
        }
    }
    if !env.iter().any(|(k, _)| k == "PATH") {
        env.push(("PATH".into(), "/usr/local/bin:/usr/bin:/bin".into()));
    }
    for (name, value) in passed {
        if let Some(value) = value.clone().or_else(|| std::env::var_os(name)) {
            env.push((name.clone(), value));
        }
    }
    env.extend(own.iter().cloned());
    // One value a name, the last given: a C library reads the first of two.
    let mut kept: Vec<(OsString, OsString)> = Vec::new();
    for (name, value) in env.into_iter().rev() {
        if !kept.iter().any(|(k, _)| *k == name) && name != "HOME" && name != "TMPDIR" {
            kept.push((name, value));
        }
    }
    kept.reverse();
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_gets_the_fixed_variables_and_its_own_win() {
        let passed = [("SUDOKU_SEED".into(), Some("7".into())), ("NOT_SET_ANYWHERE_42".into(), None)];
        let env = for_run(&[("LANG".into(), "en_GB.UTF-8".into())], &passed);
        let last = |name: &str| env.iter().rev().find(|(k, _)| k == name).map(|(_, v)| v.clone());
        assert_eq!(last("ONLINE_JUDGE"), Some("1".into()));
        assert_eq!(last("LANG"), Some("en_GB.UTF-8".into()));
        assert!(last("PATH").is_some());
        assert_eq!(env.iter().filter(|(k, _)| k == "LANG").count(), 1);
        assert_eq!(last("SUDOKU_SEED"), Some("7".into()));
        assert!(last("NOT_SET_ANYWHERE_42").is_none(), "a name the judge has no value for is left out");
        assert!(last("CARGO").is_none() && last("CARGO_PKG_NAME").is_none(), "the judge's own variables leak");
    }
}
