//! One open page: its game, its engine process and the loop between them.
//!
//! The session decides what the engine should be doing (find a move for the
//! side it plays, analyse the position shown, or nothing), and brings the
//! engine there: `stop` when the search running is no longer wanted, then
//! options, `position` and `go`. A search's `bestmove` is used only if the
//! search was still wanted when it ended. Every wait on the engine has a
//! deadline; a missed deadline, a closed pipe or an illegal `bestmove` is a
//! fault: the process is killed, the page told, a new one started.

mod page;

use crate::engine::{Engine, EngineCommand};
use crate::game::{Eval, Game};
use crate::message::{Caps, Player, ServerMsg, Settings};
use crate::uci::{self, EngineLine};
use axum::extract::ws::{Message, WebSocket};
use cheversi::{Placement, Variant};
use std::collections::BTreeMap;
use std::time::Duration;
use tokio::time::Instant;

/// Faults in a row after which the engine is not restarted by itself.
const MAX_RESTARTS: u32 = 3;
/// Search lines are sent to the page at most this often.
const INFO_INTERVAL: Duration = Duration::from_millis(100);
/// Options and names kept from an engine's `uci` answer.
const MAX_OPTIONS: usize = 128;

/// The deadlines of a session, fixed by the command line.
#[derive(Clone, Debug)]
pub struct Timeouts {
    /// For `uciok` and `readyok`.
    pub ready: Duration,
    /// Past a move's `movetime`, and after `stop`, for `bestmove`.
    pub margin: Duration,
    /// How often `isready` is sent during a search.
    pub ping: Duration,
}

/// What one page may have, fixed by the command line.
#[derive(Clone, Copy, Debug)]
pub struct PageLimits {
    /// The engine's caps.
    pub caps: Caps,
    /// A page without a message for this long is closed (its engine ended).
    pub idle: Option<Duration>,
}

impl Default for PageLimits {
    fn default() -> PageLimits {
        PageLimits {
            caps: Caps::NONE,
            idle: None,
        }
    }
}

/// What the engine is asked to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Purpose {
    /// Find the move of the side it plays.
    Move,
    /// Analyse the position shown, until stopped.
    Analysis,
}

/// A search the session wants.
struct Wanted {
    purpose: Purpose,
    position: String,
    go: String,
    multipv: u32,
}

impl Wanted {
    fn key(&self) -> String {
        format!("{}|{}|{}", self.position, self.go, self.multipv)
    }
}

/// The search running in the engine.
struct Search {
    id: u64,
    purpose: Purpose,
    key: String,
    ply: u8,
    left: u8,
    deadline: Option<Instant>,
    stopping: bool,
    started: Instant,
    /// The node of the position searched (`None`: the start).
    node: Option<usize>,
}

/// The options last sent to the current process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Applied {
    variant: Variant,
    threads: u32,
    hash: u32,
    multipv: u32,
}

enum Phase {
    Down,
    Starting { deadline: Instant, uciok: bool },
    Ready,
}

enum Event {
    Client(Option<Result<Message, axum::Error>>),
    Engine(Option<String>),
    Timer,
}

/// The state of one page.
pub struct Session {
    ws: WebSocket,
    command: EngineCommand,
    timeouts: Timeouts,
    limits: PageLimits,
    /// When the page last sent a message.
    active: Instant,
    /// The analysis that ended by itself (under a think-time cap): not restarted.
    analysed: Option<String>,
    game: Game,
    players: [Player; 2],
    settings: Settings,
    analyse: bool,
    paused: bool,
    engine: Option<Engine>,
    phase: Phase,
    engine_name: String,
    options: Vec<String>,
    applied: Option<Applied>,
    new_game: bool,
    search: Option<Search>,
    next_id: u64,
    ready_deadline: Option<Instant>,
    next_ping: Option<Instant>,
    faults: u32,
    not_before: Option<Instant>,
    infos: BTreeMap<u32, ServerMsg>,
    text: Option<String>,
    flush_at: Option<Instant>,
    dirty: bool,
    closed: bool,
}

impl Session {
    /// A session for a page that has just connected.
    pub fn new(
        ws: WebSocket,
        command: EngineCommand,
        timeouts: Timeouts,
        limits: PageLimits,
    ) -> Session {
        Session {
            ws,
            command,
            timeouts,
            limits,
            active: Instant::now(),
            analysed: None,
            game: Game::new(Variant::Standard),
            players: [Player::Human, Player::Engine],
            settings: limits.caps.settings(),
            analyse: false,
            paused: false,
            engine: None,
            phase: Phase::Down,
            engine_name: String::new(),
            options: Vec::new(),
            applied: None,
            new_game: false,
            search: None,
            next_id: 1,
            ready_deadline: None,
            next_ping: None,
            faults: 0,
            not_before: None,
            infos: BTreeMap::new(),
            text: None,
            flush_at: None,
            dirty: true,
            closed: false,
        }
    }

    /// Runs until the page closes; the engine is ended then.
    pub async fn run(mut self) {
        self.notify("starting", "starting the engine".into()).await;
        if let Err(e) = self.start_engine().await {
            self.fault(e).await;
        }
        while !self.closed {
            if self.dirty {
                self.dirty = false;
                self.send_state().await;
            }
            let wake = self.next_wake();
            let event = tokio::select! {
                m = self.ws.recv() => Event::Client(m),
                l = next_line(&mut self.engine) => Event::Engine(l),
                _ = sleep_until(wake) => Event::Timer,
            };
            let result = match event {
                Event::Client(None | Some(Err(_)) | Some(Ok(Message::Close(_)))) => {
                    self.closed = true;
                    Ok(())
                }
                Event::Client(Some(Ok(Message::Text(t)))) => {
                    self.active = Instant::now();
                    self.on_client(t.as_str()).await
                }
                Event::Client(Some(Ok(Message::Binary(_)))) => {
                    self.error("binary messages are not understood".into())
                        .await;
                    Ok(())
                }
                Event::Client(Some(Ok(_))) => Ok(()),
                Event::Engine(Some(line)) => self.on_engine_line(&line).await,
                Event::Engine(None) => Err("the engine exited".to_string()),
                Event::Timer => self.on_timer().await,
            };
            if let Err(e) = result {
                self.fault(e).await;
            }
        }
        if let Some(e) = self.engine.take() {
            e.quit().await;
        }
    }

    // ---- what the engine should do ----

    fn wanted(&self, now: Instant) -> Option<Wanted> {
        let pos = self.game.current();
        if pos.is_over() {
            return None;
        }
        let mover = pos.side_to_move().index();
        let position = self.game.position_command();
        if self.game.at_end() && self.players[mover] == Player::Engine && !self.paused {
            if self.not_before.is_some_and(|t| now < t) {
                return None;
            }
            return Some(Wanted {
                purpose: Purpose::Move,
                position,
                go: self.settings.go(),
                multipv: 1,
            });
        }
        let caps = self.limits.caps;
        let go = if caps.limits_analysis() {
            format!("go movetime {}", caps.movetime)
        } else {
            "go infinite".into()
        };
        let w = Wanted {
            purpose: Purpose::Analysis,
            position,
            go,
            multipv: self.settings.multipv,
        };
        (self.analyse && self.analysed.as_ref() != Some(&w.key())).then_some(w)
    }

    fn options_for(&self, multipv: u32) -> Applied {
        Applied {
            variant: self.game.variant(),
            threads: self.settings.threads,
            hash: self.settings.hash,
            multipv,
        }
    }

    /// Brings the engine to what is wanted: stops a search no longer
    /// wanted, or starts the one wanted when the engine is idle.
    async fn reconcile(&mut self) -> Result<(), String> {
        if !matches!(self.phase, Phase::Ready) {
            return Ok(());
        }
        let now = Instant::now();
        let want = self.wanted(now);
        if let Some(s) = &self.search {
            let keep = want.as_ref().is_some_and(|w| {
                w.key() == s.key && self.applied == Some(self.options_for(w.multipv))
            });
            if !keep && !s.stopping {
                self.send_engine("stop").await?;
                let margin = self.timeouts.margin;
                if let Some(s) = &mut self.search {
                    s.stopping = true;
                    s.deadline = Some(now + margin);
                }
                self.infos.clear();
                self.dirty = true;
            }
            return Ok(());
        }
        let Some(w) = want else { return Ok(()) };
        self.set_options(self.options_for(w.multipv)).await?;
        if std::mem::take(&mut self.new_game) {
            self.send_engine("ucinewgame").await?;
        }
        self.send_engine(&w.position).await?;
        self.send_engine(&w.go).await?;
        let pos = self.game.current();
        let deadline = match (w.purpose, self.settings.limit) {
            (Purpose::Move, crate::message::LimitKind::Movetime) => {
                Some(now + Duration::from_millis(self.settings.value) + self.timeouts.margin)
            }
            _ => None,
        };
        self.search = Some(Search {
            id: self.next_id,
            purpose: w.purpose,
            key: w.key(),
            ply: pos.ply(),
            left: pos.plies_left(),
            deadline,
            stopping: false,
            started: now,
            node: self.game.shown_node(),
        });
        self.next_id += 1;
        self.next_ping = Some(now + self.timeouts.ping);
        self.dirty = true;
        Ok(())
    }

    /// Sends the options that differ from those the process has, the ones it
    /// offers only.
    async fn set_options(&mut self, want: Applied) -> Result<(), String> {
        let old = self.applied;
        if old == Some(want) {
            return Ok(());
        }
        let changed = |f: fn(&Applied) -> u32| old.is_none_or(|o| f(&o) != f(&want));
        let mut lines = Vec::new();
        if old.is_none_or(|o| o.variant != want.variant) {
            lines.push(format!("setoption name UCI_Variant value {}", want.variant));
        }
        for (name, f) in [
            ("Threads", (|a: &Applied| a.threads) as fn(&Applied) -> u32),
            ("Hash", |a| a.hash),
            ("MultiPV", |a| a.multipv),
        ] {
            if changed(f) && self.options.iter().any(|o| o.eq_ignore_ascii_case(name)) {
                lines.push(format!("setoption name {name} value {}", f(&want)));
            }
        }
        for l in lines {
            self.send_engine(&l).await?;
        }
        self.applied = Some(want);
        Ok(())
    }

    // ---- the engine ----

    async fn start_engine(&mut self) -> Result<(), String> {
        let engine = Engine::spawn(&self.command)
            .map_err(|e| format!("cannot start {}: {e}", self.command.program.display()))?;
        self.engine = Some(engine);
        self.options.clear();
        self.applied = None;
        self.phase = Phase::Starting {
            deadline: Instant::now() + self.timeouts.ready,
            uciok: false,
        };
        self.send_engine("uci").await
    }

    async fn send_engine(&mut self, line: &str) -> Result<(), String> {
        match &mut self.engine {
            Some(e) => e.send(line).await,
            None => Err("the engine is not running".into()),
        }
    }

    async fn on_engine_line(&mut self, line: &str) -> Result<(), String> {
        let starting = matches!(self.phase, Phase::Starting { .. });
        match uci::parse(line) {
            EngineLine::Name(n) if starting => self.engine_name = cut(&n, 80),
            EngineLine::Option(o) if starting && self.options.len() < MAX_OPTIONS => {
                self.options.push(o)
            }
            EngineLine::UciOk => {
                if let Phase::Starting { uciok, .. } = &mut self.phase
                    && !*uciok
                {
                    *uciok = true;
                    self.send_engine("isready").await?;
                }
            }
            EngineLine::ReadyOk => {
                if let Phase::Starting { uciok: true, .. } = self.phase {
                    self.phase = Phase::Ready;
                    let name = self.engine_name.clone();
                    self.notify("ready", format!("{name} is ready")).await;
                    self.dirty = true;
                    return self.reconcile().await;
                }
                self.ready_deadline = None;
            }
            EngineLine::Info(info) => self.queue_info(info),
            EngineLine::Progress(info) => self.queue_progress(info),
            EngineLine::Book(text) => {
                if let Some(s) = self.search.as_ref().filter(|s| !s.stopping) {
                    let (search, ply) = (s.id, s.ply);
                    let text = cut(&text, 200);
                    self.send(&ServerMsg::Book { search, ply, text }).await;
                }
            }
            EngineLine::Text(text) => {
                self.text = Some(cut(&text, 200));
                self.flush_at.get_or_insert(Instant::now() + INFO_INTERVAL);
            }
            EngineLine::BestMove(word) => return self.on_bestmove(&word).await,
            _ => {}
        }
        Ok(())
    }

    fn queue_info(&mut self, info: uci::Info) {
        let Some(s) = self.search.as_ref().filter(|s| !s.stopping) else {
            return;
        };
        let exact = info.bound.is_none() && info.depth.is_some_and(|d| d >= u32::from(s.left));
        if let (1, None, Some(cp), Some(depth)) = (info.multipv, info.bound, info.cp, info.depth) {
            let cp = if s.ply % 2 == 0 { cp } else { -cp };
            // A new depth's word redraws the page's graph (a few times a search).
            let (node, eval) = (s.node, Eval { cp, depth, exact });
            self.dirty |= self.game.set_eval(node, eval);
        }
        let Some(s) = self.search.as_ref() else {
            return;
        };
        let msg = ServerMsg::Info {
            search: s.id,
            ply: s.ply,
            left: s.left,
            exact,
            info: info.clone(),
        };
        self.infos.insert(info.multipv, msg);
        self.flush_at.get_or_insert(Instant::now() + INFO_INTERVAL);
    }

    /// The live figures go with the lines, under index 0 (a line's
    /// `multipv` is 1 or more): the latest one, sent first at the flush.
    fn queue_progress(&mut self, info: uci::Info) {
        let Some(s) = self.search.as_ref().filter(|s| !s.stopping) else {
            return;
        };
        let (search, ply) = (s.id, s.ply);
        self.infos
            .insert(0, ServerMsg::Progress { search, ply, info });
        self.flush_at.get_or_insert(Instant::now() + INFO_INTERVAL);
    }

    async fn flush(&mut self) {
        self.flush_at = None;
        for (_, msg) in std::mem::take(&mut self.infos) {
            self.send(&msg).await;
        }
        if let Some(text) = self.text.take() {
            self.send(&ServerMsg::EngineText { text }).await;
        }
    }

    async fn on_bestmove(&mut self, word: &str) -> Result<(), String> {
        let Some(s) = self.search.take() else {
            return Ok(());
        };
        self.faults = 0;
        self.ready_deadline = None;
        self.next_ping = None;
        self.dirty = true;
        if s.stopping {
            self.infos.clear();
        } else {
            self.flush().await;
        }
        if s.purpose == Purpose::Analysis && !s.stopping {
            // It ended by itself (the think-time cap): not again for the same position.
            self.analysed = Some(s.key.clone());
        }
        if s.purpose == Purpose::Move && !s.stopping {
            let pl: Placement = word.parse().map_err(|_| {
                format!(
                    "the engine sent 'bestmove {}', not a placement",
                    cut(word, 40)
                )
            })?;
            self.game
                .play(pl)
                .map_err(|e| format!("the engine played {pl}, which is illegal: {e}"))?;
            if self.players == [Player::Engine; 2] {
                self.not_before = Some(Instant::now() + Duration::from_millis(self.settings.delay));
            }
        }
        self.reconcile().await
    }

    fn next_wake(&self) -> Option<Instant> {
        let starting = match self.phase {
            Phase::Starting { deadline, .. } => Some(deadline),
            _ => None,
        };
        let search = self.search.as_ref();
        [
            starting,
            search.and_then(|s| s.deadline),
            self.ready_deadline,
            search.and(self.next_ping),
            self.not_before,
            self.flush_at,
            self.limits.idle.map(|d| self.active + d),
        ]
        .into_iter()
        .flatten()
        .min()
    }

    async fn on_timer(&mut self) -> Result<(), String> {
        let now = Instant::now();
        if let Some(idle) = self.limits.idle
            && now >= self.active + idle
        {
            let message = format!(
                "this page was closed after {} s without a move or a click; its engine was ended",
                idle.as_secs()
            );
            self.send(&ServerMsg::Idle { message }).await;
            self.closed = true;
            return Ok(());
        }
        let ms = |d: Duration| d.as_millis();
        if let Phase::Starting { deadline, uciok } = self.phase
            && now >= deadline
        {
            let what = if uciok { "readyok" } else { "uciok" };
            return Err(format!(
                "the engine did not answer with {what} within {} ms",
                ms(self.timeouts.ready)
            ));
        }
        if let Some(s) = &self.search
            && s.deadline.is_some_and(|d| now >= d)
        {
            return Err(if s.stopping {
                format!("no bestmove within {} ms of stop", ms(self.timeouts.margin))
            } else {
                format!(
                    "no bestmove within the move's {} ms plus {} ms",
                    self.settings.value,
                    ms(self.timeouts.margin)
                )
            });
        }
        if self.ready_deadline.is_some_and(|d| now >= d) {
            return Err(format!(
                "no readyok within {} ms during a search",
                ms(self.timeouts.ready)
            ));
        }
        if self.search.is_some() && self.next_ping.is_some_and(|p| now >= p) {
            self.next_ping = Some(now + self.timeouts.ping);
            if self.ready_deadline.is_none() {
                self.ready_deadline = Some(now + self.timeouts.ready);
                self.send_engine("isready").await?;
            }
        }
        if self.flush_at.is_some_and(|f| now >= f) {
            self.flush().await;
        }
        if self.not_before.is_some_and(|t| now >= t) {
            self.not_before = None;
            self.dirty = true;
            return self.reconcile().await;
        }
        Ok(())
    }

    /// Kills the engine after a fault, tells the page, starts a new one
    /// (unless it failed too often in a row).
    async fn fault(&mut self, mut what: String) {
        loop {
            if let Some(e) = self.engine.take()
                && let Some(status) = e.kill().await
            {
                what = format!("{what} ({})", exit_text(status));
            }
            log::warn!("engine fault: {what}");
            self.search = None;
            self.phase = Phase::Down;
            self.ready_deadline = None;
            self.next_ping = None;
            self.infos.clear();
            self.dirty = true;
            self.faults += 1;
            if self.faults > MAX_RESTARTS {
                let msg = format!(
                    "{what}. The engine failed {} times in a row and was not \
                     restarted; press 'Restart engine' to try again",
                    self.faults
                );
                self.notify("failed", msg).await;
                return;
            }
            self.notify("restarted", format!("{what}; the engine was restarted"))
                .await;
            match self.start_engine().await {
                Ok(()) => return,
                Err(e) => what = e,
            }
        }
    }
}

async fn next_line(engine: &mut Option<Engine>) -> Option<String> {
    match engine {
        Some(e) => e.recv().await,
        None => std::future::pending().await,
    }
}

async fn sleep_until(t: Option<Instant>) {
    match t {
        Some(t) => tokio::time::sleep_until(t).await,
        None => std::future::pending().await,
    }
}

fn parse_variant(name: &str) -> Result<Variant, String> {
    name.parse().map_err(|e| format!("{e}"))
}

fn exit_text(status: std::process::ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            return format!("killed by signal {sig}");
        }
    }
    match status.code() {
        Some(c) => format!("exit code {c}"),
        None => "exited".into(),
    }
}

fn title(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

/// At most `n` characters of `s`, with control characters dropped.
fn cut(s: &str, n: usize) -> String {
    s.chars().filter(|c| !c.is_control()).take(n).collect()
}
