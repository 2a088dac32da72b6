//! PGN in and out, in the form `cheversi-match` writes: the seven standard
//! tags plus `Variant`, the points and `SetUp`/`FEN`; placements `K@d4`,
//! with `{comments}`, kept with the placement they follow, and variations
//! `( ... )` read into the game's tree and written from it.

use crate::game::{Game, Outcome};
use cheversi::{Color, Variant};

/// The tags and the game of the first game in `text`.
#[derive(Debug)]
pub struct Imported {
    /// The game, its cursor at the end.
    pub game: Game,
    /// `White` and `Black` tags, if given.
    pub names: [Option<String>; 2],
}

/// Reads the first game of a PGN text and replays it; a game without a
/// `Variant` tag is played in `default`.
pub fn import(text: &str, default: Variant) -> Result<Imported, String> {
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut rest = text.trim_start_matches('\u{feff}');
    loop {
        rest = rest.trim_start();
        if !rest.starts_with('[') {
            break;
        }
        let end = tag_end(rest).ok_or("a tag is not closed with ']'")?;
        let (key, value) = parse_tag(&rest[1..end])?;
        tags.push((key, value));
        rest = &rest[end + 1..];
    }
    let tag = |k: &str| {
        tags.iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(k))
            .map(|(_, v)| v.clone())
    };
    let variant: Variant = match tag("Variant") {
        Some(v) => variant_name(&v).parse().map_err(|e| format!("{e}"))?,
        None => default,
    };
    let tokens = movetext(rest)?;
    if tags.is_empty() && tokens.is_empty() {
        return Err("there is no PGN game in the text".into());
    }
    let start = tag("FEN").unwrap_or_default();
    let mut game = Game::from_text(variant, &start).map_err(|e| format!("FEN tag: {e}"))?;
    replay(&mut game, tokens)?;
    Ok(Imported {
        game,
        names: [tag("White"), tag("Black")],
    })
}

/// The rules' name in a `Variant` tag: `cheversi-match` writes `Cheversi
/// standard` (so that chess programs do not take it for chess); a bare
/// `standard` is read too.
fn variant_name(tag: &str) -> &str {
    let tag = tag.trim();
    match tag.get(..9) {
        Some(p) if p.eq_ignore_ascii_case("cheversi ") => tag[9..].trim(),
        _ => tag,
    }
}

/// The index of the `]` closing the tag that `s` starts, outside quotes.
fn tag_end(s: &str) -> Option<usize> {
    let mut quoted = false;
    let mut escaped = false;
    for (i, c) in s.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            ']' if !quoted => return Some(i),
            _ => {}
        }
    }
    None
}

fn parse_tag(inner: &str) -> Result<(String, String), String> {
    let inner = inner.trim();
    let (key, value) = inner
        .split_once(char::is_whitespace)
        .ok_or_else(|| format!("tag '{}' has no value", cut(inner)))?;
    let value = value.trim();
    let value = value
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .ok_or_else(|| format!("tag {key}: the value must be quoted"))?;
    Ok((
        key.to_string(),
        value.replace("\\\"", "\"").replace("\\\\", "\\"),
    ))
}

/// A piece of movetext.
#[derive(Debug, PartialEq)]
enum Token {
    Placement(String),
    Comment(String),
    Open,
    Close,
}

/// Plays the tokens into `game`: a variation replaces the placement before
/// it; the game ends shown at the end of its main line.
fn replay(game: &mut Game, tokens: Vec<Token>) -> Result<(), String> {
    // The position at (`None`: the start) and the one before the last placement.
    let (mut at, mut before): (Option<usize>, Option<usize>) = (None, None);
    let mut played_any = false;
    let mut stack = Vec::new();
    let mut count = 0;
    for token in tokens {
        match token {
            Token::Placement(word) => {
                count += 1;
                game.goto_node(at);
                game.play_text(&word)
                    .map_err(|e| format!("placement {count} ({word}): {e}"))?;
                before = at;
                at = game.shown_node();
                played_any = true;
            }
            Token::Comment(text) => {
                if let Some(id) = at {
                    game.goto_node(Some(id));
                    let n = game.cursor();
                    let old = game.comments().get(n - 1).cloned().flatten();
                    let text = match old {
                        Some(o) => format!("{o} {text}"),
                        None => text,
                    };
                    game.set_comment(n, Some(text));
                }
            }
            Token::Open => {
                if !played_any || at.is_none() {
                    return Err("a variation '(' before any placement".into());
                }
                stack.push((at, before));
                at = before;
            }
            Token::Close => {
                (at, before) = stack.pop().ok_or("a ')' closes no variation")?;
            }
        }
    }
    if !stack.is_empty() {
        return Err("a variation is not closed with ')'".into());
    }
    game.goto_node(None);
    game.goto(game.line().len());
    Ok(())
}

/// The movetext's placements, comments and variations, up to its result or
/// the next game.
fn movetext(text: &str) -> Result<Vec<Token>, String> {
    let mut tokens = Vec::new();
    let mut chars = text.chars();
    let mut word = String::new();
    let mut done = false;
    let flush = |word: &mut String, tokens: &mut Vec<Token>, done: &mut bool| {
        let w = std::mem::take(word);
        if matches!(w.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*") {
            *done = true;
            return;
        }
        // Move numbers, also glued to their placement: `1.`, `3...`, `1.K@d4`.
        let w = w.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        if !w.is_empty() && !w.starts_with('$') {
            tokens.push(Token::Placement(w.to_string()));
        }
    };
    while let Some(c) = chars.next() {
        if done {
            break;
        }
        match c {
            '{' => {
                flush(&mut word, &mut tokens, &mut done);
                let mut comment = String::new();
                let mut closed = false;
                for c in chars.by_ref() {
                    if c == '}' {
                        closed = true;
                        break;
                    }
                    comment.push(c);
                }
                if !closed {
                    return Err("a comment is not closed with '}'".into());
                }
                let comment = comment.split_whitespace().collect::<Vec<_>>().join(" ");
                if !comment.is_empty() {
                    tokens.push(Token::Comment(comment));
                }
            }
            ';' => {
                flush(&mut word, &mut tokens, &mut done);
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '(' | ')' => {
                flush(&mut word, &mut tokens, &mut done);
                tokens.push(if c == '(' { Token::Open } else { Token::Close });
            }
            '[' if word.is_empty() => break,
            c if c.is_whitespace() => flush(&mut word, &mut tokens, &mut done),
            c => word.push(c),
        }
    }
    flush(&mut word, &mut tokens, &mut done);
    Ok(tokens)
}

fn cut(s: &str) -> String {
    s.chars().take(40).collect()
}

/// The PGN text of `game`: its main line, variations in `( ... )`, ending
/// in a newline.
pub fn export(game: &Game, names: [&str; 2]) -> String {
    let mut main = game.clone();
    main.goto_node(None);
    let end = main.last_position();
    let outcome = Outcome::of(&end);
    let result = outcome.map_or("*", Outcome::pgn);
    let mut out = String::new();
    let mut tag = |k: &str, v: &str| {
        let v = v.replace('\\', "\\\\").replace('"', "\\\"");
        out.push_str(&format!("[{k} \"{v}\"]\n"));
    };
    tag("Event", "cheversi-web");
    tag("Site", "cheversi-web");
    tag("Date", &today());
    tag("Round", "-");
    tag("White", names[0]);
    tag("Black", names[1]);
    tag("Result", result);
    tag("Variant", &format!("Cheversi {}", game.variant().name()));
    if outcome.is_some() {
        tag("WhitePoints", &end.points(Color::White).to_string());
        tag("BlackPoints", &end.points(Color::Black).to_string());
    }
    tag("PlyCount", &main.line().len().to_string());
    if let Some(fen) = game.start_fen() {
        tag("SetUp", "1");
        tag("FEN", fen);
    }
    out.push('\n');
    let mut words: Vec<String> = Vec::new();
    write_line(game, game.top(), game.start_ply().into(), true, &mut words);
    words.push(result.to_string());
    let mut line = String::new();
    for w in words {
        if !line.is_empty() && line.len() + 1 + w.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() && !line.ends_with('(') && w != ")" {
            line.push(' ');
        }
        line.push_str(&w);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// Writes the line that starts with `choices[0]` (its alternatives
/// `choices[1..]` as variations after it) down its main continuation.
fn write_line(game: &Game, choices: &[usize], ply: usize, number: bool, words: &mut Vec<String>) {
    let (mut choices, mut ply, mut number) = (choices.to_vec(), ply, number);
    while let Some(&main) = choices.first() {
        let Some(node) = game.node(main) else { return };
        write_placement(game, main, ply, number, words);
        number = node.comment.is_some();
        for &alt in &choices[1..] {
            words.push("(".into());
            write_placement(game, alt, ply, true, words);
            if let Some(n) = game.node(alt) {
                write_line(game, &n.children, ply + 1, n.comment.is_some(), words);
            }
            words.push(")".into());
            number = true;
        }
        choices = node.children.clone();
        ply += 1;
    }
}

fn write_placement(game: &Game, id: usize, ply: usize, number: bool, words: &mut Vec<String>) {
    let Some(node) = game.node(id) else { return };
    if ply.is_multiple_of(2) {
        words.push(format!("{}.", ply / 2 + 1));
    } else if number {
        words.push(format!("{}...", ply / 2 + 1));
    }
    words.push(node.placement.to_string());
    if let Some(c) = &node.comment {
        // `}` cannot appear inside a PGN comment.
        words.push(format!("{{{}}}", c.replace('}', ")")));
    }
}

/// Today's date (UTC) as PGN writes it, `2026.12.05`.
fn today() -> String {
    let d = time::OffsetDateTime::now_utc().date();
    format!("{:04}.{:02}.{:02}", d.year(), u8::from(d.month()), d.day())
}

#[cfg(test)]
mod tests {
    use super::*;
    use cheversi_match::game::{Played, PlayedMove};
    use cheversi_match::pgn::{PgnHeader, game_pgn};
    use cheversi_match::termination::{GameResult, Termination};

    const GAME: &str =
        "K@b2 R@a1 R@c1 Q@c3 Q@d3 B@d1 R@b4 N@e4 B@a2 B@e3 B@e5 R@f6 N@c5 N@c4 N@f5 K@g4";

    #[test]
    fn a_game_written_by_cheversi_match_is_replayed() {
        let moves = GAME
            .split(' ')
            .enumerate()
            .map(|(i, m)| PlayedMove {
                placement: m.parse().unwrap(),
                comment: (i > 1).then(|| "+0.10/3 0.010s".to_string()),
            })
            .collect();
        let played = Played {
            start_fen: None,
            start_ply: 0,
            moves,
            result: GameResult::BlackWins,
            termination: Termination::Normal,
            points: [44, 45],
            detail: None,
        };
        let h = PgnHeader {
            event: "e",
            round: 1,
            white: "deep \"d4\"",
            black: "shallow",
            variant: "standard",
            limits: [None, None],
        };
        let text = game_pgn(&h, &played, false) + &game_pgn(&h, &played, true);
        assert!(text.contains("[Variant \"Cheversi standard\"]"), "{text}");
        let got = import(&text, Variant::Standard).unwrap();
        assert_eq!(got.game.moves().len(), 16);
        assert_eq!(got.names[0].as_deref(), Some("deep \"d4\""));
        let end = got.game.current();
        assert_eq!(
            [end.points(Color::White), end.points(Color::Black)],
            [44, 45]
        );
    }

    #[test]
    fn export_then_import_keeps_the_game_and_its_start() {
        let g = Game::from_text(
            Variant::Standard,
            "8/8/8/4q3/3K4/8/8/8 w e5 moves Q@f5 R@g6",
        )
        .unwrap();
        let text = export(&g, ["me", "cheversi"]);
        assert!(
            text.contains("[FEN \"8/8/8/4q3/3K4/8/8/8 w e5\"]"),
            "{text}"
        );
        assert!(text.contains("2. Q@f5 R@g6 *"), "{text}");
        let back = import(&text, Variant::Standard).unwrap().game;
        assert_eq!(back.moves(), g.moves());
        assert_eq!(back.start_fen(), g.start_fen());
    }

    #[test]
    fn a_bad_game_is_refused_with_the_placement_at_fault() {
        let err = import(
            "[Variant \"standard\"]\n\n1. K@d4 {x} Q@a1 *",
            Variant::Standard,
        )
        .unwrap_err();
        assert!(
            err.contains("placement 2 (Q@a1)") && err.contains("touch"),
            "{err}"
        );
        assert!(import("[Variant \"chess\"]\n\n1. K@d4", Variant::Standard).is_err());
        let open = import(
            "[Variant \"Cheversi open\"]\n\n1. K@d4 Q@a1 *",
            Variant::Standard,
        )
        .unwrap();
        assert_eq!(open.game.variant(), Variant::Open);
        assert!(import("[Event \"x\"\n1. K@d4", Variant::Standard).is_err());
        assert!(import("1. K@d4 (K@e4 *", Variant::Standard).is_err());
        assert!(import("1. K@d4 ) *", Variant::Standard).is_err());
        assert!(import("( 1. K@d4 ) *", Variant::Standard).is_err());
    }

    #[test]
    fn comments_are_kept_and_an_empty_or_broken_text_is_refused() {
        let text = "1. K@d4 {book} Q@e5 {-4.27/2\n 0.024s} 2. Q@f5 *";
        let g = import(text, Variant::Standard).unwrap().game;
        assert_eq!(
            g.comments(),
            [
                Some("book".to_string()),
                Some("-4.27/2 0.024s".to_string()),
                None
            ]
        );
        let out = export(&g, ["a", "b"]);
        assert!(
            out.contains("1. K@d4 {book} 1... Q@e5 {-4.27/2 0.024s} 2. Q@f5 *"),
            "{out}"
        );
        assert!(!out.contains("????"), "{out}");
        let back = import(&out, Variant::Standard).unwrap().game;
        assert_eq!(back.comments(), g.comments());
        for bad in ["", "   \n ", "1. K@d4 {unclosed"] {
            assert!(import(bad, Variant::Standard).is_err(), "{bad:?}");
        }
        let open = import("1. K@d4 Q@a1", Variant::Open).unwrap().game;
        assert_eq!(open.variant(), Variant::Open);
    }

    #[test]
    fn variations_are_read_and_written_back() {
        let text = "1. K@d4 Q@e5 (1... R@c3 {sharp} 2. R@b2 (2. Q@e5) B@e3) 2. Q@f5 *";
        let g = import(text, Variant::Standard).unwrap().game;
        assert_eq!(g.moves().len(), 3, "shown at the main line's end");
        let k = g.node(g.top()[0]).unwrap();
        assert_eq!(k.children.len(), 2);
        let out = export(&g, ["a", "b"]);
        assert!(
            out.contains("1. K@d4 Q@e5 (1... R@c3 {sharp} 2. R@b2 (2. Q@e5) 2... B@e3) 2. Q@f5 *"),
            "{out}"
        );
        let back = import(&out, Variant::Standard).unwrap().game;
        assert_eq!(export(&back, ["a", "b"]), out);
        // A variation's fault names its placement.
        let err = import("1. K@d4 Q@e5 (1... Q@a1) *", Variant::Standard).unwrap_err();
        assert!(err.contains("placement 3 (Q@a1)"), "{err}");
    }
}
