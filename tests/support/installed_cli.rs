//! The judge installed outside the user's tree (`/usr/local/bin`, where `make install` or a
//! package puts it): a run finds its path through `/proc/1/cmdline` (its keeper is the judge's
//! launcher) and the file under `/usr`, which its root shows; the judge carries every bundled
//! suite's answers, so no run may read it. The test never writes the machine's folders: as
//! root it runs the judge in a mount namespace of its own, with a tmpfs over `/usr/local/bin`
//! holding a copy of the judge.

use std::path::Path;

#[test]
fn a_judge_installed_in_usr_local_bin_is_out_of_every_run_s_reach() {
    // SAFETY: a plain query.
    if unsafe { libc::geteuid() } != 0 {
        eprintln!("skipped: only root can lay a tmpfs over /usr/local/bin in a mount namespace of its own");
        return;
    }
    if !Path::new("/usr/bin/unshare").exists() && !Path::new("/bin/unshare").exists() {
        eprintln!("skipped: unshare (util-linux) is not installed here");
        return;
    }
    let dir = super::folder(&[("cases/a/input.txt", ""), ("cases/a/expected.txt", "sealed\n")]);
    super::sandbox_cli::executable(
        &dir.path().join("probe.sh"),
        "exe=$(tr '\\0' '\\n' </proc/1/cmdline | head -n 1)\n\
         for f in /usr/local/bin/judge \"$exe\" /proc/1/exe; do\n\
         \x20   head -c 1 \"$f\" >/dev/null 2>&1 && echo \"$f is readable\"\n\
         done\n\
         [ -e /usr/local/bin/judge ] && echo '/usr/local/bin/judge is there'\n\
         echo sealed\n",
    );
    {
        use std::os::unix::fs::PermissionsExt;
        for entry in walkdir::WalkDir::new(dir.path()).into_iter().flatten() {
            std::fs::set_permissions(entry.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
        }
    }
    // As root, then as nobody (whose runs get their namespaces through a user namespace).
    let script = "mount -t tmpfs -o mode=0755 tmpfs /usr/local/bin || exit 97\n\
                  cp \"$1\" /usr/local/bin/judge && chmod 0755 /usr/local/bin/judge || exit 98\n\
                  cd \"$2\" || exit 99\n\
                  /usr/local/bin/judge cases --json root.json -- ./probe.sh >/dev/null 2>&1\n\
                  HOME=\"$2\" XDG_CACHE_HOME=\"$2/.cache\" setpriv --reuid 65534 --regid 65534 --clear-groups \
                  /usr/local/bin/judge cases --json nobody.json -- ./probe.sh >/dev/null 2>&1\n\
                  exit 0\n";
    let out = std::process::Command::new("unshare")
        .args(["--mount", "--propagation", "private", "sh", "-c", script, "sh"])
        .arg(assert_cmd::cargo::cargo_bin!("judge"))
        .arg(dir.path())
        .output()
        .unwrap();
    if !out.status.success() {
        eprintln!(
            "skipped: this machine refused a mount namespace with a tmpfs over /usr/local/bin ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        return;
    }
    for who in ["root", "nobody"] {
        let json = dir.path().join(format!("{who}.json"));
        let Ok(bytes) = std::fs::read(&json) else {
            // setpriv (util-linux) may be missing; root's report must be there.
            assert_ne!(who, "root", "the judge in /usr/local/bin wrote no report");
            eprintln!("skipped as {who}: no report (setpriv missing?)");
            continue;
        };
        let report: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        // Absent from its own root, or refused by Landlock's rules where it has none.
        if report["sandbox"]["own_root"] == true || report["sandbox"]["files"] == true {
            assert_eq!(report["cases"][0]["verdict"], "AC", "{who}: {report}");
        } else {
            assert!(report["sandbox"]["missing"].to_string().contains("files"), "{who}: {report}");
        }
    }
}
