//! The page's address carries the game: opening a shared address shows its
//! game, the address follows the game played and browsed, a reload brings
//! it back; and the page's interface for other scripts (`cheversi:position`,
//! `cheversi.play`).

mod support;

use support::*;

async fn address(c: &fantoccini::Client) -> String {
    js(c, "return location.search")
        .await
        .as_str()
        .unwrap()
        .to_string()
}

async fn cursor(c: &fantoccini::Client) -> u64 {
    js(c, "return cheversi.state().cursor")
        .await
        .as_u64()
        .unwrap()
}

#[tokio::test]
async fn a_shared_address_opens_its_game_and_a_reload_keeps_it() {
    let _one = ONE_BROWSER.lock().await;
    // A shared game: two placements, White (the human) to move.
    let query = "?variant=standard&moves=K@b2,R@a1";
    let Some((engine, srv, b)) = open_page(&[], query).await else {
        return;
    };
    let c = &b.client;
    let mut reference = Reference::start(&engine);
    wait_moves(c, 2, 10).await;
    assert_eq!(moves(c).await, ["K@b2", "R@a1"]);
    let facts = reference.facts(&moves(c).await);
    assert_eq!(text(c, "#points-white").await, facts.points[0].to_string());
    assert_eq!(address(c).await, "?variant=standard&moves=K@b2,R@a1");

    // The page tells other scripts where it is, and plays a move by its text.
    js(
        c,
        "window.seen = []; window.addEventListener('cheversi:position', e => seen.push(e.detail))",
    )
    .await;
    set_limit(c, "depth", 2).await;
    let legal = &facts.legal[0];
    c.execute("cheversi.play(arguments[0])", vec![legal.as_str().into()])
        .await
        .unwrap();
    wait_moves(c, 4, 20).await;
    let played = moves(c).await;
    let want = format!("?variant=standard&moves={}", played.join(","));
    wait_for(10, "the address to follow the game", || async {
        (address(c).await == want).then_some(())
    })
    .await;
    let seen = js(
        c,
        "return seen.map(d => [d.ply, d.moves.join(','), d.side, d.variant, d.fen])",
    )
    .await;
    let last = &seen.as_array().unwrap().last().unwrap();
    assert_eq!(last[0], 4);
    assert_eq!(last[1], played.join(","));
    assert_eq!(last[2], "white");
    assert_eq!(last[3], "standard");
    assert_eq!(last[4], reference.facts(&played).fen.as_str());

    // Browsing: the address says the ply shown; a reload comes back there.
    click(c, "#moves li[data-ply='1'] button").await;
    wait_for(10, "ply 1 in the address", || async {
        address(c).await.ends_with("&at=1").then_some(())
    })
    .await;
    c.refresh().await.unwrap();
    wait_ready(c, 20).await;
    wait_moves(c, 4, 10).await;
    assert_eq!(moves(c).await, played);
    wait_for(10, "the reloaded page at ply 1", || async {
        (cursor(c).await == 1).then_some(())
    })
    .await;
    assert!(address(c).await.ends_with("&at=1"), "{}", address(c).await);
    // Home and End browse too.
    js(c, "document.activeElement.blur()").await;
    press(c, '\u{E010}').await; // End
    wait_for(10, "End", || async { (cursor(c).await == 4).then_some(()) }).await;
    press(c, '\u{E012}').await; // ArrowLeft
    wait_for(10, "ArrowLeft", || async {
        (cursor(c).await == 3).then_some(())
    })
    .await;
    press(c, '\u{E011}').await; // Home
    wait_for(10, "Home", || async {
        (cursor(c).await == 0).then_some(())
    })
    .await;

    // A position string in the address, played as Black against the engine.
    let fen = "8/8/8/4q3/3K4/8/8/8 w e5";
    c.goto(&format!(
        "{}?variant=standard&fen={}&moves=&white=engine&black=human",
        srv.url,
        fen.replace(' ', "+")
    ))
    .await
    .unwrap();
    wait_ready(c, 20).await;
    wait_moves(c, 1, 20).await; // the engine, White, answers
    let st = js(
        c,
        "const s = cheversi.state(); return [s.start_fen, s.players]",
    )
    .await;
    assert_eq!(st[0], fen);
    assert_eq!(st[1], serde_json::json!(["engine", "human"]));
    let a = address(c).await;
    assert!(
        a.contains("fen=8%2F8%2F8%2F4q3%2F3K4%2F8%2F8%2F8%20w%20e5"),
        "{a}"
    );
    assert!(a.contains("&white=engine&black=human"), "{a}");
    c.refresh().await.unwrap();
    wait_ready(c, 20).await;
    wait_moves(c, 1, 10).await;
    assert_eq!(js(c, "return cheversi.state().start_fen").await, fen);

    // An address that names no game the rules allow says so.
    c.goto(&format!("{}?variant=standard&moves=K@b2,Q@h8", srv.url))
        .await
        .unwrap();
    wait_ready(c, 20).await;
    let said = wait_for(10, "the address's fault", || async {
        let t = text(c, "#notice").await;
        t.contains("the address's game cannot be shown")
            .then_some(t)
    })
    .await;
    assert!(said.contains("Q@h8"), "{said}");
    b.client.close().await.ok();
}

async fn tree(c: &fantoccini::Client) -> String {
    js(c, "return cheversi.state().tree_text")
        .await
        .as_str()
        .unwrap()
        .to_string()
}

/// Waits until the address is `want`.
async fn wait_address(c: &fantoccini::Client, want: &str) {
    wait_for(10, want, || async {
        (address(c).await == want).then_some(())
    })
    .await;
}

/// A variation is in the address with the placement shown; a reload
/// brings both back. Hostile addresses are refused with a message over an
/// empty board that still plays.
#[tokio::test]
async fn variations_survive_a_reload_and_bad_addresses_are_refused() {
    let _one = ONE_BROWSER.lock().await;
    let query = "?variant=standard&moves=K@b2,R@a1&black=human";
    let Some((_engine, srv, b)) = open_page(&[], query).await else {
        return;
    };
    let c = &b.client;
    wait_moves(c, 2, 10).await;
    // From ply 1, Black's other answer Q@c3, then White's Q@d3: a variation.
    click(c, "#moves li[data-ply='1'] button").await;
    wait_for(10, "ply 1", || async {
        (cursor(c).await == 1).then_some(())
    })
    .await;
    js(c, "cheversi.play('Q@c3')").await;
    wait_address(
        c,
        "?variant=standard&moves=K@b2,R@a1(Q@c3)&at=3&black=human",
    )
    .await;
    js(c, "cheversi.play('Q@d3')").await;
    let with_variation = "?variant=standard&moves=K@b2,R@a1(Q@c3,Q@d3)&at=4&black=human";
    wait_address(c, with_variation).await;
    c.refresh().await.unwrap();
    wait_ready(c, 20).await;
    wait_moves(c, 3, 10).await;
    assert_eq!(moves(c).await, ["K@b2", "Q@c3", "Q@d3"]);
    assert_eq!(cursor(c).await, 3);
    assert_eq!(tree(c).await, "K@b2,R@a1(Q@c3,Q@d3)");
    wait_address(c, with_variation).await;
    // The variation's middle placement shown, reloaded; then the main line.
    click(c, "#moves li[data-ply='2'] button").await;
    wait_address(
        c,
        "?variant=standard&moves=K@b2,R@a1(Q@c3,Q@d3)&at=3&black=human",
    )
    .await;
    c.refresh().await.unwrap();
    wait_ready(c, 20).await;
    wait_for(10, "the reloaded variation at its ply 2", || async {
        (cursor(c).await == 2 && moves(c).await == ["K@b2", "Q@c3", "Q@d3"]).then_some(())
    })
    .await;
    c.goto(&format!(
        "{}?variant=standard&moves=K@b2,R@a1(Q@c3,Q@d3)&at=2&black=human",
        srv.url
    ))
    .await
    .unwrap();
    wait_ready(c, 20).await;
    wait_for(10, "the main line at R@a1", || async {
        (cursor(c).await == 2 && moves(c).await == ["K@b2", "R@a1"]).then_some(())
    })
    .await;
    assert_eq!(tree(c).await, "K@b2,R@a1(Q@c3,Q@d3)");
    screenshot(c, "address-variation.png").await;

    // Hostile addresses: each refused with the reason, the board empty and
    // still playable.
    let long = "K@b2,".repeat(2000);
    for (moves_text, part) in [
        ("%00((K@b2", "placement 1"),
        ("K@b2,K@a1", "placement 2 (K@a1)"),
        ("K@b2,R@a1(Q@c3", "never closed"),
        (long.as_str(), "bytes long"),
        ("K@b2&at=9", "no placement 9"),
    ] {
        c.goto(&format!(
            "{}?variant=standard&moves={moves_text}&black=human",
            srv.url
        ))
        .await
        .unwrap();
        wait_ready(c, 20).await;
        let said = wait_for(10, "the address's fault", || async {
            let t = text(c, "#notice").await;
            t.contains("the address's game cannot be shown")
                .then_some(t)
        })
        .await;
        assert!(said.contains(part), "{moves_text:.40}: {said}");
        assert!(moves(c).await.is_empty());
        js(c, "cheversi.play('K@b2')").await;
        wait_moves(c, 1, 10).await;
    }
    b.client.close().await.ok();
}
