//! The JSON messages between the page and the server over the WebSocket
//! (README.md, "Messages"). Every message is an object with a `type`.

use crate::game::{Eval, Game, Outcome};
use crate::uci::Info;
use cheversi::protocol::response::view::View;
use cheversi::{Color, Piece};
use serde::{Deserialize, Serialize};

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Player {
    /// Clicks on the page.
    Human,
    /// The engine process.
    Engine,
}

/// How long the engine thinks about a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LimitKind {
    /// `go movetime <value>`.
    Movetime,
    /// `go depth <value>`.
    Depth,
}

/// What the page asks.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMsg {
    /// A new game on the empty board.
    New {
        /// `standard`, `open` or `original`.
        variant: String,
    },
    /// Who plays each side.
    Players {
        /// White's player.
        white: Player,
        /// Black's player.
        black: Player,
    },
    /// A placement on the position shown, e.g. `K@d4`.
    Play {
        /// The placement.
        placement: String,
    },
    /// Show the position after `ply` placements of the line shown.
    Goto {
        /// Index into the line (0: the start).
        ply: usize,
    },
    /// Show the position after a placement of the tree (a variation's too),
    /// on the line through it.
    GotoNode {
        /// Its id (`tree` of the state); `null`: the start.
        node: Option<usize>,
    },
    /// A game tree as the address writes it (`crate::address`).
    LoadGame {
        /// `standard`, `open` or `original`.
        variant: String,
        /// The start position string (`null`: the empty board).
        fen: Option<String>,
        /// The tree: `K@b2,R@a1(Q@c3,K@c2),R@c1`.
        moves: String,
        /// The placement shown, in writing order (`null`: the main line's end).
        at: Option<usize>,
    },
    /// Take back to the last human turn.
    Takeback {},
    /// A position string, optionally followed by `moves ...`.
    LoadPosition {
        /// The variant it is played in.
        variant: String,
        /// The text.
        text: String,
    },
    /// A PGN game to replay.
    LoadPgn {
        /// The text.
        text: String,
        /// The variant of a game without a `Variant` tag (default `standard`).
        #[serde(default)]
        variant: Option<String>,
    },
    /// Asks for the game as PGN.
    ExportPgn {},
    /// Analysis on or off.
    Analyse {
        /// On?
        on: bool,
    },
    /// Engine against engine paused or going.
    Pause {
        /// Paused?
        on: bool,
    },
    /// The engine's settings.
    Settings(Settings),
    /// Start the engine again after it gave up.
    RestartEngine {},
}

/// The engine settings a page may choose; checked by [`Settings::check`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// Time or depth per move.
    pub limit: LimitKind,
    /// Milliseconds or plies.
    pub value: u64,
    /// `Threads`.
    pub threads: u32,
    /// `Hash` in MiB.
    pub hash: u32,
    /// `MultiPV` while analysing.
    pub multipv: u32,
    /// Pause between two engine moves, in milliseconds (engine against engine).
    pub delay: u64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            limit: LimitKind::Movetime,
            value: 500,
            threads: 1,
            hash: 16,
            multipv: 3,
            delay: 500,
        }
    }
}

/// What this server lets one page's engine use (`--max-threads`,
/// `--max-hash`, `--max-think`, `--max-depth`); shown on the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Caps {
    /// Most `Threads`.
    pub threads: u32,
    /// Most `Hash` in MiB.
    pub hash: u32,
    /// Most milliseconds a move (and an analysis) thinks.
    pub movetime: u64,
    /// Most plies of `go depth`.
    pub depth: u64,
}

impl Caps {
    /// The ranges of the messages, nothing narrower.
    pub const NONE: Caps = Caps {
        threads: 64,
        hash: 1024,
        movetime: 600_000,
        depth: 16,
    };

    /// Whether analysis must stop after `movetime` rather than run until stopped.
    pub fn limits_analysis(&self) -> bool {
        self.movetime < Caps::NONE.movetime
    }

    /// The defaults, brought within the caps.
    pub fn settings(&self) -> Settings {
        let d = Settings::default();
        Settings {
            value: d.value.min(self.movetime),
            threads: d.threads.min(self.threads),
            hash: d.hash.min(self.hash),
            ..d
        }
    }
}

impl Settings {
    /// An error naming the first value out of its range (the messages'
    /// range, narrowed by the server's caps).
    pub fn check(&self, caps: &Caps) -> Result<(), String> {
        let range = |name: &str, v: u64, lo: u64, hi: u64| {
            if (lo..=hi).contains(&v) {
                Ok(())
            } else {
                Err(format!("{name} must be from {lo} to {hi}, not {v}"))
            }
        };
        match self.limit {
            LimitKind::Movetime => range("movetime", self.value, 10, caps.movetime)?,
            LimitKind::Depth => range("depth", self.value, 1, caps.depth)?,
        }
        range("threads", self.threads.into(), 1, caps.threads.into())?;
        range("hash", self.hash.into(), 1, caps.hash.into())?;
        range("multipv", self.multipv.into(), 1, 16)?;
        range("delay", self.delay, 0, 60_000)
    }

    /// The `go` command for one engine move.
    pub fn go(&self) -> String {
        match self.limit {
            LimitKind::Movetime => format!("go movetime {}", self.value),
            LimitKind::Depth => format!("go depth {}", self.value),
        }
    }
}

/// What the server tells the page.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    /// The whole state to draw.
    State(Box<StateMsg>),
    /// A search's latest line for one MultiPV index.
    Info {
        /// The search it belongs to.
        search: u64,
        /// The ply of the position searched.
        ply: u8,
        /// Plies left there: a depth this large is exact.
        left: u8,
        /// Whether the score is the game's value.
        exact: bool,
        /// The figures.
        info: Info,
    },
    /// The live figures of the current search between its lines (depth
    /// under way, nodes, nps, time; no score, no line).
    Progress {
        /// The search it belongs to.
        search: u64,
        /// The ply of the position searched.
        ply: u8,
        /// The figures.
        info: Info,
    },
    /// `info string book <text>` of the current search.
    Book {
        /// The search it belongs to.
        search: u64,
        /// The ply of the position searched (the text speaks for its side
        /// to move).
        ply: u8,
        /// The engine's words.
        text: String,
    },
    /// Other `info string` text of the engine (its errors too).
    EngineText {
        /// The engine's words.
        text: String,
    },
    /// The engine's state changed: `starting`, `ready`, `restarted`, `failed`.
    Engine {
        /// The new status.
        status: &'static str,
        /// Why, for people.
        message: String,
    },
    /// A placement the rules forbid, and the rule.
    Illegal {
        /// The placement tried.
        placement: String,
        /// The library's reason.
        reason: String,
    },
    /// The game as PGN.
    Pgn {
        /// The text.
        text: String,
    },
    /// A message that could not be carried out; nothing changed.
    Error {
        /// What is wrong.
        message: String,
    },
    /// The page sat idle too long and is closed; the socket closes after it.
    Idle {
        /// Why, for people.
        message: String,
    },
    /// The server has no room for this page; the socket closes after it.
    Full {
        /// Why, for people.
        message: String,
    },
}

/// Everything the page draws.
#[derive(Clone, Debug, Serialize)]
pub struct StateMsg {
    /// The variant.
    pub variant: &'static str,
    /// The whole tree as the address writes it (`crate::address`).
    pub tree_text: String,
    /// The placement shown, in writing order (`None`: the main line's end).
    pub tree_at: Option<usize>,
    /// The start position string, if not the empty board.
    pub start_fen: Option<String>,
    /// The ply of the start position.
    pub start_ply: u8,
    /// The placements of the line shown.
    pub moves: Vec<String>,
    /// How many of them lead to the position shown.
    pub cursor: usize,
    /// The node ids of the line shown (as long as `moves`).
    pub line: Vec<usize>,
    /// Every placement of the game, variations too, in the order a move list
    /// writes them (each node after its parent).
    pub tree: Vec<NodeMsg>,
    /// The engine's word on each position of the line, the start's first.
    pub evals: Vec<Option<Eval>>,
    /// The position shown.
    pub position: PositionMsg,
    /// White's and Black's player.
    pub players: [Player; 2],
    /// The engine settings.
    pub settings: Settings,
    /// What this server lets the page's engine use.
    pub caps: Caps,
    /// Analysis on?
    pub analyse: bool,
    /// Engine against engine paused?
    pub paused: bool,
    /// Which side the engine is finding a move for, if it is.
    pub thinking: Option<&'static str>,
    /// The search running (not being stopped), if any.
    pub search: Option<SearchMsg>,
    /// The comment after each placement of the move list, if any.
    pub comments: Vec<Option<String>>,
    /// The engine's `id name`.
    pub engine_name: String,
}

/// One placement of the game's tree.
#[derive(Clone, Debug, Serialize)]
pub struct NodeMsg {
    /// Its id.
    pub id: usize,
    /// The node it follows, `null`: the start.
    pub parent: Option<usize>,
    /// `K@d4`.
    pub placement: String,
    /// Plies from the empty board before it.
    pub ply: u8,
    /// The placements that follow, main continuation first.
    pub children: Vec<usize>,
    /// Its PGN comment.
    pub comment: Option<String>,
}

impl NodeMsg {
    /// The tree of `game`, each node after its parent, main lines first.
    pub fn tree(game: &Game) -> (Vec<usize>, Vec<NodeMsg>) {
        let mut out = Vec::new();
        let mut stack: Vec<(usize, u8)> = game
            .top()
            .iter()
            .rev()
            .map(|&id| (id, game.start_ply()))
            .collect();
        while let Some((id, ply)) = stack.pop() {
            let Some(n) = game.node(id) else { continue };
            out.push(NodeMsg {
                id,
                parent: n.parent,
                placement: n.placement.to_string(),
                ply,
                children: n.children.clone(),
                comment: n.comment.clone(),
            });
            stack.extend(n.children.iter().rev().map(|&c| (c, ply + 1)));
        }
        (game.top().to_vec(), out)
    }
}

/// The search the engine is running, as the page labels its lines.
#[derive(Clone, Debug, Serialize)]
pub struct SearchMsg {
    /// The id its `info` messages carry.
    pub id: u64,
    /// `move` (the engine's own move) or `analysis`.
    pub purpose: &'static str,
    /// The ply of the position searched.
    pub ply: u8,
    /// Milliseconds since it started.
    pub elapsed: u64,
}

/// One position, with everything the library says about it.
#[derive(Clone, Debug, Serialize)]
pub struct PositionMsg {
    /// The position string.
    pub fen: String,
    /// Placements made since the empty board.
    pub ply: u8,
    /// `white` or `black`.
    pub side: &'static str,
    /// The piece on each square, `a1` first: `K` White's King, `q` Black's Queen, `` empty.
    pub board: Vec<String>,
    /// The last placement's square.
    pub last: Option<String>,
    /// Pieces in hand, `[White, Black]`, in the order K Q R B N.
    pub hands: [[u8; 5]; 2],
    /// Points, White first.
    pub points: [i32; 2],
    /// The legal placements.
    pub legal: Vec<String>,
    /// How many pieces of each side attack each empty square, `a1` first.
    pub attackers: [Vec<u8>; 2],
    /// The end, after the 16th placement.
    pub result: Option<ResultMsg>,
    /// The rule that binds the next placement, for people (the library's words).
    pub restriction: Option<String>,
}

/// The end of a game.
#[derive(Clone, Debug, Serialize)]
pub struct ResultMsg {
    /// `white`, `black` or `draw`.
    pub winner: &'static str,
    /// `1-0`, `0-1`, `1/2-1/2`.
    pub pgn: &'static str,
    /// For people: "Black wins by 1 point".
    pub text: String,
}

/// The side's name on the page.
pub fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

impl PositionMsg {
    /// The position shown in `game`.
    pub fn of(game: &Game) -> PositionMsg {
        let pos = game.current();
        let view = View::of(&pos);
        let hand = |c: Color| Piece::ALL.map(|p| pos.in_hand(c, p));
        let result = Outcome::of(&pos).map(|o| {
            let margin = (view.points[0] - view.points[1]).abs();
            let s = if margin == 1 { "" } else { "s" };
            let (winner, text) = match o {
                Outcome::WhiteWins => ("white", format!("White wins by {margin} point{s}")),
                Outcome::BlackWins => ("black", format!("Black wins by {margin} point{s}")),
                Outcome::Draw => ("draw", "Draw".to_string()),
            };
            ResultMsg {
                winner,
                pgn: o.pgn(),
                text,
            }
        });
        PositionMsg {
            fen: view.fen,
            ply: view.ply,
            side: side_name(view.side),
            board: view
                .board
                .iter()
                .map(|&c| {
                    if c == '.' {
                        String::new()
                    } else {
                        c.to_string()
                    }
                })
                .collect(),
            last: pos.last().map(|s| s.to_string()),
            hands: [hand(Color::White), hand(Color::Black)],
            points: view.points,
            legal: view.moves.iter().map(|m| m.to_string()).collect(),
            attackers: view.attackers.map(|a| a.to_vec()),
            result,
            restriction: view.restriction,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_read_strictly() {
        let ok: ClientMsg = serde_json::from_str(r#"{"type":"play","placement":"K@d4"}"#).unwrap();
        assert!(matches!(ok, ClientMsg::Play { .. }));
        for bare in ["takeback", "export_pgn", "restart_engine"] {
            let text = format!(r#"{{"type":"{bare}"}}"#);
            assert!(serde_json::from_str::<ClientMsg>(&text).is_ok(), "{text}");
        }
        for bad in [
            r#"{"type":"play"}"#,
            r#"{"type":"play","placement":"K@d4","engine":"/bin/sh"}"#,
            r#"{"type":"launch","program":"/bin/sh"}"#,
            r#"{"type":"goto","ply":-1}"#,
            r#"[1,2]"#,
            r#"{"type":"settings","limit":"movetime","value":50,"threads":1,"hash":16,"multipv":1}"#,
            r#"{"type":"takeback","ply":3}"#,
            r#"{"type":"export_pgn","path":"/etc/passwd"}"#,
            r#"{"type":"restart_engine","program":"/bin/sh"}"#,
        ] {
            assert!(serde_json::from_str::<ClientMsg>(bad).is_err(), "{bad}");
        }
        let s: ClientMsg = serde_json::from_str(
            r#"{"type":"settings","limit":"depth","value":99,"threads":1,"hash":16,"multipv":1,"delay":0}"#,
        )
        .unwrap();
        let ClientMsg::Settings(s) = s else { panic!() };
        assert!(s.check(&Caps::NONE).unwrap_err().contains("depth"));
        let caps = Caps {
            threads: 2,
            hash: 64,
            movetime: 2000,
            depth: 8,
        };
        let ok = caps.settings();
        assert!(ok.check(&caps).is_ok());
        let more = Settings { threads: 4, ..ok };
        assert_eq!(
            more.check(&caps).unwrap_err(),
            "threads must be from 1 to 2, not 4"
        );
    }

    #[test]
    fn a_position_is_drawn_from_the_library() {
        let g = Game::from_text(cheversi::Variant::Standard, "startpos moves K@d4 Q@e5").unwrap();
        let p = PositionMsg::of(&g);
        assert_eq!(p.points, [7, 23]);
        assert_eq!(p.board[27], "K");
        assert_eq!(p.board[36], "q");
        assert_eq!(p.hands[1], [1, 0, 2, 2, 2]);
        assert_eq!(p.legal.len(), 12);
        assert_eq!(p.attackers[0][18], 1); // c3, by White's King
        assert_eq!(p.last.as_deref(), Some("e5"));
        assert!(p.result.is_none());
    }
}
