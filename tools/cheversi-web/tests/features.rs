//! What lichess's analysis board has, on this one, in headless Chromium:
//! variations, the evaluation graph, the keyboard and screen-reader names,
//! the placement sound; with the screenshots of the README (desktop and
//! 390x844, into `CHEVERSI_WEB_SHOTS` when set).

mod support;

use fantoccini::Client;
use support::*;

async fn start(extra: &[&str]) -> Option<(Server, Browser)> {
    open_page(extra, "").await.map(|(_, srv, b)| (srv, b))
}

async fn players(c: &Client, white: &str, black: &str) {
    for (id, v) in [("white-player", white), ("black-player", black)] {
        c.find(fantoccini::Locator::Id(id))
            .await
            .unwrap()
            .select_by_value(v)
            .await
            .unwrap();
    }
}

async fn play(c: &Client, placement: &str, n: usize) {
    c.execute("cheversi.play(arguments[0])", vec![placement.into()])
        .await
        .unwrap();
    wait_moves(c, n, 20).await;
}

async fn label(c: &Client, css: &str) -> String {
    let v = c
        .execute(
            "return document.querySelector(arguments[0]).getAttribute('aria-label')",
            vec![css.into()],
        )
        .await
        .unwrap();
    v.as_str().unwrap_or("").to_string()
}

async fn focus(c: &Client, css: &str) {
    c.execute(
        "document.querySelector(arguments[0]).focus()",
        vec![css.into()],
    )
    .await
    .unwrap();
}

/// Both sizes' screenshots of the page as it is.
async fn shots(c: &Client, name: &str) {
    for (w, h, size) in [(1180, 860, "desktop"), (390, 844, "phone")] {
        set_viewport(c, w, h).await;
        js(c, "window.scrollTo(0, 0)").await;
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        screenshot(c, &format!("{size}-{name}.png")).await;
    }
    set_viewport(c, 1180, 860).await;
}

#[tokio::test]
async fn variations_are_kept_shown_browsed_and_in_the_pgn() {
    let _one = ONE_BROWSER.lock().await;
    let Some((_srv, b)) = start(&[]).await else {
        return;
    };
    let c = &b.client;
    players(c, "human", "human").await;
    for (i, m) in ["K@d4", "Q@e5", "Q@f5", "R@g6"].iter().enumerate() {
        play(c, m, i + 1).await;
    }
    // Back to ply 1, another placement: a variation beside Q@e5.
    click(c, "#moves li[data-ply='1'] button").await;
    wait_for(10, "ply 1", || async {
        (js(c, "return cheversi.state().cursor").await == 1).then_some(())
    })
    .await;
    play(c, "R@c3", 2).await;
    play(c, "R@b2", 3).await;
    assert_eq!(moves(c).await, ["K@d4", "R@c3", "R@b2"]);
    let variation = js(
        c,
        "return [...document.querySelectorAll('#moves li.variation li')].map(li => li.textContent)",
    )
    .await;
    assert_eq!(variation, serde_json::json!(["1…R@c3", "2.R@b2"]));
    shots(c, "variation").await;
    // A click on the main line's Q@e5 shows it, and the main line again.
    click(c, "#moves li:not([data-ply]) button").await;
    wait_moves(c, 4, 10).await;
    assert_eq!(moves(c).await, ["K@d4", "Q@e5", "Q@f5", "R@g6"]);
    assert_eq!(js(c, "return cheversi.state().cursor").await, 2);
    // The PGN keeps it; read back, the list shows it again.
    let pgn = exported_pgn(c).await;
    assert!(
        pgn.contains("1. K@d4 Q@e5 (1... R@c3 2. R@b2) 2. Q@f5 R@g6 *"),
        "{pgn}"
    );
    click(c, "#new").await;
    wait_moves(c, 0, 10).await;
    click(c, "#load-pgn").await;
    wait_moves(c, 4, 10).await;
    let list = js(
        c,
        "return [...document.querySelectorAll('#moves li.variation')].map(v => v.textContent)",
    )
    .await;
    assert_eq!(list, serde_json::json!(["(1…R@c32.R@b2)"]));
    b.client.close().await.ok();
}

#[tokio::test]
async fn the_graph_follows_the_game_and_takes_clicks() {
    let _one = ONE_BROWSER.lock().await;
    let Some((_srv, b)) = start(&[]).await else {
        return;
    };
    let c = &b.client;
    set_limit(c, "depth", 5).await;
    js(c, "const d = document.getElementById('delay'); d.value = 0; d.dispatchEvent(new Event('change'))").await;
    players(c, "engine", "engine").await;
    wait_moves(c, 16, 90).await;
    // Every position before the last has the engine's word (its own move's
    // search); the last ones are exact (the search saw the end).
    let dots = js(
        c,
        "return [...document.querySelectorAll('#graph circle')].map(e => [Number(e.dataset.ply), e.getAttribute('class')])",
    )
    .await;
    let dots: Vec<(u64, String)> = serde_json::from_value(dots).unwrap();
    assert_eq!(dots.len(), 16, "{dots:?}");
    assert!(dots.iter().any(|(_, k)| k == "exact"), "{dots:?}");
    assert_eq!(dots.last().unwrap(), &(15, "exact".to_string()), "{dots:?}");
    let aria = label(c, "#graph").await;
    assert!(aria.contains("ply 15:") && aria.contains("exact"), "{aria}");
    // The values are White's view: the last one against the engine's own `go`.
    click(c, "#end-close").await;
    shots(c, "graph").await;
    // A click at ply 5's place goes there.
    let r = rect(c, "#graph").await;
    let x = r[2] * (5.0 / 16.0) - r[2] / 2.0;
    let graph = c.find(fantoccini::Locator::Id("graph")).await.unwrap();
    use fantoccini::actions::InputSource;
    c.perform_actions(
        fantoccini::actions::MouseActions::new("mouse".into())
            .then(fantoccini::actions::PointerAction::MoveToElement {
                element: graph,
                duration: None,
                x: x.round(),
                y: 0.0,
            })
            .then(fantoccini::actions::PointerAction::Down {
                button: fantoccini::actions::MOUSE_BUTTON_LEFT,
            })
            .then(fantoccini::actions::PointerAction::Up {
                button: fantoccini::actions::MOUSE_BUTTON_LEFT,
            }),
    )
    .await
    .unwrap();
    wait_for(10, "ply 5 shown", || async {
        (js(c, "return cheversi.state().cursor").await == 5).then_some(())
    })
    .await;
    b.client.close().await.ok();
}

#[tokio::test]
async fn the_board_is_played_by_keyboard_and_named_for_screen_readers() {
    let _one = ONE_BROWSER.lock().await;
    let Some((_srv, b)) = start(&[]).await else {
        return;
    };
    let c = &b.client;
    players(c, "human", "human").await;
    let focusable = js(
        c,
        "return [...document.querySelectorAll('#board .sq, .hand-piece')].filter(e => { e.focus(); return document.activeElement === e; }).length",
    )
    .await;
    assert_eq!(focusable, 74, "64 squares and 10 hand pieces take focus");
    assert_eq!(
        label(c, "#sq-e4").await,
        "e4, empty, not attacked, legal for the King"
    );
    // The King is the only piece White may place: it is picked. Enter on d4.
    focus(c, "#sq-d4").await;
    assert_eq!(
        label(c, "#sq-d4").await,
        "d4, empty, not attacked, legal for the King"
    );
    press(c, '\u{E007}').await;
    wait_moves(c, 1, 10).await;
    assert_eq!(label(c, "#sq-d4").await, "d4, White King");
    assert_eq!(
        label(c, "#sq-e4").await,
        "e4, empty, attacked once by White"
    );
    // Black picks its Rook by keyboard, then places it on c3.
    focus(c, "#hand-black-R").await;
    press(c, '\u{E007}').await;
    assert!(label(c, "#hand-black-R").await.ends_with("picked"));
    focus(c, "#sq-c3").await;
    press(c, '\u{E007}').await;
    wait_moves(c, 2, 10).await;
    assert_eq!(
        label(c, "#sq-d3").await,
        "d3, empty, attacked once by White and once by Black"
    );
    let focused = js(c, "return document.activeElement.id").await;
    assert_eq!(
        focused, "sq-c3",
        "the focus stays on the square after the redraw"
    );
    // The sound is off unless turned on, and then sounds once a placement.
    assert_eq!(
        js(c, "return document.getElementById('sound').checked").await,
        false
    );
    assert_eq!(js(c, "return cheversi.sounds()").await, 0);
    click(c, "#sound").await;
    play(c, "Q@e3", 3).await;
    assert_eq!(js(c, "return cheversi.sounds()").await, 1);
    b.client.close().await.ok();
}

/// The README's pictures of a game as Black (your hand at the bottom).
#[tokio::test]
async fn a_game_as_black_looks_right() {
    let _one = ONE_BROWSER.lock().await;
    let Some((_srv, b)) = start(&[]).await else {
        return;
    };
    let c = &b.client;
    set_limit(c, "depth", 3).await;
    players(c, "human", "human").await;
    players(c, "engine", "human").await;
    wait_moves(c, 1, 20).await;
    for n in [2, 4, 6] {
        let legal = js(c, "return cheversi.state().position.legal").await;
        let legal: Vec<String> = serde_json::from_value(legal).unwrap();
        let pick = legal.iter().find(|m| !m.starts_with('K')).unwrap();
        // The engine answers at once: wait for its reply.
        c.execute("cheversi.play(arguments[0])", vec![pick.as_str().into()])
            .await
            .unwrap();
        wait_moves(c, n + 1, 20).await;
        wait_for(10, "Black to move", || async {
            (js(c, "return cheversi.state().thinking").await.is_null()).then_some(())
        })
        .await;
    }
    click(c, "#show-attacks").await;
    click(c, "#analyse").await;
    tokio::time::sleep(std::time::Duration::from_secs(2)).await;
    let board = rect(c, "#board").await;
    let mine = rect(c, "#hand-black").await;
    assert!(mine[1] > board[1] + board[3], "Black's hand at the bottom");
    shots(c, "as-black").await;
    b.client.close().await.ok();
}
