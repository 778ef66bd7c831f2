//! The judge's live output: each case's table row as soon as it and every case before it
//! have ended, and on a terminal a status line with the running cases, elapsed time and ETA.
//!
//! Rows keep the order of the cases whatever order parallel jobs end in, so the streamed
//! table is byte for byte the table a finished run would print. Off a terminal there is no
//! status line and no escape code: plain rows only.

use crate::engine::Event;
use crate::report::{self, Layout, Style};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::Mutex;
use std::time::Duration;

/// Where the table goes: stdout, or stderr when stdout carries JSON (`--json -`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sink {
    Stdout,
    Stderr,
}

impl Sink {
    pub(crate) fn write(self, text: &str) -> std::io::Result<()> {
        match self {
            Sink::Stdout => {
                let mut out = std::io::stdout().lock();
                out.write_all(text.as_bytes()).and_then(|_| out.flush())
            }
            Sink::Stderr => std::io::stderr().lock().write_all(text.as_bytes()),
        }
    }
}

struct State {
    /// The first case whose row is not printed yet.
    next: usize,
    /// Rows of cases that ended before some case above them.
    waiting: BTreeMap<usize, String>,
    /// Names of the cases running now, by place.
    running: BTreeMap<usize, String>,
    written: std::io::Result<()>,
}

/// A run's live output.
pub struct Live {
    bar: Option<ProgressBar>,
    layout: Layout,
    style: Style,
    sink: Sink,
    state: Mutex<State>,
}

/// A spinner on stderr while `what` happens, only on a terminal; `None` elsewhere.
pub fn spinner(what: &str, terminal: bool) -> Option<ProgressBar> {
    if !terminal {
        return None;
    }
    let spin = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    spin.set_style(
        ProgressStyle::with_template("{spinner} {msg} ({elapsed})")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    spin.set_message(what.to_string());
    spin.enable_steady_tick(Duration::from_millis(100));
    Some(spin)
}

/// Time left at the average pace so far: cases vary too much for a recent rate to mean
/// more (one slow case would make it hours), and before the first case ends it is unknown.
fn left(state: &indicatif::ProgressState, out: &mut dyn std::fmt::Write) {
    let (done, total) = (state.pos(), state.len().unwrap_or(0));
    if done == 0 {
        let _ = write!(out, "-");
        return;
    }
    let secs = state.elapsed().as_secs_f64() * (total.saturating_sub(done)) as f64 / done as f64;
    let _ = match secs as u64 {
        s if s < 60 => write!(out, "{s}s"),
        s if s < 3600 => write!(out, "{}m{:02}s", s / 60, s % 60),
        s => write!(out, "{}h{:02}m", s / 3600, s % 3600 / 60),
    };
}

impl Live {
    /// Prints the header at once; `cases` is the number of cases that will run, `terminal`
    /// whether stderr is one (then the status line is drawn there).
    pub fn start(layout: Layout, style: Style, sink: Sink, cases: usize, terminal: bool) -> Live {
        let bar = terminal.then(|| {
            let bar = ProgressBar::with_draw_target(Some(cases as u64), ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template("{spinner} {elapsed:>4} {bar:24} {pos}/{len} ETA {left:<4} {wide_msg}")
                    .map(|style| style.with_key("left", left))
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            bar.enable_steady_tick(Duration::from_millis(100));
            bar
        });
        let live = Live {
            bar,
            layout,
            style,
            sink,
            state: Mutex::new(State { next: 0, waiting: BTreeMap::new(), running: BTreeMap::new(), written: Ok(()) }),
        };
        let header = report::header(layout);
        let written = live.print(&header);
        live.lock().written = written;
        live
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn print(&self, text: &str) -> std::io::Result<()> {
        match &self.bar {
            // The status line is cleared while the rows are written, then drawn again below them.
            Some(bar) => bar.suspend(|| self.sink.write(text)),
            None => self.sink.write(text),
        }
    }

    /// Takes one event of `engine::run_all`.
    pub fn event(&self, event: Event) {
        let mut state = self.lock();
        match event {
            Event::Started(i, case) => {
                state.running.insert(i, crate::tame::tame(&case.name).replace('\n', "\\n"));
            }
            Event::Done(i, result) => {
                state.running.remove(&i);
                state.waiting.insert(i, report::row(self.layout, result, self.style));
                let mut rows = String::new();
                while let Some(row) = {
                    let next = state.next;
                    state.waiting.remove(&next)
                } {
                    rows.push_str(&row);
                    state.next += 1;
                }
                if !rows.is_empty() && state.written.is_ok() {
                    state.written = self.print(&rows);
                }
                if let Some(bar) = &self.bar {
                    bar.inc(1);
                }
            }
        }
        if let Some(bar) = &self.bar {
            let names: Vec<&str> = state.running.values().map(String::as_str).collect();
            bar.set_message(if names.is_empty() { String::new() } else { format!("running {}", names.join(", ")) });
        }
    }

    /// Clears the status line; whether every row was written.
    pub fn finish(self) -> std::io::Result<()> {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
        let mut state = self.lock();
        // Rows still waiting belong to cases after a gap that never ended (none, unless a
        // worker died): they are printed rather than lost.
        let rest: String = std::mem::take(&mut state.waiting).into_values().collect();
        let written = std::mem::replace(&mut state.written, Ok(()));
        drop(state);
        written.and_then(|_| if rest.is_empty() { Ok(()) } else { self.sink.write(&rest) })
    }
}
