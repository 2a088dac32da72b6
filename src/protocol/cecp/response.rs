//! Everything the engine writes in CECP. `Response`'s `Display` is the only
//! place where CECP text is produced.

use super::setup::{self, PARENT, PIECE_TABLE};
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::protocol::response::{Clean, VERSION, clip};
use crate::types::{Placement, Square, Variant};
use std::fmt::{self, Write as _};
use std::time::Duration;

/// One answer of the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Response {
    /// The answer to `protover`: every feature, then `feature done=1`.
    Features,
    /// The answer to `variant`: the board, the pieces, the start position.
    Setup(Variant),
    /// `pong N`.
    Pong(String),
    /// `move M`.
    Move(Placement),
    /// `offer draw`: a drawn end against another engine.
    OfferDraw,
    /// The end of the game with both sides' points, e.g.
    /// `0-1 {White 43 : 44 Black}`.
    GameOver {
        /// White's points.
        white: i32,
        /// Black's points.
        black: i32,
    },
    /// A line of thinking output.
    Thinking(Thinking),
    /// `stat01: ...`, the answer to `.` in analysis.
    Status {
        /// The last thinking line.
        last: Thinking,
        /// Legal placements at the root.
        moves: u64,
    },
    /// `highlight <colour FEN>`: the squares marked yellow.
    Highlight(Bitboard),
    /// `Illegal move (REASON): MOVE`.
    IllegalMove {
        /// Why.
        reason: String,
        /// The move as sent.
        mv: String,
    },
    /// `Error (REASON): COMMAND`.
    Error {
        /// Why.
        reason: String,
        /// The command as sent.
        command: String,
    },
    /// `# ...`: a line XBoard only logs (`feature debug=1`).
    Comment(String),
}

/// Thinking output: ply, score in centipawns, time in centiseconds, nodes,
/// principal variation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thinking {
    /// Completed depth.
    pub depth: u32,
    /// 100 x the expected final point difference, side to move's view.
    pub score: i32,
    /// Time since the search began.
    pub time: Duration,
    /// Nodes.
    pub nodes: u64,
    /// Principal variation.
    pub pv: Vec<Placement>,
}

/// A user's word as echoed: one line (control characters escaped), at most
/// 40 characters.
fn echo(s: &str) -> String {
    Clean(&clip(s)).to_string()
}

impl fmt::Display for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Response::Features => features(f),
            Response::Setup(v) => setup_line(f, *v),
            Response::Pong(n) => write!(f, "pong {}", echo(n)),
            Response::Move(m) => write!(f, "move {m}"),
            Response::OfferDraw => write!(f, "offer draw"),
            Response::GameOver { white, black } => {
                let result = match white.cmp(black) {
                    std::cmp::Ordering::Greater => "1-0",
                    std::cmp::Ordering::Less => "0-1",
                    std::cmp::Ordering::Equal => "1/2-1/2",
                };
                write!(f, "{result} {{White {white} : {black} Black}}")
            }
            Response::Thinking(t) => write!(f, "{t}"),
            Response::Status { last, moves } => write!(
                f,
                "stat01: {} {} {} 0 {moves}",
                centis(last.time),
                last.nodes,
                last.depth
            ),
            Response::Highlight(marked) => highlight(f, *marked),
            Response::IllegalMove { reason, mv } => {
                write!(f, "Illegal move ({}): {}", Clean(reason), echo(mv))
            }
            Response::Error { reason, command } => {
                write!(f, "Error ({}): {}", Clean(reason), echo(command))
            }
            Response::Comment(m) => write!(f, "# {}", Clean(m)),
        }
    }
}

impl fmt::Display for Thinking {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {} {}",
            self.depth,
            self.score,
            centis(self.time),
            self.nodes
        )?;
        for m in &self.pv {
            write!(f, " {m}")?;
        }
        Ok(())
    }
}

fn centis(d: Duration) -> u128 {
    d.as_millis() / 10
}

fn features(f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let variants: Vec<&str> = Variant::ALL.into_iter().map(setup::xboard_name).collect();
    write!(
        f,
        "feature myname=\"Cheversi {VERSION}\" variants=\"{}\" setboard=1 usermove=1 \
         ping=1 playother=1 time=1 draw=0 analyze=1 colors=0 san=0 name=0 reuse=1 \
         highlight=1 memory=1 smp=1 debug=1 sigint=0 sigterm=0\nfeature done=1",
        variants.join(",")
    )
}

/// `setup (TABLE) 8x8+5_crazyhouse <empty board>[<all pieces>] w - - 0 1`.
fn setup_line(f: &mut fmt::Formatter<'_>, v: Variant) -> fmt::Result {
    let start = Position::new(v);
    let board = start.fen();
    let board = board.split(' ').next().unwrap_or_default();
    write!(
        f,
        "setup ({PIECE_TABLE}) 8x8+{}_{PARENT} {board}[{}] w - - 0 1",
        setup::HAND.len(),
        setup::holdings(&start)
    )
}

/// The colour FEN: rank 8 first, `Y` (yellow) on a marked square.
fn highlight(f: &mut fmt::Formatter<'_>, marked: Bitboard) -> fmt::Result {
    f.write_str("highlight ")?;
    for rank in (0..8).rev() {
        let mut run = 0;
        for file in 0..8 {
            let on = Square::from_coords(file, rank).is_some_and(|s| marked.has(s));
            if on {
                if run > 0 {
                    write!(f, "{run}")?;
                    run = 0;
                }
                f.write_char('Y')?;
            } else {
                run += 1;
            }
        }
        if run > 0 {
            write!(f, "{run}")?;
        }
        if rank > 0 {
            f.write_char('/')?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setup_describes_the_empty_board_and_both_hands() {
        assert_eq!(
            Response::Setup(Variant::Open).to_string(),
            "setup (.NBRQ.....K..nbrq.....k.) 8x8+5_crazyhouse \
             8/8/8/8/8/8/8/8[NNBBRRQKnnbbrrqk] w - - 0 1"
        );
    }

    #[test]
    fn highlight_is_a_colour_fen() {
        let sq = |s: &str| Bitboard::from_square(s.parse().unwrap());
        let marked = sq("e3") | sq("e4") | sq("a8") | sq("h1");
        assert_eq!(
            Response::Highlight(marked).to_string(),
            "highlight Y7/8/8/8/4Y3/4Y3/8/7Y"
        );
        assert_eq!(
            Response::Highlight(Bitboard::EMPTY).to_string(),
            "highlight 8/8/8/8/8/8/8/8"
        );
    }

    #[test]
    fn results_carry_both_sides_points() {
        let r = |white, black| Response::GameOver { white, black }.to_string();
        assert_eq!(r(43, 44), "0-1 {White 43 : 44 Black}");
        assert_eq!(r(45, 44), "1-0 {White 45 : 44 Black}");
        assert_eq!(r(40, 40), "1/2-1/2 {White 40 : 40 Black}");
    }

    #[test]
    fn user_text_stays_on_one_line() {
        let e = Response::Error {
            reason: "bad\nmove K@a1".into(),
            command: "x\ry".into(),
        };
        assert_eq!(e.to_string().lines().count(), 1);
    }

    #[test]
    fn thinking_is_ply_score_centiseconds_nodes_pv() {
        let t = Thinking {
            depth: 3,
            score: -11,
            time: Duration::from_millis(1234),
            nodes: 1134,
            pv: vec!["Q@f6".parse().unwrap(), "B@d3".parse().unwrap()],
        };
        assert_eq!(t.to_string(), "3 -11 123 1134 Q@f6 B@d3");
    }
}
