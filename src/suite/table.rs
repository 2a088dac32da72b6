//! The suite's text: one row per position as it is solved, then the
//! totals by variant and plies left (as Edax prints the FFO suite).

use super::run::Row;
use crate::variant::Variant;
use std::time::Duration;

/// The header above the rows.
pub fn header() -> String {
    format!(
        "{:<10} {:<8} {:>4} {:>8} {:>6} {:<6} {:<4} {:>9} {:>13} {:>7}",
        "id", "variant", "left", "expected", "found", "move", "opt", "time s", "nodes", "Mn/s"
    )
}

fn signed(v: Option<i32>) -> String {
    v.map_or("-".to_string(), |v| format!("{v:+}"))
}

fn rate(nodes: u64, t: Duration) -> f64 {
    nodes as f64 / t.as_secs_f64().max(1e-9) / 1e6
}

/// One position's row; a wrong value or move is marked `WRONG`.
pub fn row(r: &Row) -> String {
    let mark = if r.ok() { "" } else { "  WRONG" };
    format!(
        "{:<10} {:<8} {:>4} {:>8} {:>6} {:<6} {:<4} {:>9.3} {:>13} {:>7.1}{mark}",
        r.id,
        r.variant.to_string(),
        r.left,
        format!("{:+}", r.expected),
        signed(r.found),
        r.mv.map_or("-".to_string(), |m| m.to_string()),
        if r.optimal { "yes" } else { "no" },
        r.elapsed.as_secs_f64(),
        r.nodes,
        rate(r.nodes, r.elapsed)
    )
}

/// The totals by variant and plies left, then over everything.
pub fn totals(rows: &[Row]) -> String {
    let mut groups: Vec<(Variant, u8)> = rows.iter().map(|r| (r.variant, r.left)).collect();
    groups.sort_by_key(|&(v, l)| (v.to_string(), l));
    groups.dedup();
    let mut out = format!(
        "\n{:<8} {:>4} {:>9} {:>5} {:>9} {:>9} {:>13} {:>7}\n",
        "variant", "left", "positions", "wrong", "time s", "max s", "nodes", "Mn/s"
    );
    let mut line = |name: &str, left: String, rs: &[&Row]| {
        let time: Duration = rs.iter().map(|r| r.elapsed).sum();
        let max = rs.iter().map(|r| r.elapsed).max().unwrap_or_default();
        let nodes: u64 = rs.iter().map(|r| r.nodes).sum();
        let wrong = rs.iter().filter(|r| !r.ok()).count();
        out += &format!(
            "{:<8} {:>4} {:>9} {:>5} {:>9.3} {:>9.3} {:>13} {:>7.1}\n",
            name,
            left,
            rs.len(),
            wrong,
            time.as_secs_f64(),
            max.as_secs_f64(),
            nodes,
            rate(nodes, time)
        );
    };
    for (v, l) in groups {
        let rs: Vec<&Row> = rows
            .iter()
            .filter(|r| (r.variant, r.left) == (v, l))
            .collect();
        line(&v.to_string(), l.to_string(), &rs);
    }
    let all: Vec<&Row> = rows.iter().collect();
    line("all", "-".to_string(), &all);
    let wrong = rows.iter().filter(|r| !r.ok()).count();
    out += &if wrong == 0 {
        format!("{} positions, all values and moves right\n", rows.len())
    } else {
        format!("{} positions, {wrong} WRONG\n", rows.len())
    };
    out
}
