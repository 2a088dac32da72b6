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
        address(c).await.ends_with("&ply=1").then_some(())
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
    assert!(address(c).await.ends_with("&ply=1"), "{}", address(c).await);
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
