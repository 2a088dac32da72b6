//! The game tree as the page's address writes it: placements separated by
//! commas, each variation in parentheses right after the placement it
//! replaces, as PGN does without the move numbers:
//! `K@b2,R@a1(Q@c3,K@c2),R@c1` is the line K@b2 R@a1 R@c1 with Q@c3 K@c2
//! as Black's other first answer. The placement shown is counted in
//! writing order (`at`: 1 the first placement written, 0 the start).
//!
//! Reading checks every placement against the rules and refuses the whole
//! text, with the reason, on the first fault: nothing is half loaded.

use crate::game::Game;
use cheversi::{Placement, Variant};

/// The longest text read (a whole tree of a few hundred placements).
pub const MAX_TEXT: usize = 8192;
/// The deepest nesting of variations read.
pub const MAX_NESTING: usize = 32;

/// The tree of `game` as text, and the shown placement's number in it
/// (`None` when the game shows the end of its main line).
pub fn write(game: &Game) -> (String, Option<usize>) {
    let mut w = Writer {
        game,
        out: String::new(),
        count: 0,
        shown: game.shown_node(),
        at: None,
    };
    if !game.top().is_empty() {
        w.line(game.top());
    }
    let main_end = game.line().iter().all(|&n| is_main(game, n)) && game.at_end();
    let at = if main_end {
        None
    } else {
        Some(w.at.unwrap_or(0))
    };
    (w.out, at)
}

/// Whether `node` is the main continuation of its parent.
fn is_main(game: &Game, node: usize) -> bool {
    let siblings = match game.node(node).and_then(|n| n.parent) {
        None => game.top(),
        Some(p) => &game.node(p).expect("a parent").children,
    };
    siblings.first() == Some(&node)
}

struct Writer<'a> {
    game: &'a Game,
    out: String,
    count: usize,
    shown: Option<usize>,
    at: Option<usize>,
}

impl Writer<'_> {
    /// The first of `siblings`, the others as variations, then the
    /// first's continuation.
    fn line(&mut self, siblings: &[usize]) {
        self.placement(siblings[0]);
        for &alt in &siblings[1..] {
            self.out.push('(');
            self.placement(alt);
            self.after(alt);
            self.out.push(')');
        }
        self.after(siblings[0]);
    }

    fn after(&mut self, node: usize) {
        let children = &self.game.node(node).expect("a node").children;
        if !children.is_empty() {
            self.out.push(',');
            self.line(children);
        }
    }

    fn placement(&mut self, node: usize) {
        self.count += 1;
        if self.shown == Some(node) {
            self.at = Some(self.count);
        }
        let pl = self.game.node(node).expect("a node").placement;
        self.out.push_str(&pl.to_string());
    }
}

/// The game an address names: `variant`, a start position string `fen`
/// (`None`: the empty board), the tree `text` and the placement shown
/// (`at`, see the module; `None`: the end of the main line).
pub fn read(
    variant: Variant,
    fen: Option<&str>,
    text: &str,
    at: Option<usize>,
) -> Result<Game, String> {
    if text.len() > MAX_TEXT {
        return Err(format!(
            "the moves are {} bytes long, more than {MAX_TEXT}",
            text.len()
        ));
    }
    let mut game = match fen {
        Some(f) => Game::from_text(variant, f)?,
        None => Game::new(variant),
    };
    let mut parent: Option<usize> = None;
    let mut prev: Option<usize> = None;
    let mut stack: Vec<(Option<usize>, Option<usize>)> = Vec::new();
    let mut written = vec![None];
    for token in tokens(text) {
        match token {
            "(" => {
                let Some(p) = prev else {
                    return Err("a variation '(' before any placement it could replace".into());
                };
                if stack.len() >= MAX_NESTING {
                    return Err(format!("variations nested more than {MAX_NESTING} deep"));
                }
                stack.push((parent, prev));
                parent = game.node(p).and_then(|n| n.parent);
                prev = None;
            }
            ")" => {
                if prev.is_none() {
                    return Err("an empty variation '()'".into());
                }
                (parent, prev) = stack.pop().ok_or("a ')' with no '(' before it")?;
            }
            word => {
                let n = written.len();
                let pl: Placement = word
                    .parse()
                    .map_err(|e| format!("placement {n} ('{}'): {e}", cut(word)))?;
                let siblings = match parent {
                    None => game.top(),
                    Some(p) => &game.node(p).expect("a node").children,
                };
                if siblings
                    .iter()
                    .any(|&c| game.node(c).is_some_and(|c| c.placement == pl))
                {
                    return Err(format!("placement {n} ({pl}) is there already"));
                }
                game.goto_node(parent);
                game.play(pl)
                    .map_err(|e| format!("placement {n} ({pl}): {e}"))?;
                prev = game.shown_node();
                parent = prev;
                written.push(prev);
            }
        }
    }
    if !stack.is_empty() {
        return Err("a '(' that is never closed".into());
    }
    match at {
        None => {
            game.goto_node(None);
            game.goto(game.line().len());
        }
        Some(a) => {
            let Some(&node) = written.get(a) else {
                return Err(format!(
                    "no placement {a} to show: the moves have {}",
                    written.len() - 1
                ));
            };
            game.goto_node(node);
        }
    }
    Ok(game)
}

/// Words, `(` and `)`; commas and white space separate.
fn tokens(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, c) in text.char_indices() {
        if matches!(c, '(' | ')' | ',') || c.is_whitespace() {
            out.push(&text[start..i]);
            if matches!(c, '(' | ')') {
                out.push(&text[i..i + 1]);
            }
            start = i + c.len_utf8();
        }
    }
    out.push(&text[start..]);
    out.retain(|t| !t.is_empty());
    out
}

fn cut(word: &str) -> String {
    word.chars().take(40).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(text: &str, at: Option<usize>) -> Game {
        let g = read(Variant::Standard, None, text, at).unwrap();
        assert_eq!(write(&g), (text.to_string(), at), "{text}");
        g
    }

    #[test]
    fn a_tree_with_variations_reads_back_as_written() {
        round_trip("K@b2,R@a1,R@c1", None);
        round_trip("", None);
        let g = round_trip("K@b2,R@a1(Q@c3,Q@d3(Q@c2,R@a1),R@e3),R@c1", Some(6));
        assert_eq!(g.current().fen(), after("K@b2 Q@c3 Q@c2 R@a1"));
        round_trip("K@b2(K@c2,R@b1),R@a1", Some(0));
        round_trip("K@b2,R@a1(Q@c3,Q@d3),R@c1", Some(2));
        round_trip("K@b2,R@a1(Q@c3,Q@d3),R@c1", Some(4));
    }

    fn after(moves: &str) -> String {
        let mut p = cheversi::Position::new(Variant::Standard);
        for m in moves.split(' ') {
            p.play(m.parse().unwrap());
        }
        p.fen()
    }

    #[test]
    fn spaces_and_lowercase_are_read() {
        let g = read(Variant::Standard, None, " k@b2 r@a1 ( q@c3 ) ", None).unwrap();
        assert_eq!(write(&g).0, "K@b2,R@a1(Q@c3)");
    }

    #[test]
    fn bad_trees_are_refused_with_a_reason() {
        let bad = |text: &str, at, part: &str| {
            let e = read(Variant::Standard, None, text, at)
                .err()
                .unwrap_or_default();
            assert!(e.contains(part), "{text:?}: {e:?}");
        };
        bad("K@b2,K@a1", None, "placement 2 (K@a1)");
        bad("K@b2,R@a1(", None, "never closed");
        bad("K@b2)", None, "no '('");
        bad("(K@b2)", None, "before any placement");
        bad("K@b2()", None, "empty variation");
        bad("K@b2(K@b2)", None, "there already");
        bad("K@b2,xyzzy", None, "placement 2 ('xyzzy')");
        bad("K@b2", Some(5), "no placement 5");
        let nested: String = (0..40)
            .map(|i| format!("(K@{}{}", (b'a' + i % 8) as char, 1 + i / 8))
            .collect();
        bad(&format!("K@h8{nested}"), None, "nested");
        bad(&"x".repeat(MAX_TEXT + 1), None, "bytes long");
        bad("\u{0}%%((", None, "placement 1");
    }
}
