//! Line diffs of a solver's output against the expected output: which lines match, which
//! were lost and which were added, grouped into hunks for a report to draw.
//!
//! Reports only ever diff bounded windows ([`DiffWindow`]), so a longest common
//! subsequence table is cheap; past `TABLE_CELLS` the middle is shown as replaced instead.

/// The lines of the output and of the expected output around their first difference: what a
/// report shows as a diff, bounded whatever the sizes of the files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiffWindow {
    /// 1-based line where both windows start.
    pub from_line: u64,
    pub output: Vec<u8>,
    pub expected: Vec<u8>,
    /// Either file goes on past its window: differences near the windows' end may be
    /// artefacts of the cut, so a report should show the first one only.
    pub cut: bool,
}

/// One step of a diff, by line index: in both, only in the expected text, only in the output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Same(usize, usize),
    Lost(usize),
    Added(usize),
}

/// The most table cells a diff fills (a 2,000 by 2,000 line window): beyond it the lines
/// between the common head and tail are shown as lost, then added.
const TABLE_CELLS: usize = 4_000_000;

/// The steps that turn `expected` into `output`, keeping as many lines as possible; lost lines
/// come before the added ones that replace them.
pub fn lines(expected: &[&str], output: &[&str]) -> Vec<Op> {
    let head = expected.iter().zip(output).take_while(|(a, b)| a == b).count();
    let tail = expected[head..].iter().rev().zip(output[head..].iter().rev()).take_while(|(a, b)| a == b).count();
    let (a, b) = (&expected[head..expected.len() - tail], &output[head..output.len() - tail]);
    let mut ops: Vec<Op> = (0..head).map(|i| Op::Same(i, i)).collect();
    if a.len().saturating_mul(b.len()) > TABLE_CELLS {
        ops.extend((0..a.len()).map(|i| Op::Lost(head + i)));
        ops.extend((0..b.len()).map(|j| Op::Added(head + j)));
    } else {
        // keep[i][j]: the longest common subsequence of a[i..] and b[j..].
        let width = b.len() + 1;
        let mut keep = vec![0u32; (a.len() + 1) * width];
        for i in (0..a.len()).rev() {
            for j in (0..b.len()).rev() {
                keep[i * width + j] = if a[i] == b[j] {
                    keep[(i + 1) * width + j + 1] + 1
                } else {
                    keep[(i + 1) * width + j].max(keep[i * width + j + 1])
                };
            }
        }
        let (mut i, mut j) = (0, 0);
        while i < a.len() || j < b.len() {
            if i < a.len() && j < b.len() && a[i] == b[j] {
                ops.push(Op::Same(head + i, head + j));
                i += 1;
                j += 1;
            } else if j == b.len() || (i < a.len() && keep[(i + 1) * width + j] >= keep[i * width + j + 1]) {
                ops.push(Op::Lost(head + i));
                i += 1;
            } else {
                ops.push(Op::Added(head + j));
                j += 1;
            }
        }
    }
    let (from_a, from_b) = (expected.len() - tail, output.len() - tail);
    ops.extend((0..tail).map(|k| Op::Same(from_a + k, from_b + k)));
    ops
}

/// The changes with `context` unchanged lines around each, one group per hunk; changes
/// closer than twice the context share a hunk.
pub fn hunks(ops: &[Op], context: usize) -> Vec<&[Op]> {
    let changed: Vec<usize> = (0..ops.len()).filter(|&k| !matches!(ops[k], Op::Same(..))).collect();
    let mut groups: Vec<(usize, usize)> = Vec::new();
    for &k in &changed {
        let (start, end) = (k.saturating_sub(context), (k + context + 1).min(ops.len()));
        match groups.last_mut() {
            Some(last) if start <= last.1 => last.1 = end,
            _ => groups.push((start, end)),
        }
    }
    groups.into_iter().map(|(s, e)| &ops[s..e]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(expected: &str, output: &str) -> String {
        let (a, b): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), output.lines().collect());
        lines(&a, &b)
            .iter()
            .map(|op| match *op {
                Op::Same(i, _) => format!(" {}", a[i]),
                Op::Lost(i) => format!("-{}", a[i]),
                Op::Added(j) => format!("+{}", b[j]),
            })
            .collect::<Vec<_>>()
            .join("|")
    }

    #[test]
    fn a_changed_line_is_lost_then_added() {
        assert_eq!(render("1\n2\n3", "1\nX\n3"), " 1|-2|+X| 3");
    }

    #[test]
    fn insertions_and_deletions_keep_the_common_lines() {
        assert_eq!(render("a\nb\nc\nd", "a\nc\nd\ne"), " a|-b| c| d|+e");
        assert_eq!(render("", "x"), "+x");
        assert_eq!(render("x", ""), "-x");
        assert_eq!(render("a\nb", "b\na"), "-a| b|+a");
    }

    #[test]
    fn hunks_keep_context_and_merge_when_close() {
        let a: Vec<String> = (0..20).map(|i| i.to_string()).collect();
        let mut b = a.clone();
        b[3] = "x".into();
        b[5] = "y".into();
        b[16] = "z".into();
        let (a, b): (Vec<&str>, Vec<&str>) =
            (a.iter().map(|s| s.as_str()).collect(), b.iter().map(|s| s.as_str()).collect());
        let ops = lines(&a, &b);
        let h = hunks(&ops, 2);
        assert_eq!(h.len(), 2);
        assert_eq!(h[0].first(), Some(&Op::Same(1, 1)));
        assert_eq!(h[1].last(), Some(&Op::Same(18, 18)));
    }

    #[test]
    fn huge_windows_fall_back_to_a_replaced_middle() {
        let a: Vec<String> = (0..3000).map(|i| format!("a{i}")).collect();
        let b: Vec<String> = (0..3000).map(|i| format!("b{i}")).collect();
        let (a, b): (Vec<&str>, Vec<&str>) =
            (a.iter().map(|s| s.as_str()).collect(), b.iter().map(|s| s.as_str()).collect());
        let ops = lines(&a, &b);
        assert_eq!(ops.len(), 6000);
        assert!(matches!(ops[2999], Op::Lost(2999)) && matches!(ops[3000], Op::Added(0)));
    }
}
