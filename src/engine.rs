//! The engine facade: owns the search thread. `go` returns at once; `stop`
//! raises the atomic flag and waits for the search to report its result.
//! Everything the search says is forwarded, typed, to a [`Sink`].

use crate::perft::perft;
use crate::position::Position;
use crate::search::{Control, Event, Info, Limits, Options, Searcher};
use crate::solve::explore;
use crate::types::Placement;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// What the engine reports while and after it works.
#[derive(Clone, Debug)]
pub enum Report {
    /// Search progress; `multipv` says whether several lines are searched.
    Event {
        /// The search's event.
        event: Event,
        /// MultiPV is above 1.
        multipv: bool,
    },
    /// The search is over: the last report of a `go`.
    Finished(Finish),
    /// `perft`: the count below one first placement.
    PerftMove(Placement, u64),
    /// `explore`: a move's interval, as it narrows.
    Explore(explore::Event),
    /// `explore` is over: what it proved, best first.
    Explored(explore::Summary),
    /// `perft` is over.
    PerftDone {
        /// Leaves counted.
        nodes: u64,
        /// Wall time.
        elapsed: Duration,
        /// False if `stop` cut the count short.
        complete: bool,
    },
}

/// The end of a search.
#[derive(Clone, Debug)]
pub struct Finish {
    /// The move to play; `None` when the game is over.
    pub best: Option<Placement>,
    /// Nodes visited.
    pub nodes: u64,
    /// The last progress line, if the search completed one.
    pub last: Option<Info>,
    /// Wall time of the search.
    pub elapsed: Duration,
    /// 100 x the current point difference, side to move's view (the exact
    /// result when the game is over).
    pub static_score: i32,
}

/// Where reports go. Called from the search thread.
pub type Sink = Arc<dyn Fn(Report) + Send + Sync>;

/// The engine is searching; the request was not carried out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Busy;

/// The search facade.
pub struct Engine {
    options: Options,
    /// `None` while a job thread holds it.
    searcher: Option<Searcher>,
    control: Arc<Control>,
    /// Set by the job just before its final report.
    done: Arc<AtomicBool>,
    job: Option<JoinHandle<Searcher>>,
    sink: Sink,
}

impl Engine {
    /// An idle engine with these options, reporting to `sink`.
    pub fn new(options: Options, sink: Sink) -> Engine {
        Engine {
            searcher: Some(Searcher::new(options.clone())),
            options,
            control: Arc::new(Control::default()),
            done: Arc::new(AtomicBool::new(false)),
            job: None,
            sink,
        }
    }

    /// Is a job still running? Reaps one that has sent its final report.
    pub fn is_busy(&mut self) -> bool {
        let ended = self.job.as_ref().is_some_and(JoinHandle::is_finished);
        if ended || self.job.is_some() && self.done.load(Ordering::SeqCst) {
            self.join();
        }
        self.job.is_some()
    }

    /// Starts a search of `pos`; returns at once.
    pub fn go(&mut self, pos: &Position, limits: Limits) -> Result<(), Busy> {
        let multipv = self.options.multipv > 1;
        let pos = pos.clone();
        self.spawn(move |searcher, control, sink, done| {
            search_job(searcher, &pos, &limits, control, &*sink, done, multipv)
        })
    }

    /// Starts counting the game tree `depth` plies below `pos`.
    pub fn perft(&mut self, pos: &Position, depth: u32) -> Result<(), Busy> {
        let mut pos = pos.clone();
        self.spawn(move |_, control, sink, done| perft_job(&mut pos, depth, control, &*sink, done))
    }

    /// Starts proving the value of every legal move of `pos`, for at most
    /// `budget` (until every move is exact, or `stop`, without one);
    /// returns at once.
    pub fn explore(&mut self, pos: &Position, budget: Option<Duration>) -> Result<(), Busy> {
        let pos = pos.clone();
        self.spawn(move |searcher, control, sink, done| {
            explore_job(searcher, &pos, budget, control, &*sink, done)
        })
    }

    /// Stops the job, if any, and waits until it has sent its final report.
    pub fn stop(&mut self) {
        if let Some(job) = &self.job {
            self.control.stop();
            job.thread().unpark();
        }
        self.join();
    }

    /// Stops the job for good: waits at most `within` for it to send its
    /// final report, then leaves it to end on its own (the process is
    /// about to exit, so nothing is left waiting for its result).
    pub fn quit(&mut self, within: Duration) {
        let Some(job) = &self.job else { return };
        self.control.stop();
        job.thread().unpark();
        let end = Instant::now() + within;
        while !job.is_finished() && Instant::now() < end {
            thread::sleep(Duration::from_millis(1));
        }
        if job.is_finished() {
            self.join();
        } else {
            log::warn!("quit: the search did not end within {within:?}; not waiting for it");
            self.job = None;
        }
    }

    /// The opponent played the expected move: a pondering search goes on
    /// as a normal one.
    pub fn ponderhit(&self) {
        if let Some(job) = &self.job {
            self.control.ponderhit();
            job.thread().unpark();
        }
    }

    /// The current options.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Changes the options; refused while searching.
    pub fn set_options(&mut self, options: Options) -> Result<(), Busy> {
        let searcher = self.idle_searcher()?;
        searcher.set_options(options.clone());
        self.options = options;
        Ok(())
    }

    /// Forgets what earlier searches learned; refused while searching.
    pub fn clear(&mut self) -> Result<(), Busy> {
        self.idle_searcher()?.clear();
        Ok(())
    }

    fn idle_searcher(&mut self) -> Result<&mut Searcher, Busy> {
        if self.is_busy() {
            return Err(Busy);
        }
        self.searcher.as_mut().ok_or(Busy)
    }

    fn spawn<F>(&mut self, job: F) -> Result<(), Busy>
    where
        F: FnOnce(&mut Searcher, &Control, Sink, &AtomicBool) + Send + 'static,
    {
        self.idle_searcher()?;
        let mut searcher = self.searcher.take().ok_or(Busy)?;
        self.control.reset();
        self.done.store(false, Ordering::SeqCst);
        let (control, sink, done) = (self.control.clone(), self.sink.clone(), self.done.clone());
        let handle = thread::Builder::new().name("search".into()).spawn(move || {
            crate::sched::default_slice();
            job(&mut searcher, &control, sink, &done);
            searcher
        });
        match handle {
            Ok(h) => {
                self.job = Some(h);
                Ok(())
            }
            // The closure (and the searcher in it) is gone; start afresh.
            Err(e) => {
                log::error!("cannot start the search thread: {e}");
                self.searcher = Some(Searcher::new(self.options.clone()));
                Err(Busy)
            }
        }
    }

    fn join(&mut self) {
        if let Some(job) = self.job.take() {
            self.searcher = Some(match job.join() {
                Ok(s) => s,
                Err(_) => {
                    log::error!("the search thread panicked");
                    Searcher::new(self.options.clone())
                }
            });
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
    }
}

fn search_job(
    searcher: &mut Searcher,
    pos: &Position,
    limits: &Limits,
    control: &Control,
    sink: &(dyn Fn(Report) + Send + Sync),
    done: &AtomicBool,
    multipv: bool,
) {
    let start = Instant::now();
    let mut last = None;
    let book = if searcher.options().own_book && !pos.is_over() {
        crate::solve::book::probe(pos)
    } else {
        None
    };
    if let Some(answer) = &book {
        let event = Event::Message(answer.text());
        sink(Report::Event { event, multipv });
    }
    let (best, nodes) = if pos.is_over() {
        (None, 0)
    } else if let Some(mv) = book.as_ref().and_then(|a| a.mv) {
        let info = book_info(pos, book.as_ref().expect("a book answer"), mv, start);
        last = Some(info.clone());
        let event = Event::Info(info);
        sink(Report::Event { event, multipv });
        (Some(mv), 0)
    } else {
        // A bug in the search must not cost the GUI its bestmove.
        let run = panic::catch_unwind(AssertUnwindSafe(|| {
            searcher.go(pos, limits, control, &mut |event| {
                // The closing line repeats the best line, whatever MultiPV.
                if let Event::Info(i) = &event
                    && i.multipv == 1
                {
                    last = Some(i.clone());
                }
                sink(Report::Event { event, multipv });
            })
        }));
        match run {
            Ok(outcome) => (outcome.best, outcome.nodes),
            Err(_) => {
                log::error!("the search panicked in {}", pos.fen());
                *searcher = Searcher::new(searcher.options().clone());
                let event = Event::Message("error: the search failed".into());
                sink(Report::Event { event, multipv });
                (pos.legal_moves().iter().next(), 0)
            }
        }
    };
    // UCI: under `infinite` or `ponder`, bestmove waits for stop/ponderhit.
    while !control.stopped() && (limits.infinite || limits.ponder && !control.pondering_over()) {
        thread::park_timeout(Duration::from_millis(50));
    }
    done.store(true, Ordering::SeqCst);
    sink(Report::Finished(Finish {
        best,
        nodes,
        last,
        elapsed: start.elapsed(),
        static_score: pos.diff() * 100,
    }));
}

/// The `info` line of a move the book proves: depth to the end (the score
/// is the game's value), exact where the data knows the point difference,
/// else the lower bound that the move proves.
fn book_info(
    pos: &Position,
    answer: &crate::solve::book::Answer,
    mv: Placement,
    start: Instant,
) -> Info {
    let left = pos.plies_left() as u32;
    Info {
        depth: left,
        seldepth: left,
        multipv: 1,
        score: answer.score * crate::search::SCALE,
        bound: answer.bound,
        exact: true,
        nodes: 0,
        time: start.elapsed(),
        hashfull: 0,
        pv: vec![mv],
    }
}

fn explore_job(
    searcher: &mut Searcher,
    pos: &Position,
    budget: Option<Duration>,
    control: &Control,
    sink: &(dyn Fn(Report) + Send + Sync),
    done: &AtomicBool,
) {
    let use_book = searcher.options().own_book;
    let over = AtomicBool::new(false);
    let run = thread::scope(|scope| {
        if let Some(budget) = budget {
            let end = Instant::now() + budget;
            let over = &over;
            scope.spawn(move || stop_at(end, control, over));
        }
        // A bug in the search must not cost the GUI its closing line.
        let run = panic::catch_unwind(AssertUnwindSafe(|| {
            explore::explore(searcher, pos, use_book, control, &mut |e| {
                sink(Report::Explore(e.clone()))
            })
        }));
        over.store(true, Ordering::SeqCst);
        run
    });
    let summary = run.unwrap_or_else(|_| {
        log::error!("the explorer panicked in {}", pos.fen());
        *searcher = Searcher::new(searcher.options().clone());
        let event = Event::Message("error: the explorer failed".into());
        sink(Report::Event {
            event,
            multipv: false,
        });
        explore::Summary::default()
    });
    done.store(true, Ordering::SeqCst);
    sink(Report::Explored(summary));
}

/// Says stop at `end`, unless the job is `over` first.
fn stop_at(end: Instant, control: &Control, over: &AtomicBool) {
    while !over.load(Ordering::SeqCst) && !control.stopped() {
        let now = Instant::now();
        if now >= end {
            control.stop();
            return;
        }
        thread::park_timeout((end - now).min(Duration::from_millis(5)));
    }
}

fn perft_job(
    pos: &mut Position,
    depth: u32,
    control: &Control,
    sink: &(dyn Fn(Report) + Send + Sync),
    done: &AtomicBool,
) {
    let start = Instant::now();
    let mut nodes = 0;
    let mut complete = true;
    for pl in pos.legal_moves().to_vec() {
        if depth == 0 {
            break;
        }
        let u = pos.play(pl);
        let n = count(pos, depth - 1, control);
        pos.undo(pl, u);
        let Some(n) = n else {
            complete = false;
            break;
        };
        nodes += n;
        sink(Report::PerftMove(pl, n));
    }
    done.store(true, Ordering::SeqCst);
    sink(Report::PerftDone {
        nodes: if depth == 0 { 1 } else { nodes },
        elapsed: start.elapsed(),
        complete,
    });
}

/// Perft that gives up (`None`) once `control` says stop. Subtrees of at
/// most this depth take milliseconds, so they are counted without checking.
const UNCHECKED: u32 = 3;

fn count(pos: &mut Position, depth: u32, control: &Control) -> Option<u64> {
    if control.stopped() {
        return None;
    }
    if depth <= UNCHECKED || pos.is_over() {
        return Some(perft(pos, depth));
    }
    let mut total = 0;
    for pl in pos.legal_moves().to_vec() {
        let u = pos.play(pl);
        let n = count(pos, depth - 1, control);
        pos.undo(pl, u);
        total += n?;
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;
    use std::sync::Mutex;

    fn engine() -> (Engine, Arc<Mutex<Vec<Report>>>) {
        let log = Arc::new(Mutex::new(Vec::new()));
        let sink_log = log.clone();
        let sink: Sink = Arc::new(move |r| sink_log.lock().unwrap().push(r));
        (Engine::new(Options::default(), sink), log)
    }

    fn finishes(log: &Mutex<Vec<Report>>) -> usize {
        let log = log.lock().unwrap();
        log.iter()
            .filter(|r| matches!(r, Report::Finished(_)))
            .count()
    }

    #[test]
    fn infinite_search_waits_for_stop_and_reports_once() {
        let (mut e, log) = engine();
        let pos = Position::new(Variant::Standard);
        let limits = Limits {
            infinite: true,
            depth: Some(1),
            ..Default::default()
        };
        e.go(&pos, limits).unwrap();
        thread::sleep(Duration::from_millis(50));
        assert!(e.is_busy(), "infinite must not end by itself");
        assert_eq!(e.go(&pos, Limits::default()), Err(Busy));
        assert_eq!(e.clear(), Err(Busy));
        e.stop();
        assert!(!e.is_busy());
        assert_eq!(finishes(&log), 1);
        e.stop();
        assert_eq!(finishes(&log), 1, "stop when idle reports nothing");
    }

    #[test]
    fn quit_does_not_wait_long_for_a_job_that_is_slow_to_stop() {
        let (mut e, _) = engine();
        e.spawn(|_, _, _, _| thread::sleep(Duration::from_secs(30)))
            .unwrap();
        let start = Instant::now();
        e.quit(Duration::from_millis(20));
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "{:?}",
            start.elapsed()
        );
        assert!(!e.is_busy());
        let (mut e, log) = engine();
        let limits = Limits {
            infinite: true,
            ..Default::default()
        };
        e.go(&Position::new(Variant::Standard), limits).unwrap();
        e.quit(Duration::from_secs(20));
        assert_eq!(
            finishes(&log),
            1,
            "a search that stops in time still reports"
        );
    }

    #[test]
    fn game_over_gives_no_move_and_the_exact_score() {
        let (mut e, log) = engine();
        let pos = Position::from_fen("rnbqkbnr/8/8/8/8/8/8/RNBQKBNR w h8", Variant::Open).unwrap();
        e.go(&pos, Limits::default()).unwrap();
        e.stop();
        let log = log.lock().unwrap();
        let Some(Report::Finished(f)) = log.last() else {
            panic!("no finish: {log:?}")
        };
        assert_eq!((f.best, f.static_score), (None, pos.diff() * 100));
    }

    #[test]
    fn perft_counts_match_the_library() {
        let (mut e, log) = engine();
        let mut pos = Position::new(Variant::Standard);
        e.perft(&pos, 2).unwrap();
        while e.is_busy() {
            thread::sleep(Duration::from_millis(1));
        }
        let log = log.lock().unwrap();
        let Some(Report::PerftDone {
            nodes, complete, ..
        }) = log.last()
        else {
            panic!("no perft result")
        };
        assert_eq!((*nodes, *complete), (perft(&mut pos, 2), true));
        assert_eq!(log.len(), 65);
    }
}
