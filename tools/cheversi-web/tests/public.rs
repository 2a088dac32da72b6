//! A server for the public: each page's engine capped (and the caps shown),
//! analysis stopped at the think-time cap, idle pages closed and offered a
//! reconnect that brings the game back.

mod support;

use fantoccini::Locator;
use support::*;

#[tokio::test]
async fn caps_are_shown_and_kept_and_an_idle_page_is_closed() {
    let _one = ONE_BROWSER.lock().await;
    let caps = [
        "--max-threads",
        "2",
        "--max-hash",
        "64",
        "--max-think",
        "1500",
        "--max-depth",
        "8",
        "--idle-timeout",
        "5",
    ];
    let query = "?variant=open&moves=K@d4,Q@a1&black=human";
    let Some((_, _srv, b)) = open_page(&caps, query).await else {
        return;
    };
    let c = &b.client;
    wait_moves(c, 2, 10).await;
    assert_eq!(
        text(c, "#caps").await,
        "this server allows at most 2 threads · hash 64 MiB · 1500 ms a move (and an analysis) · depth 8"
    );
    let threads = c.find(Locator::Id("threads")).await.unwrap();
    threads.clear().await.unwrap();
    threads.send_keys("4").await.unwrap();
    click(c, "#apply").await;
    let note = text(c, "#settings-note").await;
    assert!(
        note.starts_with("threads must be a whole number from 1 to 2, not 4"),
        "{note}"
    );
    // The server keeps its caps whatever a page sends.
    c.execute(
        "cheversi.send(JSON.stringify({type: 'settings', limit: 'depth', value: 12, threads: 1, hash: 16, multipv: 1, delay: 0}))",
        vec![],
    )
    .await
    .unwrap();
    let said = wait_for(10, "the depth refused", || async {
        let t = text(c, "#notice").await;
        t.contains("depth must be from 1 to 8").then_some(t)
    })
    .await;
    assert_eq!(said, "depth must be from 1 to 8, not 12");
    // Analysis stops at the cap (the engine may end a little sooner: it
    // starts no depth it cannot finish) and is not started again.
    let started = std::time::Instant::now();
    click(c, "#analyse").await;
    wait_for(10, "the analysis to stop at the cap", || async {
        let done = text(c, "#an-what").await.starts_with("last search");
        let lines = js(c, "return document.querySelectorAll('#an-lines tr').length").await;
        (done && lines != 0).then_some(())
    })
    .await;
    let took = started.elapsed();
    assert!(
        (700..1500 + 2000).contains(&took.as_millis()),
        "stopped after {took:?}"
    );
    tokio::time::sleep(std::time::Duration::from_millis(800)).await;
    assert!(text(c, "#an-what").await.starts_with("last search"));
    // Idle: 5 s after the last message the page is closed, and says so.
    wait_shown(c, "blocker", 15).await;
    let said = text(c, "#blocker-text").await;
    assert!(
        said.contains("closed after 5 s without a move or a click"),
        "{said}"
    );
    click(c, "#blocker-retry").await;
    wait_ready(c, 20).await;
    wait_moves(c, 2, 10).await;
    assert_eq!(
        moves(c).await,
        ["K@d4", "Q@a1"],
        "the address brought the game back"
    );
    assert_eq!(js(c, "return cheversi.state().variant").await, "open");
    b.client.close().await.ok();
}
