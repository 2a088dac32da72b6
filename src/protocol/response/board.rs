//! The text of `d` and `eval`: boards drawn for people.

use super::view::View;
use crate::types::{Color, Square};
use std::fmt::{self, Write as _};

/// The file letters over one 20-column grid.
const FILES: &str = "   a b c d e f g h  ";

/// The board, then each side's attacked squares (a digit: how many of its
/// pieces attack that empty square), then the facts below.
pub fn draw(f: &mut fmt::Formatter<'_>, v: &View) -> fmt::Result {
    writeln!(f, "{FILES}    {FILES}    {FILES}")?;
    for rank in (0..8u8).rev() {
        for grid in 0..3 {
            if grid > 0 {
                f.write_str("    ")?;
            }
            write!(f, "{} ", rank + 1)?;
            for file in 0..8u8 {
                let sq = Square::from_coords(file, rank).expect("on the board");
                write!(f, " {}", cell(v, grid, sq))?;
            }
            write!(f, " {}", rank + 1)?;
        }
        f.write_char('\n')?;
    }
    writeln!(
        f,
        "{FILES}    {:<20}    {:<20}",
        "   White attacks", "   Black attacks"
    )?;
    writeln!(
        f,
        "Variant: {}  Ply: {}  Side to move: {}",
        v.variant,
        v.ply,
        side(v.side)
    )?;
    writeln!(f, "Position: {}", v.fen)?;
    writeln!(f, "Points: White {} Black {}", v.points[0], v.points[1])?;
    write!(f, "Legal moves: {}", v.moves.len())
}

fn cell(v: &View, grid: usize, sq: Square) -> char {
    let piece = v.board[sq.index()];
    if grid == 0 || piece != '.' {
        return piece;
    }
    match v.attackers[grid - 1][sq.index()] {
        0 => '.',
        n => char::from_digit(u32::from(n), 10).unwrap_or('+'),
    }
}

fn side(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// Each piece with the empty squares it attacks, then the totals.
pub fn eval(f: &mut fmt::Formatter<'_>, v: &View) -> fmt::Result {
    for p in &v.pieces {
        writeln!(f, "{} {} {}", side(p.color), p.at, p.points)?;
    }
    let us = v.side.index();
    write!(
        f,
        "Total: White {} Black {} (side to move {:+}, cp {})",
        v.points[0],
        v.points[1],
        v.points[us] - v.points[1 - us],
        100 * (v.points[us] - v.points[1 - us])
    )
}
