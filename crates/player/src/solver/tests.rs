//! Exact reference counts (shared/puzzles/README.md), and the events, applied in order, give
//! the solution.

use super::*;

const LEET: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const INKALA: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
const VASTE3: &str =
    ".......12....35......6...7.7.....3.....4..8..1...........12.....8.....4..5....6..";

fn run(strategy: Strategy, puzzle: &str) -> SearchResult {
    search(
        strategy,
        &Board::parse(puzzle).unwrap(),
        &Options::default(),
        &mut (),
    )
}

#[test]
fn leetcode_counts() {
    let r = run(Strategy::RowMajor, LEET);
    assert_eq!(r.stats.placements, 4208);
    assert_eq!(r.stats.calls(), 4209);
    assert_eq!(
        r.stats.placements - r.stats.undos,
        51,
        "every empty cell filled once at the end"
    );
    assert_eq!(run(Strategy::Mrv, LEET).stats.placements, 51);
}

#[test]
fn inkala_counts() {
    assert_eq!(run(Strategy::RowMajor, INKALA).stats.placements, 49_558);
    assert_eq!(run(Strategy::Mrv, INKALA).stats.placements, 10_101);
}

#[test]
fn vaste3_counts() {
    let mrv = run(Strategy::Mrv, VASTE3);
    assert_eq!(mrv.stats.placements, 10_373);
    assert_eq!(mrv.stats.calls(), 10_374);
    let rm = run(Strategy::RowMajor, VASTE3);
    assert_eq!(rm.stats.placements, 6_943_195);
    assert_eq!(rm.solution(), mrv.solution());
}

#[test]
fn budget_stops_cleanly() {
    let b = Board::parse(VASTE3).unwrap();
    let opts = Options {
        max_steps: Some(1000),
        check_unique: true,
    };
    let r = search(Strategy::RowMajor, &b, &opts, &mut ());
    assert_eq!(r.outcome, Outcome::BudgetExhausted);
    assert_eq!(r.stats.placements, 1000);
    assert_eq!(r.unique, None);
}

#[test]
fn uniqueness_for_every_strategy() {
    let b = Board::parse(LEET).unwrap();
    let opts = Options {
        max_steps: None,
        check_unique: true,
    };
    for s in Strategy::ALL {
        assert_eq!(search(s, &b, &opts, &mut ()).unique, Some(true), "{s}");
    }
    // Remove givens until there are several solutions.
    let mut loose = b;
    for cell in [0, 1, 4, 9, 12, 13, 14] {
        loose.set(cell, 0);
    }
    for s in Strategy::ALL {
        let r = search(s, &loose, &opts, &mut ());
        assert!(r.solution().is_some(), "{s}");
        assert_eq!(r.unique, Some(false), "{s}");
    }
    let empty = Board::empty();
    for s in Strategy::ALL {
        assert_eq!(search(s, &empty, &opts, &mut ()).unique, Some(false), "{s}");
    }
}

#[test]
fn unsolvable_and_invalid() {
    // Valid by the rules but no solution: r1c9 can hold nothing.
    let b = Board::parse(
        "12345678.........9.......................................................................",
    );
    assert!(b.is_err()); // 89 chars
    let b = Board::parse(
        "12345678........9................................................................",
    )
    .unwrap();
    assert!(b.validate().is_ok());
    for s in Strategy::ALL {
        assert_eq!(run(s, &b.to_line()).outcome, Outcome::Unsolvable, "{s}");
    }
    let bad = Board::parse(&format!("11{}", ".".repeat(79))).unwrap();
    for s in Strategy::ALL {
        assert_eq!(run(s, &bad.to_line()).outcome, Outcome::Unsolvable, "{s}");
    }
}

#[test]
fn events_applied_in_order_give_the_solution() {
    for p in [LEET, INKALA] {
        let b = Board::parse(p).unwrap();
        for s in Strategy::ALL {
            let mut rec = Recorder::default();
            let r = search(s, &b, &Options::default(), &mut rec);
            let mut applied = b;
            let (mut places, mut undos) = (0, 0);
            for e in &rec.0 {
                match *e {
                    Event::Place { cell, digit } => {
                        assert_eq!(applied.get(cell as usize), 0, "{s}: place on a filled cell");
                        applied.set(cell as usize, digit);
                        places += 1;
                    }
                    Event::Undo { cell, digit } => {
                        assert_eq!(
                            applied.get(cell as usize),
                            digit,
                            "{s}: undo of a digit not there"
                        );
                        applied.set(cell as usize, 0);
                        undos += 1;
                    }
                }
            }
            assert_eq!(Some(applied), r.solution(), "{s}");
            assert_eq!((places, undos), (r.stats.placements, r.stats.undos), "{s}");
        }
    }
}

#[test]
fn solved_board_needs_no_steps() {
    let sol = run(Strategy::Fast, LEET).solution().unwrap();
    for s in Strategy::ALL {
        let r = run(s, &sol.to_line());
        assert_eq!(r.solution(), Some(sol), "{s}");
        assert_eq!(r.stats.placements, 0, "{s}");
    }
}

/// The first row a permutation of 1..9 picked by `seed`; everything else empty.
pub(super) fn seed_board(seed: u64) -> Board {
    let mut digits: Vec<u8> = (1..=9).collect();
    let mut x = seed | 1;
    for i in (1..9).rev() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        digits.swap(i, (x % (i as u64 + 1)) as usize);
    }
    let mut b = Board::empty();
    for (c, &d) in digits.iter().enumerate() {
        b.set(c, d);
    }
    b
}

mod props {
    use super::{Board, Event, Options, Outcome, Recorder, search, seed_board};
    use crate::solver::Strategy as S;
    use proptest::prelude::*;

    /// A random solvable board: a random solution (fast solver on a shuffled seed), then random givens kept.
    fn solvable_board() -> impl Strategy<Value = Board> {
        (any::<u64>(), 20usize..50).prop_map(|(seed, keep)| {
            let sol =
                crate::solver::fast::solve(&seed_board(seed)).expect("seed boards are solvable");
            let mut b = Board::empty();
            let mut x = seed | 1;
            let mut cells: Vec<usize> = (0..81).collect();
            for i in (1..81).rev() {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                cells.swap(i, (x % (i as u64 + 1)) as usize);
            }
            for &c in &cells[..keep] {
                b.set(c, sol.get(c));
            }
            b
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        #[test]
        fn strategies_agree_with_fast(b in solvable_board()) {
            let fast = crate::solver::fast::solutions(&b, 2);
            prop_assert!(fast.count >= 1);
            let opts = Options { max_steps: Some(20_000_000), check_unique: false };
            for s in S::ALL {
                let mut rec = Recorder::default();
                let r = search(s, &b, &opts, &mut rec);
                if r.outcome == Outcome::BudgetExhausted { continue; }
                let sol = r.solution().expect("solvable");
                prop_assert!(sol.is_solved());
                prop_assert!(sol.extends(&b));
                if fast.count == 1 { prop_assert_eq!(Some(sol), fast.first); }
                let mut applied = b;
                for e in &rec.0 {
                    match *e {
                        Event::Place { cell, digit } => applied.set(cell as usize, digit),
                        Event::Undo { cell, .. } => applied.set(cell as usize, 0),
                    }
                }
                prop_assert_eq!(applied, sol);
            }
        }
    }
}
