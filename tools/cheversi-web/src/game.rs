//! The game a page shows: a start position, the tree of placements played
//! from it (a placement from an earlier position starts a variation beside
//! the line that was there), the line shown and the ply the page is looking
//! at on it. Every rule comes from the library.

use cheversi::{Color, IllegalPlacement, Placement, Position, Variant};

/// A game with a line and a cursor: the first `cursor` placements of the
/// line lead to the position shown.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    /// The start's position string when the game did not start empty.
    start_fen: Option<String>,
    /// Every placement ever made (taken-back ones are unlinked, not reused).
    nodes: Vec<Node>,
    /// The placements from the start, main continuation first.
    top: Vec<usize>,
    /// What the engine thought of the start position.
    start_eval: Option<Eval>,
    /// The line shown: node ids from the start down.
    line: Vec<usize>,
    cursor: usize,
}

/// One placement of the tree.
#[derive(Clone, Debug)]
pub struct Node {
    /// The placement.
    pub placement: Placement,
    /// The node it follows (`None`: the start).
    pub parent: Option<usize>,
    /// The placements that follow it, main continuation first.
    pub children: Vec<usize>,
    /// PGN's `{...}` after it.
    pub comment: Option<String>,
    /// What the engine thought of the position after it.
    pub eval: Option<Eval>,
}

/// The engine's best word on a position: its score turned to White's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Eval {
    /// 100 x White's expected final point lead.
    pub cp: i64,
    /// The depth it came from.
    pub depth: u32,
    /// Whether it is the game's value (the search saw to the end).
    pub exact: bool,
}

/// How a finished game ended, by the points of RULES.md.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// White has more points.
    WhiteWins,
    /// Black has more points.
    BlackWins,
    /// Equal points.
    Draw,
}

impl Outcome {
    /// The outcome of a finished position, `None` before the 16th placement.
    pub fn of(pos: &Position) -> Option<Outcome> {
        if !pos.is_over() {
            return None;
        }
        let (w, b) = (pos.points(Color::White), pos.points(Color::Black));
        Some(match w.cmp(&b) {
            std::cmp::Ordering::Greater => Outcome::WhiteWins,
            std::cmp::Ordering::Less => Outcome::BlackWins,
            std::cmp::Ordering::Equal => Outcome::Draw,
        })
    }

    /// The PGN result token.
    pub fn pgn(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }
}

impl Game {
    /// A new game on the empty board of `variant`.
    pub fn new(variant: Variant) -> Game {
        Game::starting(Position::new(variant), None)
    }

    fn starting(start: Position, start_fen: Option<String>) -> Game {
        Game {
            start,
            start_fen,
            nodes: Vec::new(),
            top: Vec::new(),
            start_eval: None,
            line: Vec::new(),
            cursor: 0,
        }
    }

    /// A game from a position string, optionally followed by `moves <pl> ...`.
    pub fn from_text(variant: Variant, text: &str) -> Result<Game, String> {
        let text = text.trim();
        let (fen, moves) = match text.find("moves") {
            Some(i) => (text[..i].trim(), text[i + "moves".len()..].trim()),
            None => (text, ""),
        };
        let mut game = if fen.is_empty() || fen == "startpos" {
            Game::new(variant)
        } else {
            let start = Position::from_fen(fen, variant).map_err(|e| e.to_string())?;
            let empty = start.ply() == 0;
            Game::starting(start.clone(), (!empty).then(|| start.fen()))
        };
        for (i, word) in moves.split_whitespace().enumerate() {
            game.play_text(word)
                .map_err(|e| format!("move {} ({word}): {e}", i + 1))?;
        }
        Ok(game)
    }

    /// The variant played.
    pub fn variant(&self) -> Variant {
        self.start.variant()
    }

    /// The start position's string, if the game did not start empty.
    pub fn start_fen(&self) -> Option<&str> {
        self.start_fen.as_deref()
    }

    /// The ply of the start position.
    pub fn start_ply(&self) -> u8 {
        self.start.ply()
    }

    /// The placements of the line shown, also those after the cursor.
    pub fn moves(&self) -> Vec<Placement> {
        self.line.iter().map(|&n| self.nodes[n].placement).collect()
    }

    /// The node ids of the line shown.
    pub fn line(&self) -> &[usize] {
        &self.line
    }

    /// A node of the tree.
    pub fn node(&self, id: usize) -> Option<&Node> {
        self.nodes.get(id)
    }

    /// The placements from the start, main continuation first.
    pub fn top(&self) -> &[usize] {
        &self.top
    }

    /// The comment after each placement of the line.
    pub fn comments(&self) -> Vec<Option<String>> {
        self.line
            .iter()
            .map(|&n| self.nodes[n].comment.clone())
            .collect()
    }

    /// Sets the comment after the `n`th placement of the line (1-based);
    /// false if there is none.
    pub fn set_comment(&mut self, n: usize, text: Option<String>) -> bool {
        match n.checked_sub(1).and_then(|i| self.line.get(i)) {
            Some(&id) => {
                self.nodes[id].comment = text;
                true
            }
            None => false,
        }
    }

    /// The engine's word on each position of the line, the start's first.
    pub fn evals(&self) -> Vec<Option<Eval>> {
        std::iter::once(self.start_eval)
            .chain(self.line.iter().map(|&n| self.nodes[n].eval))
            .collect()
    }

    /// The node of the position shown (`None`: the start).
    pub fn shown_node(&self) -> Option<usize> {
        self.cursor.checked_sub(1).map(|i| self.line[i])
    }

    /// Keeps `eval` for the position after `node` if it says more than the
    /// one kept (deeper, or exact); true if the kept one changed.
    pub fn set_eval(&mut self, node: Option<usize>, eval: Eval) -> bool {
        let slot = match node {
            None => &mut self.start_eval,
            Some(id) => match self.nodes.get_mut(id) {
                Some(n) => &mut n.eval,
                None => return false,
            },
        };
        let better = match *slot {
            None => true,
            Some(old) if old.exact != eval.exact => eval.exact,
            Some(old) => eval.depth >= old.depth,
        };
        let changed = better && *slot != Some(eval);
        if better {
            *slot = Some(eval);
        }
        changed
    }

    /// How many placements lead to the position shown.
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// Whether the position shown is the line's last.
    pub fn at_end(&self) -> bool {
        self.cursor == self.line.len()
    }

    /// The position after the first `n` placements of the line (`n` at most its length).
    pub fn position_at(&self, n: usize) -> Position {
        let mut pos = self.start.clone();
        for &id in &self.line[..n.min(self.line.len())] {
            pos.play(self.nodes[id].placement);
        }
        pos
    }

    /// The position shown.
    pub fn current(&self) -> Position {
        self.position_at(self.cursor)
    }

    /// The line's last position.
    pub fn last_position(&self) -> Position {
        self.position_at(self.line.len())
    }

    fn children_of(&self, node: Option<usize>) -> &[usize] {
        match node {
            None => &self.top,
            Some(id) => &self.nodes[id].children,
        }
    }

    /// The nodes from the start down to `node`.
    fn path(&self, node: Option<usize>) -> Vec<usize> {
        let mut path = Vec::new();
        let mut at = node;
        while let Some(id) = at {
            path.push(id);
            at = self.nodes[id].parent;
        }
        path.reverse();
        path
    }

    /// Shows `node`, on the line through it and down its main continuation.
    fn show(&mut self, node: Option<usize>) {
        let mut line = self.path(node);
        self.cursor = line.len();
        let mut at = node;
        while let Some(&next) = self.children_of(at).first() {
            line.push(next);
            at = Some(next);
        }
        self.line = line;
    }

    /// Plays `pl` on the position shown: the line goes on, or a variation
    /// starts beside the placement that followed (an existing one is reused).
    pub fn play(&mut self, pl: Placement) -> Result<(), IllegalPlacement> {
        self.current().check(pl)?;
        let parent = self.shown_node();
        let existing = self
            .children_of(parent)
            .iter()
            .copied()
            .find(|&c| self.nodes[c].placement == pl);
        let id = match existing {
            Some(id) => id,
            None => {
                let id = self.nodes.len();
                self.nodes.push(Node {
                    placement: pl,
                    parent,
                    children: Vec::new(),
                    comment: None,
                    eval: None,
                });
                match parent {
                    None => self.top.push(id),
                    Some(p) => self.nodes[p].children.push(id),
                }
                id
            }
        };
        self.show(Some(id));
        Ok(())
    }

    /// Parses and plays a placement such as `K@d4`.
    pub fn play_text(&mut self, word: &str) -> Result<(), String> {
        let pl: Placement = word.parse().map_err(|e| format!("{e}"))?;
        self.play(pl).map_err(|e| e.to_string())
    }

    /// Shows the position after `n` placements of the line; false if there are fewer.
    pub fn goto(&mut self, n: usize) -> bool {
        if n > self.line.len() {
            return false;
        }
        self.cursor = n;
        true
    }

    /// Shows the position after the placement `node` (`None`: the start);
    /// false if there is no such placement in the tree.
    pub fn goto_node(&mut self, node: Option<usize>) -> bool {
        if let Some(id) = node
            && !self.reachable(id)
        {
            return false;
        }
        self.show(node);
        true
    }

    fn reachable(&self, id: usize) -> bool {
        let Some(n) = self.nodes.get(id) else {
            return false;
        };
        let siblings = self.children_of(n.parent);
        siblings.contains(&id) && n.parent.is_none_or(|p| self.reachable(p))
    }

    fn unlink(&mut self, id: usize) {
        let parent = self.nodes[id].parent;
        match parent {
            None => self.top.retain(|&c| c != id),
            Some(p) => self.nodes[p].children.retain(|&c| c != id),
        }
    }

    /// Takes back, from the position shown, the placements up to and
    /// including the last one made by a side for which `human` is true (or
    /// just the last, if none is): they and what followed them leave the
    /// tree. False when the start is shown.
    pub fn take_back(&mut self, human: [bool; 2]) -> bool {
        let Some(mut node) = self.shown_node() else {
            return false;
        };
        let any_human = human[0] || human[1];
        loop {
            let parent = self.nodes[node].parent;
            let mover = self.path(parent).len() + usize::from(self.start.ply());
            self.unlink(node);
            let mover_index = mover % 2;
            match parent {
                Some(p) if any_human && !human[mover_index] => node = p,
                _ => {
                    self.line = self.path(parent);
                    self.cursor = self.line.len();
                    return true;
                }
            }
        }
    }

    /// The `position` command for the engine, for the position shown.
    pub fn position_command(&self) -> String {
        let mut cmd = match &self.start_fen {
            Some(fen) => format!("position fen {fen}"),
            None => "position startpos".to_string(),
        };
        if self.cursor > 0 {
            cmd.push_str(" moves");
            for &id in &self.line[..self.cursor] {
                cmd.push(' ');
                cmd.push_str(&self.nodes[id].placement.to_string());
            }
        }
        cmd
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(moves: &str) -> Game {
        Game::from_text(Variant::Standard, &format!("startpos moves {moves}")).unwrap()
    }

    #[test]
    fn an_illegal_placement_is_refused_with_its_rule_and_changes_nothing() {
        let mut g = game("K@d4");
        let err = g.play("Q@a1".parse().unwrap()).unwrap_err();
        assert!(err.to_string().contains("touch"), "{err}");
        assert_eq!(g.moves().len(), 1);
    }

    #[test]
    fn playing_from_an_earlier_ply_starts_a_variation() {
        let mut g = game("K@d4 Q@e5 Q@f5");
        assert!(g.goto(1));
        assert_eq!(g.position_command(), "position startpos moves K@d4");
        g.play("R@d5".parse().unwrap()).unwrap();
        assert_eq!(g.moves().len(), 2);
        assert!(g.at_end());
        // The old line is still there, as the main continuation of K@d4.
        let k = g.top()[0];
        let kids = &g.node(k).unwrap().children;
        assert_eq!(kids.len(), 2);
        assert_eq!(g.node(kids[0]).unwrap().placement.to_string(), "Q@e5");
        // Going to the old line shows it whole; the same placement again reuses its node.
        assert!(g.goto_node(Some(kids[0])));
        assert_eq!(g.moves().len(), 3);
        assert_eq!(g.cursor(), 2);
        assert!(g.goto(1));
        g.play("R@d5".parse().unwrap()).unwrap();
        assert_eq!(g.node(k).unwrap().children.len(), 2);
        assert!(!g.goto_node(Some(99)));
    }

    #[test]
    fn take_back_returns_to_the_humans_last_turn() {
        let mut g = game("K@d4 Q@e5 Q@f5");
        // White human, Black engine: take back White's Q@f5 only.
        assert!(g.take_back([true, false]));
        assert_eq!(g.moves().len(), 2);
        // Black's Q@e5 was the engine's; White's K@d4 goes with it.
        assert!(g.take_back([true, false]));
        assert_eq!(g.moves().len(), 0);
        assert!(!g.take_back([true, false]));
        assert!(g.top().is_empty());
    }

    #[test]
    fn a_position_string_with_moves_starts_a_game() {
        let g = Game::from_text(Variant::Standard, "8/8/8/4q3/3K4/8/8/8 w e5 moves Q@f5").unwrap();
        assert_eq!(g.start_ply(), 2);
        assert_eq!(
            g.position_command(),
            "position fen 8/8/8/4q3/3K4/8/8/8 w e5 moves Q@f5"
        );
        let err = Game::from_text(Variant::Standard, "8/8/8/8/8/8/8/8 w - moves Q@a1").unwrap_err();
        assert!(err.contains("move 1"), "{err}");
        assert!(Game::from_text(Variant::Standard, "nonsense").is_err());
    }

    #[test]
    fn outcome_follows_the_points() {
        let g =
            game("K@b2 R@a1 R@c1 Q@c3 Q@d3 B@d1 R@b4 N@e4 B@a2 B@e3 B@e5 R@f6 N@c5 N@c4 N@f5 K@g4");
        let end = g.current();
        assert_eq!(end.points(Color::White), 44);
        assert_eq!(Outcome::of(&end), Some(Outcome::BlackWins));
        assert_eq!(Outcome::of(&g.position_at(3)), None);
    }
}
