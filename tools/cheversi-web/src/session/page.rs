//! The page's side of a session: the messages it sends, carried out on the
//! game, and the state sent back.

use super::{Phase, Purpose, Session, cut, parse_variant, title};
use crate::game::Game;
use crate::message::{
    ClientMsg, NodeMsg, Player, PositionMsg, SearchMsg, ServerMsg, StateMsg, side_name,
};
use crate::pgn;
use axum::extract::ws::Message;
use cheversi::{Placement, Variant};

impl Session {
    /// Reads one message from the page, carries it out and brings the
    /// engine to what is wanted then.
    pub(super) async fn on_client(&mut self, text: &str) -> Result<(), String> {
        let msg: ClientMsg = match serde_json::from_str(text) {
            Ok(m) => m,
            Err(e) => {
                let e = e.to_string();
                self.error(format!("message not understood: {}", cut(&e, 200)))
                    .await;
                return Ok(());
            }
        };
        match self.apply(msg).await {
            Ok(()) => self.dirty = true,
            Err(e) => self.error(e).await,
        }
        self.reconcile().await
    }

    /// Carries out one message from the page; an error changes nothing.
    async fn apply(&mut self, msg: ClientMsg) -> Result<(), String> {
        match msg {
            ClientMsg::New { variant } => {
                self.game = Game::new(parse_variant(&variant)?);
                self.started_new();
            }
            ClientMsg::Players { white, black } => {
                self.players = [white, black];
                self.not_before = None;
            }
            ClientMsg::Play { placement } => self.play(&placement).await?,
            ClientMsg::Goto { ply } => {
                if !self.game.goto(ply) {
                    return Err(format!(
                        "no ply {ply}: the game has {}",
                        self.game.moves().len()
                    ));
                }
            }
            ClientMsg::GotoNode { node } => {
                if !self.game.goto_node(node) {
                    return Err("no such placement in the game".into());
                }
            }
            ClientMsg::Takeback {} => {
                let human = self.players.map(|p| p == Player::Human);
                if !self.game.take_back(human) {
                    return Err("nothing to take back".into());
                }
                self.not_before = None;
                // Between two engines the placement would come straight back.
                self.paused |= human == [false; 2];
            }
            ClientMsg::LoadPosition { variant, text } => {
                if text.trim().is_empty() {
                    return Err("nothing to load: the box is empty (a position string, \
                                optionally followed by 'moves K@d4 ...')"
                        .into());
                }
                self.game = Game::from_text(parse_variant(&variant)?, &text)?;
                self.started_new();
            }
            ClientMsg::LoadGame {
                variant,
                fen,
                moves,
                at,
            } => {
                let variant = parse_variant(&variant)?;
                self.game = crate::address::read(variant, fen.as_deref(), &moves, at)?;
                self.started_new();
            }
            ClientMsg::LoadPgn { text, variant } => {
                let default = match variant {
                    Some(v) => parse_variant(&v)?,
                    None => Variant::Standard,
                };
                self.game = pgn::import(&text, default)?.game;
                self.started_new();
            }
            ClientMsg::ExportPgn {} => {
                let names = self.players.map(|p| match p {
                    Player::Human => "Human".to_string(),
                    Player::Engine => self.engine_name.clone(),
                });
                let text = pgn::export(&self.game, [&names[0], &names[1]]);
                self.send(&ServerMsg::Pgn { text }).await;
            }
            ClientMsg::Analyse { on } => self.analyse = on,
            ClientMsg::Pause { on } => {
                self.paused = on;
                self.not_before = None;
            }
            ClientMsg::Settings(s) => {
                s.check(&self.limits.caps)?;
                self.settings = s;
            }
            ClientMsg::RestartEngine {} => {
                if !matches!(self.phase, Phase::Down) {
                    return Err("the engine is running".into());
                }
                self.faults = 0;
                if let Err(e) = self.start_engine().await {
                    self.fault(e).await;
                }
            }
        }
        Ok(())
    }

    fn started_new(&mut self) {
        self.new_game = true;
        self.not_before = None;
    }

    /// A human's placement on the position shown.
    async fn play(&mut self, text: &str) -> Result<(), String> {
        let pos = self.game.current();
        let mover = pos.side_to_move();
        if !pos.is_over() && self.players[mover.index()] == Player::Engine {
            return Err(format!(
                "{} is played by the engine",
                title(side_name(mover))
            ));
        }
        let pl: Placement = text
            .parse()
            .map_err(|e| format!("'{}': {e}", cut(text, 40)))?;
        if let Err(e) = self.game.play(pl) {
            let msg = ServerMsg::Illegal {
                placement: pl.to_string(),
                reason: e.to_string(),
            };
            self.send(&msg).await;
        }
        Ok(())
    }

    pub(super) async fn send_state(&mut self) {
        let thinking = self
            .search
            .as_ref()
            .filter(|s| s.purpose == Purpose::Move && !s.stopping)
            .map(|_| side_name(self.game.current().side_to_move()));
        let (tree_text, tree_at) = crate::address::write(&self.game);
        let state = StateMsg {
            variant: self.game.variant().name(),
            tree_text,
            tree_at,
            start_fen: self.game.start_fen().map(str::to_string),
            start_ply: self.game.start_ply(),
            moves: self.game.moves().iter().map(|m| m.to_string()).collect(),
            cursor: self.game.cursor(),
            position: PositionMsg::of(&self.game),
            players: self.players,
            settings: self.settings,
            caps: self.limits.caps,
            analyse: self.analyse,
            paused: self.paused,
            thinking,
            search: self
                .search
                .as_ref()
                .filter(|s| !s.stopping)
                .map(|s| SearchMsg {
                    id: s.id,
                    purpose: match s.purpose {
                        Purpose::Move => "move",
                        Purpose::Analysis => "analysis",
                    },
                    ply: s.ply,
                    elapsed: s.started.elapsed().as_millis() as u64,
                }),
            comments: self.game.comments(),
            line: self.game.line().to_vec(),
            tree: NodeMsg::tree(&self.game).1,
            evals: self.game.evals(),
            engine_name: self.engine_name.clone(),
        };
        self.send(&ServerMsg::State(Box::new(state))).await;
    }

    pub(super) async fn send(&mut self, msg: &ServerMsg) {
        let Ok(text) = serde_json::to_string(msg) else {
            return;
        };
        if self.ws.send(Message::Text(text.into())).await.is_err() {
            self.closed = true;
        }
    }

    pub(super) async fn error(&mut self, message: String) {
        self.send(&ServerMsg::Error { message }).await;
    }

    pub(super) async fn notify(&mut self, status: &'static str, message: String) {
        log::info!("engine {status}: {message}");
        self.send(&ServerMsg::Engine { status, message }).await;
    }
}
