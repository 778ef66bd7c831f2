//! The shape of a multi-test input, read as a person reads a statement: after the count T,
//! every test follows one rule, and the rule must account for every line of every test of
//! every file of the problem, or there is no cut.
//!
//! A rule is a header line of one to three whole numbers followed by parts, each one line, a
//! number of lines given by a header number (`n` then n lines, `n m` then n rows), or one line
//! of as many tokens as a header number says (`n` then n numbers); two-part tests are two such
//! parts. Only a rule whose header numbers give lines confirms that the first line counts
//! tests: a file of T lines after a lone T is just as well one test of T items, so a rule with
//! no such part (every test k lines) is used only where the file is declared multi-test. When
//! several rules fit, they must all cut the file the same way.

/// What follows a test's header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Part {
    /// One line, whatever it holds.
    Line,
    /// As many lines as header number j says.
    Lines(usize),
    /// One line of exactly as many tokens as header number j says.
    Row(usize),
}

/// How each test of a file is laid out.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Rule {
    /// Every test is this many lines (known only from a declaration).
    Fixed(usize),
    Header {
        arity: usize,
        parts: Vec<Part>,
    },
}

/// The most tests a count may claim.
pub(super) const MAX_TESTS: usize = 1_000_000;

/// Lines times rules walked at most while looking for a file's rule (some 0.1 s).
const MAX_WORK: usize = 40_000_000;

/// The largest header number believed to count lines or tokens.
const MAX_SIZE: u64 = 10_000_000;

/// A file's lines after the count, the blank ones left out, as tokens with their place.
pub struct Body<'a> {
    /// (index of the line in the whole file, its tokens)
    lines: Vec<(usize, Vec<&'a [u8]>)>,
    pub count: usize,
}

impl<'a> Body<'a> {
    /// `all` (a file's lines) read as a count line then tests; `None` without a lone count.
    pub fn read(all: &[&'a [u8]]) -> Option<Body<'a>> {
        let mut lines = all
            .iter()
            .enumerate()
            .filter(|(_, l)| !l.iter().all(u8::is_ascii_whitespace))
            .map(|(i, l)| (i, l.split(u8::is_ascii_whitespace).filter(|t| !t.is_empty()).collect::<Vec<_>>()));
        let (_, first) = lines.next()?;
        let text = match first.as_slice() {
            [one] => std::str::from_utf8(one).ok()?.trim_start_matches('\u{feff}'),
            _ => return None,
        };
        let count = text.parse::<usize>().ok().filter(|&t| (1..=MAX_TESTS).contains(&t))?;
        Some(Body { lines: lines.collect(), count })
    }

    /// Where each test's lines are in the whole file: (first, last) line indices.
    pub fn spans(&self, cut: &Cut) -> Vec<(usize, usize)> {
        cut.starts
            .iter()
            .zip(cut.starts.iter().skip(1).copied().chain(std::iter::once(self.lines.len())))
            .map(|(&a, b)| (self.lines[a].0, self.lines[b - 1].0))
            .collect()
    }

    fn number(&self, line: usize, k: usize) -> Option<u64> {
        let token = self.lines.get(line)?.1.get(k)?;
        std::str::from_utf8(token).ok()?.parse::<u64>().ok().filter(|&n| n <= MAX_SIZE)
    }

    /// Where each test starts (in body lines), and its header numbers, under `rule`; whether
    /// a header number gave any line. `None` when the rule does not account for every line.
    fn apply(&self, rule: &Rule) -> Option<(Cut, bool)> {
        let n = self.lines.len();
        let mut cut = Cut { starts: Vec::with_capacity(self.count), headers: Vec::with_capacity(self.count) };
        let mut given = false;
        let mut at = 0;
        for _ in 0..self.count {
            if at >= n {
                return None;
            }
            cut.starts.push(at);
            match rule {
                Rule::Fixed(k) => at += k,
                Rule::Header { arity, parts } => {
                    if self.lines[at].1.len() != *arity {
                        return None;
                    }
                    let header: Vec<u64> = (0..*arity).map(|k| self.number(at, k)).collect::<Option<_>>()?;
                    at += 1;
                    for part in parts {
                        match *part {
                            Part::Line => at += 1,
                            Part::Lines(j) => {
                                at += header[j] as usize;
                                given |= header[j] > 0;
                            }
                            Part::Row(j) if header[j] == 0 => {}
                            Part::Row(j) => {
                                if self.lines.get(at)?.1.len() as u64 != header[j] {
                                    return None;
                                }
                                at += 1;
                                given = true;
                            }
                        }
                        if at > n {
                            return None;
                        }
                    }
                    cut.headers.push(header);
                }
            }
        }
        (at == n).then_some((cut, given))
    }
}

/// A file cut into tests: where each starts (in body lines) and its header's numbers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cut {
    starts: Vec<usize>,
    /// Each test's header numbers (empty under a rule of fixed size).
    pub headers: Vec<Vec<u64>>,
}

/// Every header rule of `arity` numbers with up to three parts.
fn header_rules(arity: usize) -> Vec<Rule> {
    let mut choices = vec![Part::Line];
    for j in 0..arity {
        choices.push(Part::Lines(j));
        choices.push(Part::Row(j));
    }
    let mut rules = vec![Vec::new()];
    let mut last = vec![Vec::new()];
    for _ in 0..3 {
        let next: Vec<Vec<Part>> =
            last.iter().flat_map(|p: &Vec<Part>| choices.iter().map(move |c| [p.clone(), vec![*c]].concat())).collect();
        rules.extend(next.iter().cloned());
        last = next;
    }
    rules.into_iter().map(|parts| Rule::Header { arity, parts }).collect()
}

/// A proven cut of a file, and of the problem's other files by the same rule.
pub struct Inferred {
    pub cut: Cut,
    /// Each of `others` cut by the rule (under a fixed size, each file by its own).
    pub others: Vec<Option<Cut>>,
}

/// How `body` is cut into tests, proven by a rule that also fits every file of `others`;
/// `declared` allows rules that do not confirm the count. The error says why there is no cut.
pub fn infer(body: &Body<'_>, others: &[Body<'_>], declared: bool) -> Result<Inferred, String> {
    let arity = body.lines.first().map_or(0, |(_, tokens)| tokens.len());
    let mut rules = if (1..=3).contains(&arity) { header_rules(arity) } else { Vec::new() };
    if declared && body.lines.len() % body.count == 0 {
        rules.push(Rule::Fixed(body.lines.len() / body.count));
    }
    // Every test k lines: each file has its own k.
    let fixed_in = |other: &Body<'_>| {
        (other.lines.len() % other.count == 0).then(|| other.apply(&Rule::Fixed(other.lines.len() / other.count)))?
    };
    // Each rule may walk every line of every file: past this much work, no cut is tried.
    let lines = body.lines.len() + others.iter().map(|o| o.lines.len()).sum::<usize>();
    if rules.len().saturating_mul(lines) > MAX_WORK {
        return Err(format!("its {lines} lines are too many to prove where its tests end"));
    }
    let mut found: Option<Inferred> = None;
    for rule in &rules {
        let Some((cut, given_here)) = body.apply(rule) else { continue };
        let mut given = given_here;
        let mut cuts = Vec::with_capacity(others.len());
        for other in others {
            let applied = match rule {
                Rule::Fixed(_) => fixed_in(other),
                _ => other.apply(rule),
            };
            match (rule, applied) {
                (Rule::Fixed(_), applied) => cuts.push(applied.map(|(c, _)| c)),
                (_, Some((c, g))) => {
                    given |= g;
                    cuts.push(Some(c));
                }
                (_, None) => break,
            }
        }
        if cuts.len() < others.len() || !(given || declared) {
            continue;
        }
        match &found {
            None => found = Some(Inferred { cut, others: cuts }),
            Some(seen) if seen.cut.starts == cut.starts => {}
            Some(_) => return Err("two rules fit its lines and cut them differently".into()),
        }
    }
    let files =
        if others.is_empty() { String::new() } else { format!(" and {} more files of the problem", others.len()) };
    found.ok_or_else(|| {
        if declared {
            format!("no rule of lines after its count accounts for every line of its {} tests{files}", body.count)
        } else {
            format!(
                "no header line whose numbers give the lines after it accounts for every line of its {} tests{files}",
                body.count
            )
        }
    })
}

/// How many lines a test's answer takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AnswerRule {
    /// One line a test.
    One,
    /// As many as header number j says, plus `plus`.
    Header { j: usize, plus: usize },
}

fn sizes(rule: AnswerRule, cut: &Cut) -> Option<Vec<usize>> {
    let t = cut.starts.len();
    match rule {
        AnswerRule::One => Some(vec![1; t]),
        AnswerRule::Header { j, plus } => {
            (cut.headers.len() == t).then_some(())?;
            cut.headers.iter().map(|h| h.get(j).map(|&n| n as usize + plus)).collect()
        }
    }
}

/// How many answer lines each test of `cut` has (the file's answer being `answer_lines`
/// long): one each, or as many as a header number (plus one) says. The rule must fit each of
/// `others` (another file's cut, and its answer's lines) too, and all the rules that fit must
/// agree.
pub fn answer_sizes(cut: &Cut, answer_lines: usize, others: &[(&Cut, usize)]) -> Result<Vec<usize>, String> {
    let arity = cut.headers.first().map_or(0, Vec::len);
    let mut rules = vec![AnswerRule::One];
    for j in 0..arity {
        rules.extend([0, 1].map(|plus| AnswerRule::Header { j, plus }));
    }
    let fits =
        |rule: AnswerRule, cut: &Cut, lines: usize| sizes(rule, cut).is_some_and(|s| s.iter().sum::<usize>() == lines);
    let mut fitting = rules
        .into_iter()
        .filter(|&r| fits(r, cut, answer_lines) && others.iter().all(|&(c, n)| fits(r, c, n)))
        .filter_map(|r| sizes(r, cut));
    let files = if others.is_empty() { String::new() } else { format!(" (and in {} more files)", others.len()) };
    let first = fitting.next().ok_or_else(|| {
        format!(
            "its answer's {answer_lines} lines{files} are neither one line a test nor a count given by each test's input"
        )
    })?;
    if fitting.any(|other| other != first) {
        return Err("two rules fit the answer's lines and cut them differently".into());
    }
    Ok(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<&[u8]> {
        text.lines().map(str::as_bytes).collect()
    }

    fn cut(text: &str, declared: bool) -> Result<Vec<(usize, usize)>, String> {
        let all = lines(text);
        let body = Body::read(&all).ok_or("no count")?;
        infer(&body, &[], declared).map(|c| body.spans(&c.cut))
    }

    #[test]
    fn tests_of_n_then_n_lines_are_cut_where_they_end() {
        assert_eq!(cut("3\n2\na\nb\n1\nc\n3\nd\ne\nf\n", false), Ok(vec![(1, 3), (4, 5), (6, 9)]));
        // n then n numbers on one line.
        assert_eq!(cut("2\n3\n1 2 3\n1\n7\n", false), Ok(vec![(1, 2), (3, 4)]));
        // Grids: n m then n rows.
        assert_eq!(cut("2\n2 3\nabc\ndef\n1 2\nxy\n", false), Ok(vec![(1, 3), (4, 5)]));
        // Two parts: n q, a row of n numbers, then q lines.
        assert_eq!(cut("2\n3 2\n1 2 3\nq 1\nq 2\n1 1\n5\nq 1\n", false), Ok(vec![(1, 4), (5, 7)]));
        // Blank lines between tests are not tests.
        assert_eq!(cut("2\n\n1\nx\n\n1\ny\n", false), Ok(vec![(2, 3), (5, 6)]));
    }

    #[test]
    fn a_file_with_no_proven_rule_is_not_cut() {
        // One test of n then n numbers, one a line: as much one test of six as six of one.
        assert!(cut("6\n4\n8\n15\n16\n23\n42\n", false).unwrap_err().contains("no header line"));
        // Declared multi-test, the same file is six tests of one line.
        assert_eq!(cut("6\n4\n8\n15\n16\n23\n42\n", true).unwrap().len(), 6);
        // Lines left over.
        assert!(cut("2\n1\na\n1\nb\nc\n", false).is_err());
    }

    #[test]
    fn the_rule_must_fit_every_file_of_the_problem() {
        let a = lines("2\n1\n1\n2\n2 3\n");
        let b = lines("2\n1\n1\n1\n2\n");
        let (a, b) = (Body::read(&a).unwrap(), Body::read(&b).unwrap());
        // Alone, `a` is n then n lines; `b`'s second test has a row of one token after 1,
        // so only "n then a row of n" fits both, which cuts `a` the same.
        assert_eq!(infer(&a, &[], false).map(|c| a.spans(&c.cut)), Ok(vec![(1, 2), (3, 4)]));
        let c = lines("2\n3\n1\n2\n");
        let c = Body::read(&c).unwrap();
        assert!(infer(&a, &[c], false).is_err());
        assert!(infer(&a, &[b], false).is_ok());
    }

    #[test]
    fn answers_are_one_line_a_test_or_a_count_from_the_input() {
        let all = lines("5\n2\na\nb\n7\n1\n2\n3\n4\n5\n6\n7\n1\nx\n3\na\nb\nc\n2\nd\ne\n");
        let body = Body::read(&all).unwrap();
        let c = infer(&body, &[], false).unwrap().cut;
        assert_eq!(answer_sizes(&c, 15, &[]), Ok(vec![2, 7, 1, 3, 2]));
        assert_eq!(answer_sizes(&c, 5, &[]), Ok(vec![1; 5]));
        assert_eq!(answer_sizes(&c, 20, &[]), Ok(vec![3, 8, 2, 4, 3]));
        assert!(answer_sizes(&c, 10, &[]).is_err());
        // Another file of the problem whose answer is one line a test rules out n lines a test.
        let other = lines("2\n3\na\nb\nc\n1\nd\n");
        let other = Body::read(&other).unwrap();
        let oc = infer(&other, &[], false).unwrap().cut;
        assert!(answer_sizes(&c, 15, &[(&oc, 2)]).is_err());
        assert_eq!(answer_sizes(&c, 15, &[(&oc, 4)]), Ok(vec![2, 7, 1, 3, 2]));
    }
}
