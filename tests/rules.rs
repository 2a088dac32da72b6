//! One test (at least) per rule of RULES.md, through the public API.

use cheversi::{Color, IllegalPlacement, Placement, Position, PositionError, Variant};

fn pl(s: &str) -> Placement {
    s.parse().unwrap()
}

fn play_all(variant: Variant, moves: &str) -> Position {
    let mut pos = Position::new(variant);
    for m in moves.split_whitespace() {
        pos.play_checked(pl(m))
            .unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    pos
}

fn rule_error(pos: &Position, m: &str) -> String {
    match pos.check(pl(m)) {
        Err(IllegalPlacement::Rule(_, why)) => why.to_string(),
        other => panic!("{m}: expected a rule error, got {other:?}"),
    }
}

fn legal(pos: &Position) -> Vec<String> {
    pos.legal_moves().iter().map(|m| m.to_string()).collect()
}

/// Reaches ply 14 in `standard` with a1 surrounded by pieces.
const HOLE_AT_A1: &str = "K@b2 Q@a2 Q@b1 R@c3 R@c2 R@d3 R@d2 B@e3 B@e2 B@f3 B@f2 N@g3 N@g2 N@h3";

// ---- common to every variant ----

#[test]
fn points_count_empty_squares_once_per_attacker() {
    let pos = play_all(Variant::Open, "K@a1 Q@h8 N@b3");
    // King a1: a2, b1, b2 (3). Knight b3: a1 is occupied; a5 c5 d4 d2 c1 (5).
    assert_eq!(pos.points(Color::White), 3 + 5);
    // Queen h8: rank 8 (7), h-file (7), the long diagonal up to the King (6).
    assert_eq!(pos.points(Color::Black), 7 + 7 + 6);
    let pos = play_all(Variant::Open, "K@a1 Q@h8 N@c3");
    // Knight c3 attacks b1 and a2, which the King attacks too: both count twice.
    assert_eq!(pos.points(Color::White), 3 + 8);
}

#[test]
fn sliders_stop_at_the_first_piece_of_either_colour() {
    let pos = play_all(Variant::Open, "K@h1 Q@a8 R@a1");
    // The rook sees a2..a7 (the queen blocks a8, occupied: no point) and b1..g1.
    assert_eq!(pos.points(Color::White), 3 + 6 + 6);
}

#[test]
fn a_piece_not_in_hand_is_refused() {
    let pos = play_all(Variant::Open, "K@a1 Q@h8");
    assert_eq!(
        pos.check(pl("K@d4")),
        Err(IllegalPlacement::NotInHand(
            Color::White,
            cheversi::Piece::King
        ))
    );
}

#[test]
fn an_occupied_square_is_refused() {
    let pos = play_all(Variant::Open, "K@a1");
    assert!(matches!(
        pos.check(pl("Q@a1")),
        Err(IllegalPlacement::Occupied(_))
    ));
}

#[test]
fn the_game_ends_after_sixteen_placements() {
    let pos = play_all(
        Variant::Open,
        "K@a1 Q@h8 Q@a8 K@h1 R@c3 R@c6 R@f3 R@f6 B@d4 B@d5 B@e4 B@e5 N@b2 N@b7 N@g2 N@g7",
    );
    assert!(pos.is_over());
    assert!(pos.legal_moves().is_empty());
    assert_eq!(pos.check(pl("N@d1")), Err(IllegalPlacement::GameOver));
}

// ---- standard ----

#[test]
fn standard_1_white_starts_with_the_king_anywhere() {
    let pos = Position::new(Variant::Standard);
    let moves = legal(&pos);
    assert_eq!(moves.len(), 64);
    assert!(moves.iter().all(|m| m.starts_with("K@")));
    assert!(rule_error(&pos, "Q@d4").contains("rule 1"));
}

#[test]
fn standard_2_every_later_piece_touches_a_piece() {
    let pos = play_all(Variant::Standard, "K@d4");
    assert!(pos.legal_moves().iter().all(|m| {
        let (df, dr) = (m.square.file() as i32 - 3, m.square.rank() as i32 - 3);
        df.abs().max(dr.abs()) == 1
    }));
    assert_eq!(pos.legal_moves().count(), 4 * 8);
    assert!(rule_error(&pos, "Q@a1").contains("rule 2"));
    // Touching any colour counts: White may touch Black's piece only.
    let pos = play_all(Variant::Standard, "K@a1 R@b2");
    assert!(pos.check(pl("R@c3")).is_ok());
}

#[test]
fn standard_3_blacks_king_comes_last_and_touches_whites_last_piece() {
    let pos = play_all(Variant::Standard, "K@d4");
    assert!(!legal(&pos).iter().any(|m| m.starts_with("K@")));
    assert!(rule_error(&pos, "K@d5").contains("rule 3"));
    let mut pos = play_all(Variant::Standard, HOLE_AT_A1);
    pos.play_checked(pl("N@c1")).unwrap();
    let mut moves = legal(&pos);
    moves.sort();
    // Black holds only its King; it must touch c1: b... d1 is the only empty neighbour.
    assert_eq!(moves, ["K@d1"]);
    assert!(rule_error(&pos, "K@h4").contains("rule 3"));
}

#[test]
fn standard_4_whites_eighth_piece_keeps_an_empty_neighbour() {
    let pos = play_all(Variant::Standard, HOLE_AT_A1);
    assert_eq!(pos.ply(), 14);
    // a1 touches a2, b1 and b2, but has no empty neighbour left.
    assert!(rule_error(&pos, "N@a1").contains("rule 4"));
    assert!(pos.check(pl("N@c1")).is_ok());
    // Earlier, a hole is fine.
    let pos = play_all(Variant::Standard, "K@b2 Q@a2 Q@b1");
    assert!(pos.check(pl("R@a1")).is_ok());
}

#[test]
fn standard_5_bishops_on_different_colours() {
    let pos = play_all(
        Variant::Standard,
        "K@b2 Q@a2 Q@b1 R@c3 R@c2 R@d3 R@d2 B@e3 B@e2 B@f3",
    );
    // White's bishop is on e2 (light); g2 is light too.
    assert!(rule_error(&pos, "B@g2").contains("rule 5"));
    assert!(pos.check(pl("B@f2")).is_ok());
}

#[test]
fn standard_6_a_queen_calls_the_opponents_queen() {
    let pos = play_all(Variant::Standard, "K@b2 Q@a2");
    assert!(legal(&pos).iter().all(|m| m.starts_with("Q@")));
    assert!(rule_error(&pos, "R@c2").contains("rule 6"));
    // White's Queen calls Black's as well.
    let pos = play_all(Variant::Standard, "K@d4 R@d5 Q@e4");
    assert!(legal(&pos).iter().all(|m| m.starts_with("Q@")));
    // Once both Queens are down, nothing is called.
    let pos = play_all(Variant::Standard, "K@d4 R@d5 Q@e4 Q@c4");
    assert!(legal(&pos).iter().any(|m| m.starts_with("R@")));
}

/// Rule 7 never changes the moves in `standard`: a touching placement always
/// exists (proof in README.md, "Rules notes"). Checked on random games.
#[test]
fn standard_7_a_touching_placement_always_exists() {
    let mut x = 7u64;
    for _ in 0..2000 {
        let mut pos = Position::new(Variant::Standard);
        while !pos.is_over() {
            let moves = pos.legal_moves().to_vec();
            assert!(!moves.is_empty());
            let occ = pos.occupied();
            assert!(occ.is_empty() || moves.iter().all(|m| occ.adjacent().has(m.square)));
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            pos.play(moves[(x % moves.len() as u64) as usize]);
        }
    }
}

// ---- open ----

#[test]
fn open_1_white_king_then_black_queen() {
    let pos = Position::new(Variant::Open);
    assert_eq!(pos.legal_moves().count(), 64);
    assert!(rule_error(&pos, "R@d4").contains("King"));
    let pos = play_all(Variant::Open, "K@a1");
    assert_eq!(pos.legal_moves().count(), 63);
    assert!(rule_error(&pos, "R@h8").contains("Queen"));
}

#[test]
fn open_2_then_anything_anywhere() {
    let pos = play_all(Variant::Open, "K@a1 Q@h8");
    // Q, 2R, 2B, 2N in hand: four kinds on 62 squares, no touching, no colours.
    assert_eq!(pos.legal_moves().count(), 4 * 62);
    let pos = play_all(Variant::Open, "K@a1 Q@h8 B@c1 B@a8 B@e1");
    assert!(
        pos.check(pl("Q@d5")).is_err(),
        "Black's Queen is already down"
    );
    assert_eq!(pos.ply(), 5);
}

// ---- original ----

#[test]
fn original_positions_that_cannot_arise_are_refused() {
    // Issue 23, E1: Black's Queen on h1 followed no White piece (the King
    // on d4 attacked empty squares, h1 not among them).
    for fen in ["8/8/8/8/3K4/8/8/7q w h1", "8/8/8/8/3N4/8/8/7q w h1"] {
        let e = Position::from_fen(fen, Variant::Original).unwrap_err();
        assert!(
            e.to_string().contains("cannot arise in original"),
            "{fen}: {e}"
        );
    }
    // Followed the King (e5), the Knight (e2), or the first piece.
    for fen in [
        "8/8/8/4q3/3K4/8/8/8 w e5",
        "8/8/8/8/3N4/8/4q3/8 w e2",
        "8/8/8/8/8/8/8/7Q b h1",
    ] {
        assert!(Position::from_fen(fen, Variant::Original).is_ok(), "{fen}");
    }
}

#[test]
fn original_1_any_first_piece_anywhere() {
    assert_eq!(
        Position::new(Variant::Original).legal_moves().count(),
        5 * 64
    );
}

#[test]
fn original_2_follow_the_square_the_last_piece_attacks() {
    let pos = play_all(Variant::Original, "N@a1");
    let mut sq: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| m.square.to_string())
        .collect();
    sq.sort();
    sq.dedup();
    assert_eq!(sq, ["b3", "c2"]);
    assert!(rule_error(&pos, "Q@d4").contains("rule 2"));
}

#[test]
fn original_3_with_no_attacked_empty_square_anywhere() {
    // The knight on a1 sees only b3 and c2, both taken.
    let pos = play_all(Variant::Original, "R@c1 R@c2 R@c3 N@b3 N@a1");
    assert_eq!(pos.legal_moves().count(), 5 * (64 - 5));
    assert!(pos.check(pl("Q@h8")).is_ok());
}

#[test]
fn original_4_no_bishop_colour_queen_call_or_king_rule() {
    let pos = play_all(Variant::Original, "Q@d4 Q@d5 B@d6 K@e7 B@f8");
    assert_eq!(pos.ply(), 5);
    assert!(pos.check(pl("K@e7")).is_err());
}

// ---- position strings that cannot arise ----

fn unreachable(fen: &str, v: Variant) -> String {
    match Position::from_fen(fen, v) {
        Err(PositionError::Unreachable(_, why)) => why.to_string(),
        other => panic!("{fen}: expected Unreachable, got {other:?}"),
    }
}

#[test]
fn refused_positions_say_why() {
    let s = Variant::Standard;
    assert!(
        unreachable("8/8/8/8/3q4/8/8/R7 w d4", s).contains("King"),
        "no White King"
    );
    assert!(
        unreachable("8/8/8/8/3Kk3/8/8/8 w e4", s).contains("last"),
        "Black King early"
    );
    assert!(unreachable("8/8/8/8/3K4/8/8/7r w h1", s).contains("touch"));
    assert!(unreachable("8/8/8/3r4/1BKr4/2B5/8/8 b c3", s).contains("Bishops"));
    assert!(unreachable("8/8/8/3r4/3KQ3/8/8/8 b d4", s).contains("queen call"));
    assert!(unreachable("8/8/8/8/8/3R4/8/8 b d3", Variant::Open).contains("King"));
    assert!(matches!(
        Position::from_fen("8/8/8/8/3KR3/8/8/8 b e4", s),
        Err(PositionError::SideToMove { .. })
    ));
    assert!(matches!(
        Position::from_fen("8/8/8/8/3KQQ2/2qq4/8/8 w c3", s),
        Err(PositionError::TooMany(..))
    ));
    assert!(Position::from_fen("8/8/8/8/3Kq3/8/8/8 w e4", s).is_ok());
    assert!(
        Position::from_fen("8/8/8/8/3K4/8/8/7r w h1", Variant::Open).is_err(),
        "open: Black's first is the Queen"
    );
    assert!(Position::from_fen("8/8/8/8/3K4/8/8/7q w h1", Variant::Open).is_ok());
    assert!(Position::from_fen("8/8/8/8/3R4/8/8/3q4 w d1", Variant::Original).is_ok());
    assert!(Position::from_fen("8/8/8/8/3R4/8/8/7q w h1", Variant::Original).is_err());
}

#[test]
fn errors_read_well() {
    let pos = Position::new(Variant::Standard);
    let e = pos.check(pl("Q@d4")).unwrap_err().to_string();
    assert_eq!(
        e,
        "Q@d4 is illegal: White's first placement must be the King (rule 1)"
    );
    let e = Position::from_fen("8/8/8/8/3K4/8/8/8 w d4", Variant::Standard)
        .unwrap_err()
        .to_string();
    assert_eq!(e, "1 White and 0 Black pieces cannot have White to move");
}
