//! A second, deliberately plain implementation of RULES.md: an 8x8 array,
//! square-by-square attack walks and the rules read one by one. It shares no
//! code with the library, so that the two can check each other.

/// (colour 0 = White / 1 = Black, piece letter).
pub type Cell = Option<(usize, char)>;

/// A position of the naive model.
#[derive(Clone, Debug)]
pub struct Naive {
    pub variant: &'static str,
    pub board: [[Cell; 8]; 8],
    pub ply: usize,
    pub last: Option<(i32, i32)>,
}

const KING_STEPS: [(i32, i32); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];
const KNIGHT_STEPS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const PIECES: [char; 5] = ['K', 'Q', 'R', 'B', 'N'];

fn on_board(f: i32, r: i32) -> bool {
    (0..8).contains(&f) && (0..8).contains(&r)
}

/// A move in the naive model: piece letter, file, rank.
pub type NMove = (char, i32, i32);

/// Prints a naive move as `K@d4`.
pub fn name(m: NMove) -> String {
    format!("{}@{}{}", m.0, (b'a' + m.1 as u8) as char, m.2 + 1)
}

impl Naive {
    pub fn new(variant: &'static str) -> Naive {
        Naive {
            variant,
            board: [[None; 8]; 8],
            ply: 0,
            last: None,
        }
    }

    pub fn at(&self, f: i32, r: i32) -> Cell {
        self.board[r as usize][f as usize]
    }

    fn empty(&self, f: i32, r: i32) -> bool {
        self.at(f, r).is_none()
    }

    /// Every square the piece on (f, r) attacks.
    pub fn attacked_by(&self, piece: char, f: i32, r: i32) -> Vec<(i32, i32)> {
        let mut out = Vec::new();
        let steps: &[(i32, i32)] = match piece {
            'K' => &KING_STEPS,
            'N' => &KNIGHT_STEPS,
            _ => &[],
        };
        for &(df, dr) in steps {
            if on_board(f + df, r + dr) {
                out.push((f + df, r + dr));
            }
        }
        let mut dirs: Vec<(i32, i32)> = Vec::new();
        if piece == 'R' || piece == 'Q' {
            dirs.extend(ROOK_DIRS);
        }
        if piece == 'B' || piece == 'Q' {
            dirs.extend(BISHOP_DIRS);
        }
        for (df, dr) in dirs {
            let (mut x, mut y) = (f + df, r + dr);
            while on_board(x, y) {
                out.push((x, y));
                if !self.empty(x, y) {
                    break;
                }
                x += df;
                y += dr;
            }
        }
        out
    }

    /// Both sides' points, counted square by square.
    pub fn points(&self) -> [i32; 2] {
        let mut pts = [0; 2];
        for r in 0..8 {
            for f in 0..8 {
                if let Some((c, p)) = self.at(f, r) {
                    for (x, y) in self.attacked_by(p, f, r) {
                        if self.empty(x, y) {
                            pts[c] += 1;
                        }
                    }
                }
            }
        }
        pts
    }

    /// How many of `piece` `color` has on the board.
    fn on_board_count(&self, color: usize, piece: char) -> usize {
        self.board
            .iter()
            .flatten()
            .filter(|c| **c == Some((color, piece)))
            .count()
    }

    pub fn in_hand(&self, color: usize, piece: char) -> usize {
        let start = if piece == 'K' || piece == 'Q' { 1 } else { 2 };
        start - self.on_board_count(color, piece)
    }

    fn touches_piece(&self, f: i32, r: i32) -> bool {
        KING_STEPS
            .iter()
            .any(|&(df, dr)| on_board(f + df, r + dr) && !self.empty(f + df, r + dr))
    }

    fn has_empty_neighbour(&self, f: i32, r: i32) -> bool {
        KING_STEPS
            .iter()
            .any(|&(df, dr)| on_board(f + df, r + dr) && self.empty(f + df, r + dr))
    }

    fn board_is_empty(&self) -> bool {
        self.board.iter().flatten().all(|c| c.is_none())
    }

    fn last_piece(&self) -> Option<(usize, char)> {
        self.last.and_then(|(f, r)| self.at(f, r))
    }

    fn standard_ok(&self, piece: char, f: i32, r: i32, touching: bool) -> bool {
        let us = self.ply % 2;
        if self.ply == 0 && piece != 'K' {
            return false;
        }
        if us == 1 && piece == 'K' && self.ply != 15 {
            return false;
        }
        let queen_called = self.in_hand(us, 'Q') > 0 && matches!(self.last_piece(), Some((_, 'Q')));
        if queen_called && piece != 'Q' {
            return false;
        }
        if self.ply == 15 {
            let (lf, lr) = self.last.unwrap();
            if (lf - f).abs().max((lr - r).abs()) != 1 {
                return false;
            }
        }
        if self.ply == 14 && !self.has_empty_neighbour(f, r) {
            return false;
        }
        if piece == 'B' {
            for y in 0..8 {
                for x in 0..8 {
                    if self.at(x, y) == Some((us, 'B')) && (x + y) % 2 == (f + r) % 2 {
                        return false;
                    }
                }
            }
        }
        !touching || self.board_is_empty() || self.touches_piece(f, r)
    }

    fn candidates(&self, ok: impl Fn(char, i32, i32) -> bool) -> Vec<NMove> {
        let us = self.ply % 2;
        let mut out = Vec::new();
        for p in PIECES {
            if self.in_hand(us, p) == 0 {
                continue;
            }
            for r in 0..8 {
                for f in 0..8 {
                    if self.empty(f, r) && ok(p, f, r) {
                        out.push((p, f, r));
                    }
                }
            }
        }
        out
    }

    /// The legal placements, each rule checked one by one.
    pub fn legal(&self) -> Vec<NMove> {
        if self.ply >= 16 {
            return Vec::new();
        }
        match self.variant {
            "standard" => {
                let moves = self.candidates(|p, f, r| self.standard_ok(p, f, r, true));
                if moves.is_empty() {
                    self.candidates(|p, f, r| self.standard_ok(p, f, r, false))
                } else {
                    moves
                }
            }
            "open" => self.candidates(|p, _, _| match self.ply {
                0 => p == 'K',
                1 => p == 'Q',
                _ => true,
            }),
            "original" => {
                let followed: Vec<(i32, i32)> = match (self.last, self.last_piece()) {
                    (Some((lf, lr)), Some((_, lp))) => self
                        .attacked_by(lp, lf, lr)
                        .into_iter()
                        .filter(|&(x, y)| self.empty(x, y))
                        .collect(),
                    _ => Vec::new(),
                };
                self.candidates(|_, f, r| followed.is_empty() || followed.contains(&(f, r)))
            }
            v => panic!("unknown variant {v}"),
        }
    }

    pub fn play(&mut self, m: NMove) {
        self.board[m.2 as usize][m.1 as usize] = Some((self.ply % 2, m.0));
        self.last = Some((m.1, m.2));
        self.ply += 1;
    }

    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 || self.ply >= 16 {
            return 1;
        }
        self.legal()
            .into_iter()
            .map(|m| {
                let mut n = self.clone();
                n.play(m);
                n.perft(depth - 1)
            })
            .sum()
    }
}
