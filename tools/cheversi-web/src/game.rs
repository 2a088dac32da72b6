//! The game a page shows: a start position, the placements played from it,
//! and the ply the page is looking at. Every rule comes from the library.

use cheversi::{Color, IllegalPlacement, Placement, Position, Variant};

/// A game with a cursor: `moves[..cursor]` lead to the position shown.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    /// The start's position string when the game did not start empty.
    start_fen: Option<String>,
    moves: Vec<Placement>,
    /// The comment after each placement (PGN's `{...}`), as long as `moves`.
    comments: Vec<Option<String>>,
    cursor: usize,
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
        Game {
            start: Position::new(variant),
            start_fen: None,
            moves: Vec::new(),
            comments: Vec::new(),
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
            Game {
                start_fen: (!empty).then(|| start.fen()),
                start,
                moves: Vec::new(),
                comments: Vec::new(),
                cursor: 0,
            }
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

    /// Every placement of the game, also those after the cursor.
    pub fn moves(&self) -> &[Placement] {
        &self.moves
    }

    /// The comment after each placement, as long as [`Game::moves`].
    pub fn comments(&self) -> &[Option<String>] {
        &self.comments
    }

    /// Sets the comment after the `n`th placement (1-based); false if there is none.
    pub fn set_comment(&mut self, n: usize, text: Option<String>) -> bool {
        match n.checked_sub(1).and_then(|i| self.comments.get_mut(i)) {
            Some(c) => {
                *c = text;
                true
            }
            None => false,
        }
    }

    /// How many placements lead to the position shown.
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// Whether the position shown is the game's last.
    pub fn at_end(&self) -> bool {
        self.cursor == self.moves.len()
    }

    /// The position after the first `n` placements (`n` at most the length).
    pub fn position_at(&self, n: usize) -> Position {
        let mut pos = self.start.clone();
        for &pl in &self.moves[..n.min(self.moves.len())] {
            pos.play(pl);
        }
        pos
    }

    /// The position shown.
    pub fn current(&self) -> Position {
        self.position_at(self.cursor)
    }

    /// The game's last position.
    pub fn last_position(&self) -> Position {
        self.position_at(self.moves.len())
    }

    /// Plays `pl` on the position shown; the placements after it are dropped.
    pub fn play(&mut self, pl: Placement) -> Result<(), IllegalPlacement> {
        self.current().check(pl)?;
        self.moves.truncate(self.cursor);
        self.comments.truncate(self.cursor);
        self.moves.push(pl);
        self.comments.push(None);
        self.cursor += 1;
        Ok(())
    }

    /// Parses and plays a placement such as `K@d4`.
    pub fn play_text(&mut self, word: &str) -> Result<(), String> {
        let pl: Placement = word.parse().map_err(|e| format!("{e}"))?;
        self.play(pl).map_err(|e| e.to_string())
    }

    /// Shows the position after `n` placements; false if there are fewer.
    pub fn goto(&mut self, n: usize) -> bool {
        if n > self.moves.len() {
            return false;
        }
        self.cursor = n;
        true
    }

    /// Takes back the last placements up to and including the last one made
    /// by a side for which `human` is true (or just the last, if none is);
    /// false when there is nothing to take back.
    pub fn take_back(&mut self, human: [bool; 2]) -> bool {
        self.moves.truncate(self.cursor);
        if self.moves.is_empty() {
            return false;
        }
        let any_human = human[0] || human[1];
        while let Some(_pl) = self.moves.pop() {
            let mover = self.position_at(self.moves.len()).side_to_move();
            if !any_human || human[mover.index()] {
                break;
            }
        }
        self.cursor = self.moves.len();
        self.comments.truncate(self.cursor);
        true
    }

    /// The `position` command for the engine, for the position shown.
    pub fn position_command(&self) -> String {
        let mut cmd = match &self.start_fen {
            Some(fen) => format!("position fen {fen}"),
            None => "position startpos".to_string(),
        };
        if self.cursor > 0 {
            cmd.push_str(" moves");
            for pl in &self.moves[..self.cursor] {
                cmd.push(' ');
                cmd.push_str(&pl.to_string());
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
    fn playing_from_an_earlier_ply_drops_the_rest() {
        let mut g = game("K@d4 Q@e5 Q@f5");
        assert!(g.goto(1));
        assert_eq!(g.position_command(), "position startpos moves K@d4");
        g.play("R@d5".parse().unwrap()).unwrap();
        assert_eq!(g.moves().len(), 2);
        assert!(g.at_end());
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
