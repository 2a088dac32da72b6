//! The search API as the engine drives it: limits, stop, MultiPV, threads.

use cheversi::search::{Control, Event, Info, Limits, Options, Searcher};
use cheversi::{Placement, Position, Variant};
use std::time::Duration;

fn start() -> Position {
    Position::from_fen("8/8/8/3Q4/3Kq3/8/8/8 b d5", Variant::Standard).unwrap()
}

fn run(s: &mut Searcher, pos: &Position, limits: &Limits) -> (Vec<Info>, Option<Placement>, u64) {
    let mut infos = Vec::new();
    let out = s.go(pos, limits, &Control::default(), &mut |e| {
        if let Event::Info(i) = e {
            infos.push(i);
        }
    });
    (infos, out.best, out.nodes)
}

#[test]
fn depth_past_the_end_is_clamped_and_exact() {
    let pos = Position::from_fen("8/8/2n5/2r1R3/2RK4/1Qq5/2r5/8 w c6", Variant::Standard).unwrap();
    let mut s = Searcher::new(Options::default());
    let limits = Limits {
        depth: Some(40),
        ..Limits::default()
    };
    let (infos, best, _) = run(&mut s, &pos, &limits);
    let last = infos.last().unwrap();
    assert_eq!(last.depth, pos.plies_left() as u32);
    assert!(last.exact);
    assert!(pos.legal_moves().contains(best.unwrap()));
    assert_eq!(last.pv.first().copied(), best);
}

#[test]
fn node_limit_is_deterministic_and_respected() {
    let pos = start();
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    let mut a = Searcher::new(Options::default());
    let mut b = Searcher::new(Options::default());
    let (_, best_a, nodes_a) = run(&mut a, &pos, &limits);
    let (_, best_b, nodes_b) = run(&mut b, &pos, &limits);
    assert_eq!((best_a, nodes_a), (best_b, nodes_b));
    assert!(nodes_a <= 20_000 + 1_000, "{nodes_a}");
    assert!(pos.legal_moves().contains(best_a.unwrap()));
}

#[test]
fn an_immediate_stop_still_gives_a_legal_move() {
    let pos = Position::new(Variant::Standard);
    let control = Control::default();
    control.stop();
    let mut s = Searcher::new(Options::default());
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    let out = s.go(&pos, &limits, &control, &mut |_| {});
    assert!(pos.legal_moves().contains(out.best.unwrap()));
}

#[test]
fn stop_from_another_thread_ends_an_infinite_search() {
    let pos = Position::new(Variant::Standard);
    let control = Control::default();
    let mut s = Searcher::new(Options {
        threads: 2,
        ..Options::default()
    });
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    let out = std::thread::scope(|scope| {
        scope.spawn(|| {
            std::thread::sleep(Duration::from_millis(100));
            control.stop();
        });
        s.go(&pos, &limits, &control, &mut |_| {})
    });
    assert!(pos.legal_moves().contains(out.best.unwrap()));
    assert!(out.nodes > 0);
}

#[test]
fn multipv_reports_distinct_lines_best_first() {
    let pos = start();
    let mut s = Searcher::new(Options {
        multipv: 3,
        ..Options::default()
    });
    let limits = Limits {
        depth: Some(3),
        ..Limits::default()
    };
    let (infos, best, _) = run(&mut s, &pos, &limits);
    let last: Vec<&Info> = infos.iter().filter(|i| i.depth == 3).collect();
    assert_eq!(
        last.iter().map(|i| i.multipv).collect::<Vec<_>>(),
        [1, 2, 3]
    );
    assert!(last.windows(2).all(|w| w[0].score >= w[1].score));
    assert_ne!(last[0].pv[0], last[1].pv[0]);
    assert_ne!(last[1].pv[0], last[2].pv[0]);
    assert_eq!(Some(last[0].pv[0]), best);
}

#[test]
fn multipv_and_threads_keep_exact_values() {
    let pos = Position::from_fen("8/8/6Q1/7n/6bN/6BK/6qn/8 w h2", Variant::Standard).unwrap();
    let exact = |options: Options| {
        let mut s = Searcher::new(options);
        let limits = Limits {
            depth: Some(16),
            ..Limits::default()
        };
        let (infos, _, _) = run(&mut s, &pos, &limits);
        infos.iter().rev().find(|i| i.multipv == 1).unwrap().score
    };
    let one = exact(Options::default());
    assert_eq!(
        exact(Options {
            threads: 2,
            ..Options::default()
        }),
        one
    );
    assert_eq!(
        exact(Options {
            multipv: 4,
            ..Options::default()
        }),
        one
    );
}

#[test]
fn searchmoves_restrict_the_root() {
    let pos = start();
    let only: Placement = pos.legal_moves().to_vec()[3];
    let mut s = Searcher::new(Options::default());
    let limits = Limits {
        depth: Some(3),
        searchmoves: vec![only],
        ..Limits::default()
    };
    let (_, best, _) = run(&mut s, &pos, &limits);
    assert_eq!(best, Some(only));
}

#[test]
fn a_finished_game_has_no_move() {
    let mut pos = Position::new(Variant::Open);
    while !pos.is_over() {
        let m = pos.legal_moves().to_vec()[0];
        pos.play(m);
    }
    let mut s = Searcher::new(Options::default());
    let (_, best, _) = run(&mut s, &pos, &Limits::default());
    assert_eq!(best, None);
}

#[test]
fn movetime_ends_the_search() {
    let pos = Position::new(Variant::Standard);
    let mut s = Searcher::new(Options::default());
    let limits = Limits {
        movetime: Some(Duration::from_millis(50)),
        ..Limits::default()
    };
    let (_, best, _) = run(&mut s, &pos, &limits);
    assert!(pos.legal_moves().contains(best.unwrap()));
}
