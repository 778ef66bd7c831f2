//! A problem as Competitive Companion sends it: the JSON body of one POST, read and checked.
//!
//! The extension's format (its README, "Custom tools"): `name`, `group`, `url`, `memoryLimit`
//! in MB, `timeLimit` in ms and `tests` (`input`, `output`) are always there; `interactive`,
//! `testType`, `input`/`output` (stdin, or a file by `fileName`) and `batch` (`id`, `size`: a
//! whole contest is `size` POSTs sharing an `id`) may be missing from older versions and from
//! other tools that send the same format. Every field we do not use is ignored.

use serde_json::Value;

/// One problem, with what the judge needs of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Task {
    pub name: String,
    pub group: String,
    pub url: String,
    pub interactive: bool,
    pub memory_mb: f64,
    pub time_ms: f64,
    pub tests: Vec<Sample>,
    /// `multiNumber`: the input starts with the number of tests in it.
    pub multi_test: bool,
    /// The file the problem reads its input from, when it is not stdin.
    pub input_file: Option<String>,
    /// The file the problem writes its output to, when it is not stdout.
    pub output_file: Option<String>,
    /// Java's class-name-friendly version of the name (a fallback for folder names).
    pub task_class: Option<String>,
    pub batch: Batch,
}

/// One sample: its input and its answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    pub input: String,
    pub output: String,
}

/// The contest a problem came with: `size` problems share the `id`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Batch {
    pub id: String,
    pub size: usize,
}

/// Most samples a problem may have, and the largest limits believed: anything past these is
/// not a problem statement.
const MAX_TESTS: usize = 1000;
const MAX_BATCH: usize = 1000;

impl Task {
    /// Reads the body of a POST; the error names the field that is missing or wrong.
    pub fn parse(body: &[u8]) -> Result<Task, String> {
        let doc: Value = serde_json::from_slice(body).map_err(|e| format!("the body is not JSON: {e}"))?;
        let Value::Object(_) = doc else {
            return Err(
                "the body is JSON but not an object: Competitive Companion sends one problem as an object".into()
            );
        };
        let text = |field: &str| -> Result<String, String> {
            match doc.get(field) {
                Some(Value::String(s)) => Ok(s.clone()),
                Some(_) => Err(format!("`{field}` must be a string")),
                None => Err(format!("the field `{field}` is missing")),
            }
        };
        let number = |field: &str, unit: &str| -> Result<f64, String> {
            match doc.get(field).map(Value::as_f64) {
                Some(Some(n)) if n.is_finite() && n > 0.0 && n < 1e9 => Ok(n),
                Some(_) => Err(format!("`{field}` must be a positive number of {unit}")),
                None => Err(format!("the field `{field}` is missing")),
            }
        };
        let tests = match doc.get("tests") {
            Some(Value::Array(list)) if list.len() <= MAX_TESTS => list
                .iter()
                .enumerate()
                .map(|(k, t)| {
                    let side = |key: &str| match t.get(key) {
                        Some(Value::String(s)) => Ok(s.clone()),
                        _ => Err(format!("tests[{k}].{key} must be a string")),
                    };
                    Ok(Sample { input: side("input")?, output: side("output")? })
                })
                .collect::<Result<Vec<_>, String>>()?,
            Some(Value::Array(list)) => {
                return Err(format!("`tests` has {} samples; at most {MAX_TESTS} are taken", list.len()))
            }
            Some(_) => return Err("`tests` must be an array of {input, output}".into()),
            None => return Err("the field `tests` is missing".into()),
        };
        let io_file = |field: &str, plain: &str| -> Result<Option<String>, String> {
            let Some(side) = doc.get(field) else { return Ok(None) };
            match side.get("type").and_then(Value::as_str) {
                Some(t) if t == plain => Ok(None),
                Some(_) => Ok(side.get("fileName").and_then(Value::as_str).map(str::to_string)),
                None => Err(format!("`{field}.type` must be a string such as \"{plain}\"")),
            }
        };
        let batch = match doc.get("batch") {
            None | Some(Value::Null) => Batch { id: String::new(), size: 1 },
            Some(b) => {
                let id = b.get("id").and_then(Value::as_str).ok_or("`batch.id` must be a string")?;
                let size = b.get("size").and_then(Value::as_u64).filter(|&s| s >= 1 && s as usize <= MAX_BATCH);
                let size = size.ok_or(format!("`batch.size` must be a number from 1 to {MAX_BATCH}"))?;
                Batch { id: id.to_string(), size: size as usize }
            }
        };
        Ok(Task {
            name: text("name")?,
            group: text("group")?,
            url: text("url")?,
            interactive: doc.get("interactive").and_then(Value::as_bool).unwrap_or(false),
            memory_mb: number("memoryLimit", "MB")?,
            time_ms: number("timeLimit", "ms")?,
            tests,
            multi_test: doc.get("testType").and_then(Value::as_str) == Some("multiNumber"),
            input_file: io_file("input", "stdin")?,
            output_file: io_file("output", "stdout")?,
            task_class: doc.pointer("/languages/java/taskClass").and_then(Value::as_str).map(str::to_string),
            batch,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CODEFORCES: &str = r#"{"name":"G. Castle Defense","group":"Educational Codeforces Round 40",
        "url":"https://codeforces.com/problemset/problem/954/G","interactive":false,"memoryLimit":256,
        "timeLimit":1500,"testType":"single","input":{"type":"stdin"},"output":{"type":"stdout"},
        "languages":{"java":{"mainClass":"Main","taskClass":"GCastleDefense"}},
        "tests":[{"input":"5 0 6\n5 4 3 4 9\n","output":"5\n"}],"batch":{"id":"b1","size":1}}"#;

    #[test]
    fn the_extensions_example_is_read_whole() {
        let task = Task::parse(CODEFORCES.as_bytes()).unwrap();
        assert_eq!(task.name, "G. Castle Defense");
        assert_eq!((task.memory_mb, task.time_ms, task.interactive, task.multi_test), (256.0, 1500.0, false, false));
        assert_eq!(task.tests, vec![Sample { input: "5 0 6\n5 4 3 4 9\n".into(), output: "5\n".into() }]);
        assert_eq!((task.input_file, task.output_file), (None, None));
        assert_eq!(task.task_class.as_deref(), Some("GCastleDefense"));
        assert_eq!(task.batch, Batch { id: "b1".into(), size: 1 });
    }

    #[test]
    fn what_is_missing_or_wrong_is_named() {
        let without = |field: &str| {
            let mut doc: Value = serde_json::from_str(CODEFORCES).unwrap();
            doc.as_object_mut().unwrap().remove(field);
            Task::parse(&serde_json::to_vec(&doc).unwrap())
        };
        for field in ["name", "group", "url", "memoryLimit", "timeLimit", "tests"] {
            let e = without(field).unwrap_err();
            assert!(e.contains(&format!("`{field}`")), "{field}: {e}");
        }
        // Optional fields may be missing.
        for field in ["interactive", "testType", "input", "output", "languages", "batch"] {
            assert!(without(field).is_ok(), "{field}");
        }
        assert!(Task::parse(b"not json").unwrap_err().contains("not JSON"));
        assert!(Task::parse(b"[1]").unwrap_err().contains("not an object"));
        let bad = CODEFORCES.replace("\"timeLimit\":1500", "\"timeLimit\":-1");
        assert!(Task::parse(bad.as_bytes()).unwrap_err().contains("timeLimit"));
        let bad = CODEFORCES.replace("\"output\":\"5\\n\"", "\"output\":5");
        assert!(Task::parse(bad.as_bytes()).unwrap_err().contains("tests[0].output"));
    }

    #[test]
    fn file_io_and_multi_tests_are_kept() {
        let doc = CODEFORCES
            .replace(r#""input":{"type":"stdin"}"#, r#""input":{"type":"file","fileName":"castle.in"}"#)
            .replace("\"single\"", "\"multiNumber\"");
        let task = Task::parse(doc.as_bytes()).unwrap();
        assert_eq!((task.input_file.as_deref(), task.multi_test), (Some("castle.in"), true));
    }
}
