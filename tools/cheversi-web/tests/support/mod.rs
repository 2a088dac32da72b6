//! What the browser tests share: the programs (the server, engines,
//! chromedriver, Chromium), started on free ports and ended on drop, and a
//! few waits on the page.
//!
//! Chromium and chromedriver come from Debian (`chromium`, `chromium-driver`).
//! Without them a test prints why and passes, unless
//! `CHEVERSI_WEB_REQUIRE_BROWSER=1` (set by `.ci/run`) makes it fail.
#![allow(dead_code)]

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

/// One browser at a time: the machines running CI have few cores.
pub static ONE_BROWSER: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// A program in `target/<profile>/` (or its `examples/`), beside this test's `deps/` folder.
pub fn built(name: &str) -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let dir = exe.parent()?.parent()?;
    let file = format!("{name}{}", std::env::consts::EXE_SUFFIX);
    // A binary, or an example (cheversi-match's fake-engine is one, kept out of installs).
    [dir.join(&file), dir.join("examples").join(&file)]
        .into_iter()
        .find(|p| p.is_file())
}

fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// Whether a missing tool fails the test (CI) or skips it (a bare machine).
fn required() -> bool {
    std::env::var("CHEVERSI_WEB_REQUIRE_BROWSER").is_ok_and(|v| v == "1")
}

/// Says why the test cannot run: a failure in CI, a skip elsewhere.
pub fn skip(why: &str) {
    if required() {
        panic!("{why} (CHEVERSI_WEB_REQUIRE_BROWSER=1)");
    }
    eprintln!("SKIPPED: {why}");
}

/// Chromium's and chromedriver's paths, if both are installed.
pub fn browser_tools() -> Option<(PathBuf, PathBuf)> {
    let chromium = ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|n| on_path(n))?;
    let driver = on_path("chromedriver")?;
    Some((chromium, driver))
}

/// A child process killed when dropped.
pub struct Proc(pub Child);

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// The server, its address and process.
pub struct Server {
    pub url: String,
    pub proc: Proc,
}

/// Starts `cheversi-web` with an engine and extra server arguments.
pub fn server(engine: &Path, engine_args: &[&str], extra: &[&str]) -> Server {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cheversi-web"));
    cmd.arg("--engine").arg(engine).args(["--port", "0"]);
    for a in engine_args {
        cmd.arg("--engine-arg").arg(a);
    }
    cmd.args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    let mut child = cmd.spawn().expect("cheversi-web starts");
    let out = child.stdout.take().expect("stdout");
    let mut line = String::new();
    BufReader::new(out)
        .read_line(&mut line)
        .expect("a first line");
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    Server {
        url,
        proc: Proc(child),
    }
}

/// Chromium under chromedriver, and the WebDriver client.
pub struct Browser {
    pub client: Client,
    _driver: Group,
    _profile: tempfile::TempDir,
}

/// chromedriver in a process group of its own, with the Chromium it starts:
/// the whole group is killed when dropped (killing chromedriver alone, or
/// ending the WebDriver session just before, leaves Chromium running).
pub struct Group(Child);

impl Drop for Group {
    fn drop(&mut self) {
        #[cfg(unix)]
        {
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", self.0.id())])
                .stderr(Stdio::null())
                .status();
        }
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts chromedriver on a free port and a headless Chromium through it.
pub async fn browser(chromium: &Path, driver: &Path) -> Browser {
    let port = free_port();
    let mut cmd = Command::new(driver);
    cmd.arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    let driver_proc = Group(cmd.spawn().expect("chromedriver starts"));
    let profile = tempfile::tempdir().expect("a profile folder");
    let args = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--window-size=1180,860",
        // As on a phone or a Mac: scrollbars over the page, not beside it.
        "--hide-scrollbars",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([format!("--user-data-dir={}", profile.path().display())])
    .collect::<Vec<_>>();
    let caps = json!({
        "browserName": "chrome",
        "goog:chromeOptions": { "binary": chromium, "args": args },
    });
    let Value::Object(caps) = caps else {
        unreachable!()
    };
    let url = format!("http://127.0.0.1:{port}");
    let deadline = Instant::now() + Duration::from_secs(20);
    let client = loop {
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        match ClientBuilder::new(connector)
            .capabilities(caps.clone())
            .connect(&url)
            .await
        {
            Ok(c) => break c,
            Err(e) if Instant::now() > deadline => panic!("no WebDriver session: {e}"),
            Err(_) => tokio::time::sleep(Duration::from_millis(200)).await,
        }
    };
    Browser {
        client,
        _driver: driver_proc,
        _profile: profile,
    }
}

/// Polls `f` until it gives `Some`, or fails after `secs` seconds saying `what`.
pub async fn wait_for<T, F, Fut>(secs: u64, what: &str, mut f: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        if let Some(v) = f().await {
            return v;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Runs a script on the page and returns its value.
pub async fn js(c: &Client, script: &str) -> Value {
    c.execute(script, vec![]).await.expect("script runs")
}

/// The move list shown.
pub async fn moves(c: &Client) -> Vec<String> {
    let v = js(
        c,
        "return [...document.querySelectorAll('#moves li[data-ply]')].sort((a, b) => a.dataset.ply - b.dataset.ply).map(li => li.dataset.move)",
    )
    .await;
    serde_json::from_value(v).expect("a list of moves")
}

/// The text of an element.
pub async fn text(c: &Client, css: &str) -> String {
    c.find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .text()
        .await
        .expect("text")
}

/// Clicks an element.
/// The page draws the board and hands again on every state, so an element
/// found may be replaced before the click lands: then it is found again.
pub async fn click(c: &Client, css: &str) {
    for tries_left in (0..3).rev() {
        let found = c
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("{css}: {e}"));
        match found.click().await {
            Ok(()) => return,
            Err(e) if tries_left > 0 && e.to_string().contains("stale element") => {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            Err(e) => panic!("click {css}: {e}"),
        }
    }
}

/// The squares highlighted as legal, sorted.
pub async fn highlighted(c: &Client) -> Vec<String> {
    let v = js(
        c,
        "return [...document.querySelectorAll('#board .sq.legal')].map(s => s.dataset.square).sort()",
    )
    .await;
    serde_json::from_value(v).expect("a list of squares")
}

/// Waits until the page shows `n` moves and the side to move is a human's
/// to play (the engine is not thinking and its hand is not the one to move).
pub async fn wait_moves(c: &Client, n: usize, secs: u64) {
    wait_for(secs, &format!("{n} moves on the page"), || async move {
        (moves(c).await.len() == n).then_some(())
    })
    .await;
}

/// Sets the engine's limit on the page and applies it.
pub async fn set_limit(c: &Client, kind: &str, value: u64) {
    c.find(Locator::Id("limit"))
        .await
        .unwrap()
        .select_by_value(kind)
        .await
        .unwrap();
    let input = c.find(Locator::Id("limit-value")).await.unwrap();
    input.clear().await.unwrap();
    input.send_keys(&value.to_string()).await.unwrap();
    click(c, "#apply").await;
}

/// Waits until the engine says it is ready.
pub async fn wait_ready(c: &Client, secs: u64) {
    wait_for(secs, "the engine to be ready", || async move {
        let v = js(
            c,
            "return document.getElementById('engine-status').dataset.status || ''",
        )
        .await;
        (v == "ready").then_some(())
    })
    .await;
}

/// A reference engine (the real `cheversi`), asked directly what the page
/// should show.
pub struct Reference {
    _proc: Proc,
    stdin: ChildStdin,
    out: BufReader<ChildStdout>,
}

/// What the reference engine's `d` and `moves` say about a position.
#[derive(Debug, PartialEq, Eq)]
pub struct Facts {
    /// `Points: White W Black B`.
    pub points: [i32; 2],
    /// `Position: ...`.
    pub fen: String,
    /// `moves N: ...`.
    pub legal: Vec<String>,
}

impl Reference {
    /// Starts `engine`.
    pub fn start(engine: &Path) -> Reference {
        let mut child = Command::new(engine)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the reference engine starts");
        let stdin = child.stdin.take().unwrap();
        let out = BufReader::new(child.stdout.take().unwrap());
        Reference {
            _proc: Proc(child),
            stdin,
            out,
        }
    }

    /// The exact score (`cp`, the mover's view) of `go depth 16` after `moves`.
    pub fn solve(&mut self, moves: &[String]) -> i64 {
        writeln!(
            self.stdin,
            "position startpos moves {}\ngo depth 16",
            moves.join(" ")
        )
        .unwrap();
        self.stdin.flush().unwrap();
        let mut cp = None;
        loop {
            let mut line = String::new();
            assert!(
                self.out.read_line(&mut line).unwrap() > 0,
                "reference engine ended"
            );
            let words: Vec<&str> = line.split_whitespace().collect();
            if words.first() == Some(&"bestmove") {
                return cp.expect("a score before bestmove");
            }
            if let Some(i) = words.iter().position(|w| *w == "cp") {
                cp = words.get(i + 1).and_then(|v| v.parse().ok());
            }
        }
    }

    /// `d` and `moves` after `moves` from the empty board.
    pub fn facts(&mut self, moves: &[String]) -> Facts {
        let pos = if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        writeln!(self.stdin, "{pos}\nd\nmoves\nisready").unwrap();
        self.stdin.flush().unwrap();
        let mut facts = Facts {
            points: [0, 0],
            fen: String::new(),
            legal: Vec::new(),
        };
        loop {
            let mut line = String::new();
            assert!(
                self.out.read_line(&mut line).unwrap() > 0,
                "reference engine ended"
            );
            let line = line.trim();
            if line == "readyok" {
                return facts;
            }
            if let Some(p) = line.strip_prefix("Points: ") {
                let w: Vec<&str> = p.split_whitespace().collect();
                facts.points = [w[1].parse().unwrap(), w[3].parse().unwrap()];
            } else if let Some(f) = line.strip_prefix("Position: ") {
                facts.fen = f.to_string();
            } else if line.starts_with("moves ") {
                let list = line.split_once(':').map_or("", |(_, l)| l);
                facts.legal = list.split_whitespace().map(str::to_string).collect();
            }
        }
    }
}

/// Saves a screenshot of the page as `name` in `CHEVERSI_WEB_SHOTS` (a
/// folder) when that is set, and returns its width and height in pixels.
pub async fn screenshot(c: &Client, name: &str) -> (u32, u32) {
    let png = c.screenshot().await.expect("a screenshot");
    assert!(png.starts_with(b"\x89PNG") && png.len() > 24, "a PNG");
    let size = |at: usize| u32::from_be_bytes([png[at], png[at + 1], png[at + 2], png[at + 3]]);
    if let Ok(dir) = std::env::var("CHEVERSI_WEB_SHOTS") {
        let path = Path::new(&dir).join(name);
        std::fs::write(&path, &png).expect("the screenshot is written");
        eprintln!("wrote {}", path.display());
    }
    (size(16), size(20))
}

/// An element's box on the page: x, y, width, height.
pub async fn rect(c: &Client, css: &str) -> [f64; 4] {
    let v = c
        .execute(
            "const r = document.querySelector(arguments[0]).getBoundingClientRect(); return [r.x, r.y, r.width, r.height]",
            vec![css.into()],
        )
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"));
    serde_json::from_value(v).expect("four numbers")
}

/// A finished game of `standard` (White 44 : 45 Black).
pub const FINISHED: &str = "1. K@b2 R@a1 2. R@c1 Q@c3 3. Q@d3 B@d1 4. R@b4 N@e4 5. B@a2 B@e3 6. B@e5 R@f6 7. N@c5 N@c4 8. N@f5 K@g4 0-1";

/// Sets the window so that the page's viewport is `width` x `height`.
pub async fn set_viewport(c: &Client, width: u32, height: u32) {
    c.set_window_size(width, height)
        .await
        .expect("the window resizes");
    let v = js(c, "return [innerWidth, innerHeight]").await;
    let (w, h) = (v[0].as_u64().unwrap() as u32, v[1].as_u64().unwrap() as u32);
    if (w, h) != (width, height) {
        c.set_window_size(2 * width - w, 2 * height - h)
            .await
            .expect("the window resizes");
    }
}

/// Presses and releases a key (WebDriver's code points: `\u{E010}` End,
/// `\u{E011}` Home, `\u{E012}` ←, `\u{E014}` →, `\u{E007}` Enter) where the
/// focus is.
pub async fn press(c: &Client, key: char) {
    use fantoccini::actions::{InputSource, KeyAction, KeyActions};
    let keys = KeyActions::new("keyboard".to_string())
        .then(KeyAction::Down { value: key })
        .then(KeyAction::Up { value: key });
    c.perform_actions(keys).await.expect("the key is pressed");
}

/// The real engine, the server with `extra` arguments and a browser on its
/// page at `query` (`?variant=...`, or empty), the engine ready; `None`
/// (skipped, or failed in CI) when a tool is missing.
pub async fn open_page(extra: &[&str], query: &str) -> Option<(PathBuf, Server, Browser)> {
    let Some((chromium, driver)) = browser_tools() else {
        skip(
            "chromium or chromedriver is not installed (apt-get install chromium chromium-driver)",
        );
        return None;
    };
    let Some(engine) = built("cheversi") else {
        skip("the cheversi engine is not built here; run `cargo test --workspace`");
        return None;
    };
    let srv = server(&engine, &[], extra);
    let b = browser(&chromium, &driver).await;
    b.client
        .goto(&format!("{}{query}", srv.url))
        .await
        .expect("the page loads");
    wait_ready(&b.client, 20).await;
    Some((engine, srv, b))
}

/// Clicks *PGN* and returns the text it puts in the box.
pub async fn exported_pgn(c: &Client) -> String {
    click(c, "#export-pgn").await;
    wait_for(10, "the PGN in the box", || async {
        let v = js(c, "return document.getElementById('io').value").await;
        let v = v.as_str().unwrap_or("").to_string();
        v.contains("[Date").then_some(v)
    })
    .await
}

/// Waits until the element `#id` is shown.
pub async fn wait_shown(c: &Client, id: &str, secs: u64) {
    let e = c.find(Locator::Id(id)).await.expect("the element");
    wait_for(secs, &format!("#{id} shown"), || async {
        e.is_displayed().await.unwrap_or(false).then_some(())
    })
    .await;
}
