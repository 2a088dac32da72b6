//! Protocol faults through the page, with `cheversi-match`'s `fake-engine`:
//! an engine that crashes mid-game and one that stops answering. The page
//! must say so and the game must go on with a new process. Also: hostile
//! messages change nothing, and closing the page ends its engine.

mod support;

use fantoccini::{Client, Locator};
use support::*;

/// Plays White's first legal square of the first piece in hand, by clicks,
/// and waits for the engine's answer.
async fn play_and_wait(c: &Client, before: usize) {
    let piece = js(
        c,
        "const b = [...document.querySelectorAll('#hand-white .hand-piece')].find(b => b.getAttribute('aria-disabled') !== 'true'); return b ? b.id : ''",
    )
    .await;
    let piece = piece.as_str().unwrap_or("").to_string();
    assert!(!piece.is_empty(), "White has a piece to pick");
    click(c, &format!("#{piece}")).await;
    let squares = highlighted(c).await;
    click(c, &format!("#sq-{}", squares[0])).await;
    wait_moves(c, before + 2, 30).await;
}

async fn fault_text(c: &Client) -> String {
    js(
        c,
        "const f = document.getElementById('fault'); return f.hidden ? '' : f.textContent",
    )
    .await
    .as_str()
    .unwrap_or("")
    .to_string()
}

/// The `/proc` stat lines of the processes whose parent is `pid` (Linux;
/// `None` elsewhere, and the check is left out).
fn children(pid: u32) -> Option<Vec<String>> {
    let dir = std::fs::read_dir("/proc").ok()?;
    let pid = pid.to_string();
    let found = dir
        .flatten()
        .filter_map(|e| std::fs::read_to_string(e.path().join("stat")).ok())
        .filter(|stat| {
            // pid (comm) state ppid ...: comm may hold spaces, so split after ')'.
            let after = stat.rsplit_once(')').map_or("", |(_, r)| r);
            after.split_whitespace().nth(1) == Some(pid.as_str())
        })
        .collect();
    Some(found)
}

fn tools() -> Option<(std::path::PathBuf, std::path::PathBuf, std::path::PathBuf)> {
    let Some((chromium, driver)) = browser_tools() else {
        skip(
            "chromium or chromedriver is not installed (apt-get install chromium chromium-driver)",
        );
        return None;
    };
    let Some(fake) = built("fake-engine") else {
        skip("cheversi-match's fake-engine is not built here; run `cargo test --workspace`");
        return None;
    };
    Some((chromium, driver, fake))
}

#[tokio::test]
async fn an_engine_that_crashes_is_restarted_and_the_game_goes_on() {
    let _one = ONE_BROWSER.lock().await;
    let Some((chromium, driver, fake)) = tools() else {
        return;
    };
    // The fake engine exits at its third `go`; each new process does too.
    let srv = server(&fake, &["--mode", "crash", "--after", "2"], &[]);
    let b = browser(&chromium, &driver).await;
    let c = &b.client;
    c.goto(&srv.url).await.unwrap();
    wait_ready(c, 20).await;
    play_and_wait(c, 0).await;
    play_and_wait(c, 2).await;
    assert_eq!(fault_text(c).await, "", "no fault yet");
    play_and_wait(c, 4).await; // crash, restart, the new process answers
    let fault = fault_text(c).await;
    assert!(
        fault.contains("the engine exited (exit code 3); the engine was restarted"),
        "{fault}"
    );
    wait_ready(c, 10).await;
    play_and_wait(c, 6).await;

    // Hostile or malformed messages get an error and change nothing.
    let before = moves(c).await;
    for bad in [
        r#"{"type":"launch","program":"/bin/sh"}"#,
        r#"{"type":"settings","limit":"depth","value":1,"threads":1,"hash":16,"multipv":1,"delay":0,"engine":"/bin/sh"}"#,
        r#"{"type":"play","placement":"K@z9"}"#,
        "not json",
    ] {
        js(c, "document.getElementById('notice').textContent = ''").await;
        c.execute("cheversi.send(arguments[0])", vec![bad.into()])
            .await
            .unwrap();
        wait_for(10, "an error for a bad message", || async {
            let t = text(c, "#notice").await;
            (!t.is_empty()).then_some(t)
        })
        .await;
    }
    assert_eq!(moves(c).await, before);

    // Closing the page ends its engine.
    let pid = srv.proc.0.id();
    if children(pid).is_some() {
        // The explorer's probe of the engine (`/api/explore`: this one does
        // not explore) runs for up to 2.5 s beside the page's engine.
        let engines = wait_for(10, "one engine for the page", || async {
            children(pid).filter(|v| v.len() == 1)
        })
        .await;
        assert_eq!(engines.len(), 1, "one engine for the page: {engines:?}");
        c.goto("about:blank").await.unwrap();
        let left = wait_for(10, "the engine to end with its page", || async {
            children(pid).filter(|v| v.is_empty())
        })
        .await;
        assert!(left.is_empty());
    }
    b.client.close().await.ok();
}

#[tokio::test]
async fn an_engine_that_stops_answering_is_restarted_and_the_game_goes_on() {
    let _one = ONE_BROWSER.lock().await;
    let Some((chromium, driver, fake)) = tools() else {
        return;
    };
    // The fake engine hangs (no bestmove, no readyok) at its second `go`.
    let srv = server(
        &fake,
        &["--mode", "hang", "--after", "1"],
        &["--margin", "500"],
    );
    let b = browser(&chromium, &driver).await;
    let c = &b.client;
    c.goto(&srv.url).await.unwrap();
    wait_ready(c, 20).await;
    set_limit(c, "movetime", 100).await;
    play_and_wait(c, 0).await;
    play_and_wait(c, 2).await; // hangs; after 100 + 500 ms a new process answers
    let fault = fault_text(c).await;
    assert!(
        fault
            .contains("no bestmove within the move's 100 ms plus 500 ms; the engine was restarted"),
        "{fault}"
    );
    play_and_wait(c, 4).await; // the new process hangs at its second go too
    play_and_wait(c, 6).await;
    let status = text(c, "#engine-status").await;
    assert!(!status.contains("stopped"), "{status}");
    b.client.close().await.ok();
}

#[tokio::test]
async fn an_engine_that_never_starts_is_given_up_and_the_page_says_so() {
    let _one = ONE_BROWSER.lock().await;
    let Some((chromium, driver, fake)) = tools() else {
        return;
    };
    let srv = server(
        &fake,
        &["--mode", "slow-start", "--delay", "60000"],
        &["--ready-timeout", "300"],
    );
    let b = browser(&chromium, &driver).await;
    let c = &b.client;
    c.goto(&srv.url).await.unwrap();
    let restart = c.find(Locator::Id("restart")).await.unwrap();
    wait_for(20, "the page to offer a restart", || async {
        restart.is_displayed().await.unwrap_or(false).then_some(())
    })
    .await;
    let fault = fault_text(c).await;
    assert!(
        fault.contains("did not answer with uciok within 300 ms")
            && fault.contains("failed 4 times in a row"),
        "{fault}"
    );
    // A human against a human still plays without the engine.
    c.find(Locator::Id("black-player"))
        .await
        .unwrap()
        .select_by_value("human")
        .await
        .unwrap();
    click(c, "#hand-white-K").await;
    click(c, "#sq-d4").await;
    wait_moves(c, 1, 10).await;
    b.client.close().await.ok();
}
