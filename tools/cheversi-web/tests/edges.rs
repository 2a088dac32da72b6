//! The rough edges a new player met (issue 35's fourteen), each seen in
//! headless Chromium where a browser can see it: what the page says, where
//! things are drawn, what stays picked.

mod support;

use fantoccini::{Client, Locator};
use support::*;

/// The notice line's text.
async fn notice(c: &Client) -> String {
    text(c, "#notice").await
}

/// Puts `text` in the import box.
async fn set_box(c: &Client, value: &str) {
    c.execute(
        "document.getElementById('io').value = arguments[0]",
        vec![value.into()],
    )
    .await
    .unwrap();
}

async fn select(c: &Client, id: &str, value: &str) {
    c.find(Locator::Id(id))
        .await
        .unwrap()
        .select_by_value(value)
        .await
        .unwrap();
}

/// Waits until the notice says something containing `part`.
async fn wait_notice(c: &Client, part: &str) -> String {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let t = notice(c).await;
        if t.contains(part) {
            return t;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no notice with {part:?}; the notice says {t:?}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// Plays `placement` by clicks (piece, then square) and waits for `n` moves.
async fn place(c: &Client, color: &str, placement: &str, n: usize) {
    click(c, &format!("#hand-{color}-{}", &placement[..1])).await;
    click(c, &format!("#sq-{}", &placement[2..])).await;
    wait_moves(c, n, 20).await;
}

async fn selected_pieces(c: &Client) -> Vec<String> {
    let v = js(
        c,
        "return [...document.querySelectorAll('.hand-piece.selected')].map(b => b.id)",
    )
    .await;
    serde_json::from_value(v).unwrap()
}

async fn page(extra: &[&str]) -> Option<(Server, Browser)> {
    open_page(extra, "").await.map(|(_, srv, b)| (srv, b))
}

/// Items 1, 2, 8, 9, 10 and 14: loading, the notice line, what stays
/// picked, the queen call, the variant list, PGN comments.
#[tokio::test]
async fn loading_notices_picking_and_pgn() {
    let _one = ONE_BROWSER.lock().await;
    let Some((_srv, b)) = page(&[]).await else {
        return;
    };
    let c = &b.client;
    select(c, "black-player", "human").await;
    place(c, "white", "K@b2", 1).await;

    // 8: White's King placed, nothing of Black's is shown picked.
    assert_eq!(selected_pieces(c).await, Vec::<String>::new());
    // 2: a piece picked is said; after a take-back the line says what is
    // picked then (White's King, the only piece of the first placement).
    click(c, "#hand-black-R").await;
    assert_eq!(notice(c).await, "Rook picked: click a marked square");
    click(c, "#takeback").await;
    wait_moves(c, 0, 10).await;
    assert_eq!(notice(c).await, "King picked: click a marked square");
    assert_eq!(selected_pieces(c).await, ["hand-white-K"]);
    place(c, "white", "K@b2", 1).await;

    // 1: an empty box, spaces, an unclosed comment: said, and the game stays.
    for (button, content, part) in [
        ("#load-position", "", "nothing to load"),
        ("#load-pgn", "   \n  ", "nothing to load"),
        ("#load-pgn", "1. K@d4 {unclosed", "not closed"),
        ("#load-position", "not a position", "bad position string"),
    ] {
        set_box(c, content).await;
        click(c, button).await;
        let said = wait_notice(c, part).await;
        assert_eq!(moves(c).await, ["K@b2"], "{button} {content:?}: {said}");
    }
    // The server refuses an empty text too, whatever sends it.
    c.execute(
        "cheversi.send(JSON.stringify({type: 'load_position', variant: 'standard', text: '  '}))",
        vec![],
    )
    .await
    .unwrap();
    wait_notice(c, "the box is empty").await;
    assert_eq!(moves(c).await, ["K@b2"]);
    // 2: a good import after a bad one clears the old error.
    set_box(
        c,
        "[Variant \"Cheversi standard\"]\n\n1. K@d4 {book} Q@e5 {-4.27/2 0.024s} *",
    )
    .await;
    click(c, "#load-pgn").await;
    wait_moves(c, 2, 10).await;
    // (White is bound by the queen call: its Queen is picked for it.)
    assert_eq!(notice(c).await, "Queen picked: click a marked square");
    // 14: the comments are shown, and exported with today's date.
    let comments = js(
        c,
        "return [...document.querySelectorAll('#moves .comment')].map(e => e.textContent)",
    )
    .await;
    assert_eq!(comments, serde_json::json!(["book", "-4.27/2 0.024s"]));
    let pgn = exported_pgn(c).await;
    assert!(
        pgn.contains("1. K@d4 {book} 1... Q@e5 {-4.27/2 0.024s} *"),
        "{pgn}"
    );
    assert!(!pgn.contains("????"), "{pgn}");
    // 2: "nothing to take back" goes with the next new game.
    click(c, "#new").await;
    wait_moves(c, 0, 10).await;
    click(c, "#takeback").await;
    wait_notice(c, "nothing to take back").await;
    click(c, "#new").await;
    wait_notice(c, "King picked").await;

    // 9: the queen call. White's Queen placed while Black holds its own:
    // Black's other pieces (the King, last anyway) are marked as blocked and say the rule.
    place(c, "white", "K@d4", 1).await;
    place(c, "black", "R@e5", 2).await;
    place(c, "white", "Q@c3", 3).await;
    let blocked = js(
        c,
        "return [...document.querySelectorAll('#hand-black .hand-piece.blocked')].map(b => b.id)",
    )
    .await;
    assert_eq!(
        blocked,
        serde_json::json!([
            "hand-black-K",
            "hand-black-R",
            "hand-black-B",
            "hand-black-N"
        ])
    );
    // The Queen, the only piece that may go, is picked; its squares marked.
    assert_eq!(selected_pieces(c).await, ["hand-black-Q"]);
    let queen_squares = highlighted(c).await;
    assert!(!queen_squares.is_empty());
    click(c, "#hand-black-R").await;
    let said = wait_notice(c, "rule 6").await;
    assert!(
        said.starts_with("the Rook cannot be placed now: queen call"),
        "{said}"
    );
    assert_eq!(
        highlighted(c).await,
        queen_squares,
        "no square marked for the Rook"
    );
    let label = js(
        c,
        "return document.getElementById('hand-black-R').getAttribute('aria-label')",
    )
    .await;
    assert!(
        label.as_str().unwrap().contains("cannot be placed now"),
        "{label}"
    );

    // 10: choosing a variant in the list starts it.
    select(c, "variant", "open").await;
    wait_moves(c, 0, 10).await;
    wait_for(10, "an open game", || async {
        (js(c, "return cheversi.state().variant").await == "open").then_some(())
    })
    .await;
    // ... and a PGN without a Variant tag is read in the variant chosen
    // (Q@a1 does not touch the King: legal in open only).
    set_box(c, "1. K@d4 Q@a1 *").await;
    click(c, "#load-pgn").await;
    wait_moves(c, 2, 10).await;
    assert_eq!(js(c, "return cheversi.state().variant").await, "open");
    b.client.close().await.ok();
}

/// Item 3: refused settings say why beside Apply and go back to the
/// engine's; a good Apply says what took. Items 6 and 7: analysis shows
/// time between depths, and its label names the position of its lines.
#[tokio::test]
async fn settings_and_analysis_say_what_they_do() {
    let _one = ONE_BROWSER.lock().await;
    let Some((_srv, b)) = page(&[]).await else {
        return;
    };
    let c = &b.client;
    let threads = c.find(Locator::Id("threads")).await.unwrap();
    for (value, part) in [("1000", "not 1000"), ("", "empty"), ("-5", "not -5")] {
        threads.clear().await.unwrap();
        if !value.is_empty() {
            threads.send_keys(value).await.unwrap();
        }
        click(c, "#apply").await;
        let note = text(c, "#settings-note").await;
        assert!(
            note.starts_with("threads must be a whole number from 1 to 64") && note.contains(part),
            "{note}"
        );
        assert!(note.contains("the engine keeps"), "{note}");
        assert_eq!(threads.prop("value").await.unwrap().as_deref(), Some("1"));
    }
    set_limit(c, "depth", 3).await;
    let note = wait_for(10, "the settings applied", || async {
        let t = text(c, "#settings-note").await;
        t.starts_with("applied").then_some(t)
    })
    .await;
    assert!(note.contains("depth 3"), "{note}");
    // The note sits with the engine panel's Apply, not under the board.
    let same_panel = js(
        c,
        "return document.getElementById('settings-note').closest('.panel') === document.getElementById('apply').closest('.panel')",
    )
    .await;
    assert_eq!(same_panel, true);

    // 6: while the engine searches, the time goes on between its lines.
    click(c, "#analyse").await;
    let first = wait_for(10, "a running analysis", || async {
        let t = text(c, "#an-stats").await;
        t.contains(" s").then_some(t)
    })
    .await;
    tokio::time::sleep(std::time::Duration::from_millis(700)).await;
    let later = text(c, "#an-stats").await;
    assert_ne!(first, later, "the elapsed time moves");
    click(c, "#analyse").await;

    // 7: in a game against the engine with analysis on, the label and the
    // lines under it are of the same ply, at every moment looked at.
    set_limit(c, "movetime", 300).await;
    click(c, "#analyse").await;
    let mut n = 0;
    for placement in ["K@d4", "Q@c3", "R@e3"] {
        let before = moves(c).await.len();
        let piece = &placement[..1];
        click(c, &format!("#hand-white-{piece}")).await;
        let squares = highlighted(c).await;
        click(c, &format!("#sq-{}", squares[0])).await;
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(3);
        while std::time::Instant::now() < deadline {
            let v = js(
                c,
                "const w = document.getElementById('an-what').textContent; const r = document.querySelector('#an-lines tr.line td.pv'); return [w, r ? r.textContent.trim() : '']",
            )
            .await;
            let (what, pv) = (v[0].as_str().unwrap(), v[1].as_str().unwrap());
            if let (Some(ply), false) = (what.split("ply ").nth(1), pv.is_empty()) {
                let ply: u32 = ply.trim().parse().unwrap();
                let num = if ply.is_multiple_of(2) {
                    format!("{}.", ply / 2 + 1)
                } else {
                    format!("{}…", ply / 2 + 1)
                };
                assert!(pv.starts_with(&num), "label {what:?} above line {pv:?}");
                n += 1;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        wait_moves(c, before + 2, 20).await;
        let _ = placement;
    }
    assert!(n > 5, "label and lines compared {n} times");
    b.client.close().await.ok();
}

/// Item 12: a page beyond the server's limit is covered with the reason
/// and a Try again that works once a page closes.
#[tokio::test]
async fn a_full_server_says_so_and_lets_the_page_try_again() {
    let _one = ONE_BROWSER.lock().await;
    let Some((srv, b)) = page(&["--max-sessions", "1"]).await else {
        return;
    };
    let c = &b.client;
    let first = c.window().await.unwrap();
    let second = c.new_window(true).await.unwrap();
    c.switch_to_window(second.handle.clone()).await.unwrap();
    c.goto(&srv.url).await.unwrap();
    wait_shown(c, "blocker", 10).await;
    let blocker = c.find(Locator::Id("blocker")).await.unwrap();
    let said = text(c, "#blocker-text").await;
    assert!(
        said.contains("too many pages are open (at most 1)"),
        "{said}"
    );
    // The cover keeps the board out of reach.
    let covered = js(
        c,
        "const r = document.getElementById('board').getBoundingClientRect(); return document.elementFromPoint(r.x + 20, r.y + 20).closest('#blocker') !== null",
    )
    .await;
    assert_eq!(covered, true);
    click(c, "#blocker-retry").await;
    wait_for(5, "still busy", || async {
        blocker.is_displayed().await.unwrap_or(false).then_some(())
    })
    .await;
    // The first page goes; now Try again gets an engine.
    c.switch_to_window(first).await.unwrap();
    c.goto("about:blank").await.unwrap();
    c.switch_to_window(second.handle.clone()).await.unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    click(c, "#blocker-retry").await;
    wait_ready(c, 20).await;
    assert!(!blocker.is_displayed().await.unwrap());
    b.client.close().await.ok();
}

async fn select_players(c: &Client, white: &str, black: &str) {
    select(c, "white-player", white).await;
    select(c, "black-player", black).await;
}

/// Items 4, 5 and 11: playing Black, your hand is at the bottom (and flip
/// moves the hands); the board's squares fit its frame and the end screen
/// covers it exactly; on a phone the board takes the width.
#[tokio::test]
async fn the_board_and_hands_sit_where_they_belong() {
    let _one = ONE_BROWSER.lock().await;
    let Some((_srv, b)) = page(&[]).await else {
        return;
    };
    let c = &b.client;
    set_box(c, FINISHED).await;
    click(c, "#load-pgn").await;
    wait_moves(c, 16, 10).await;
    select_players(c, "engine", "human").await;
    for (width, height, name) in [(1180, 860, "desktop"), (390, 844, "phone")] {
        set_viewport(c, width, height).await;
        let inner = js(c, "return [innerWidth, innerHeight]").await;
        let (vw, vh) = (inner[0].as_f64().unwrap(), inner[1].as_f64().unwrap());
        if !js(
            c,
            "return document.getElementById('left').classList.contains('flipped')",
        )
        .await
        .as_bool()
        .unwrap()
        {
            click(c, "#flip").await;
        }
        // 4: Black (the human) at the bottom, turned board and hands.
        let board = rect(c, "#board").await;
        let (top, bottom) = (rect(c, "#hand-white").await, rect(c, "#hand-black").await);
        assert!(
            bottom[1] >= board[1] + board[3],
            "{name}: Black's hand below the board"
        );
        assert!(
            top[1] + top[3] <= board[1],
            "{name}: White's hand above the board"
        );
        // 5: the h file inside the frame, the end screen's shade over all of it.
        for sq in ["#sq-a1", "#sq-h8", "#sq-a8", "#sq-h1"] {
            let r = rect(c, sq).await;
            assert!(
                r[0] >= board[0] + 2.5 && r[0] + r[2] <= board[0] + board[2] - 2.5,
                "{name}: {sq} {r:?} inside the board {board:?}"
            );
        }
        let end = rect(c, "#end").await;
        for k in 0..4 {
            assert!(
                (end[k] - board[k]).abs() < 0.6,
                "{name}: the shade {end:?} over the board {board:?}"
            );
        }
        let left = rect(c, "#left").await;
        assert!(
            left[2] + 0.5 >= board[2],
            "{name}: the board's column holds it"
        );
        js(c, "window.scrollTo(0, 0)").await;
        screenshot(c, &format!("{name}-end-as-black.png")).await;
        if name == "phone" {
            // 11: the board takes the width; panels no wider; thumb-sized
            // hand buttons; moves and Take back without scrolling.
            assert!(
                board[2] >= vw - 24.0 && board[0] >= 0.0 && board[0] + board[2] <= vw,
                "board {board:?} in {vw}"
            );
            let right = rect(c, "#right").await;
            assert!(right[2] <= vw, "panels {right:?} in {vw}");
            let scroll = js(c, "return document.documentElement.scrollWidth").await;
            assert!(
                scroll.as_f64().unwrap() <= vw,
                "no sideways scrolling: {scroll}"
            );
            for piece in ["#hand-black-Q", "#hand-white-N"] {
                let r = rect(c, piece).await;
                assert!(r[2] >= 44.0 && r[3] >= 44.0, "{piece}: {r:?}");
            }
            let tb = rect(c, "#takeback").await;
            assert!(tb[1] + tb[3] <= vh, "Take back {tb:?} within {vh}");
            let ml = rect(c, "#moves").await;
            assert!(
                ml[1] + 20.0 <= vh,
                "the move list {ml:?} starts within {vh}"
            );
            let (w, h) = screenshot(c, "phone-end-as-black.png").await;
            assert_eq!((w, h), (390, 844), "the screenshot's size");
        }
        // Flip: the hands follow the board.
        click(c, "#end-close").await;
        click(c, "#flip").await;
        let board = rect(c, "#board").await;
        let white = rect(c, "#hand-white").await;
        assert!(
            white[1] >= board[1] + board[3],
            "{name}: flipped back, White's hand below"
        );
        click(c, "#flip").await;
        js(c, "document.getElementById('end').hidden = false").await;
    }
    b.client.close().await.ok();
}

/// Item 6, live: while one depth takes seconds (`open` after K@d4: depth
/// 10 takes over 2 s here), the panel's nodes and nodes/s move between the
/// engine's lines, from its `info depth D nodes N ...` figures, with the
/// depth under way named.
#[tokio::test]
async fn analysis_figures_move_while_a_depth_runs() {
    let _one = ONE_BROWSER.lock().await;
    let Some((_srv, b)) = page_at("?variant=open&moves=K@d4&black=human").await else {
        return;
    };
    let c = &b.client;
    click(c, "#analyse").await;
    // The first line's depth and the stats, at one moment.
    let look = || async {
        let v = js(
            c,
            "const r = document.querySelector('#an-lines tr.line td.depth'); return [r ? r.textContent : '', document.getElementById('an-stats').textContent]",
        )
        .await;
        let v: [String; 2] = serde_json::from_value(v).unwrap();
        v
    };
    let nodes = |stats: &str| {
        stats
            .split(" · ")
            .find(|p| p.ends_with(" nodes"))
            .map(str::to_string)
    };
    // Two looks 1.5 s apart with the same completed depth and other nodes.
    let (before, after) = wait_for(40, "nodes moving within one depth", || async {
        let a = look().await;
        tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
        let z = look().await;
        let moved = !a[0].is_empty() && a[0] == z[0] && nodes(&a[1]).is_some();
        (moved && nodes(&a[1]) != nodes(&z[1])).then_some((a, z))
    })
    .await;
    eprintln!("live: {before:?} -> {after:?}");
    assert!(after[1].contains("searching depth"), "{after:?}");
    assert!(after[1].contains("nodes/s"), "{after:?}");
    screenshot(c, "analysis-live.png").await;
    click(c, "#analyse").await;
    b.client.close().await.ok();
}

async fn page_at(query: &str) -> Option<(Server, Browser)> {
    open_page(&[], query).await.map(|(_, srv, b)| (srv, b))
}
