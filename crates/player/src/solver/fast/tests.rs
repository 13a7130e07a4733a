//! The fast solver against the observed backtracker and against samples of the standard puzzle
//! sets (`tests/data/puzzles/`, in the repository; the whole sets are for the benchmarks).

use super::*;
use crate::solver::{Options, Outcome, Strategy, search};

const PUZZLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/puzzles/");

/// The puzzles of a sample file in `tests/data/puzzles/`.
fn sample(file: &str) -> Vec<String> {
    let path = format!("{PUZZLES}{file}");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let lines: Vec<String> = text.lines().map(str::to_owned).collect();
    assert!(lines.len() >= 90, "{path}: only {} puzzles", lines.len());
    lines
}

/// The solution count up to 2 by the MRV backtracker, `None` if it ran out of budget.
fn reference_count(board: &Board) -> Option<u32> {
    let opts = Options {
        max_steps: Some(2_000_000),
        check_unique: true,
    };
    let r = search(Strategy::Mrv, board, &opts, &mut ());
    match (r.outcome, r.unique) {
        (Outcome::Unsolvable, _) => Some(0),
        (Outcome::Solved(_), Some(true)) => Some(1),
        (Outcome::Solved(_), Some(false)) => Some(2),
        _ => None,
    }
}

/// Checks the count of `line` (via all three entries) and that the first solution is a solution.
fn check(line: &str, expected: u32) {
    let board = Board::parse_line(line).unwrap();
    let s = solutions(&board, 2);
    assert_eq!(s.count, expected, "{line}");
    assert_eq!(solutions_line(line.as_bytes(), 2).unwrap(), s, "{line}");
    assert_eq!(count_line(line.as_bytes(), 2), Ok(expected), "{line}");
    match s.first {
        Some(sol) => {
            assert!(
                sol.is_solved() && sol.extends(&board),
                "{line}: bad solution {sol:?}"
            );
        }
        None => assert_eq!(expected, 0, "{line}"),
    }
}

#[test]
fn seventeen_clue_sample_is_unique() {
    for line in sample("17_clue_sample.txt") {
        check(&line, 1);
    }
}

#[test]
fn forum_hardest_sample_is_unique() {
    for line in sample("forum_hardest_sample.txt") {
        check(&line, 1);
    }
}

#[test]
fn magictour_sample_is_unique_and_matches_backtracking() {
    for line in sample("magictour_sample.txt") {
        check(&line, 1);
        let board = Board::parse_line(&line).unwrap();
        let mrv = search(Strategy::Mrv, &board, &Options::default(), &mut ());
        assert_eq!(solve(&board), mrv.solution(), "{line}");
    }
}

#[test]
fn serg_sample_has_several_solutions() {
    for line in sample("serg_sample.txt") {
        check(&line, 2);
        let board = Board::parse_line(&line).unwrap();
        assert_eq!(reference_count(&board), Some(2), "{line}");
    }
}

#[test]
fn excluding_a_digit_leaves_the_solutions_without_it() {
    for line in sample("serg_sample.txt").iter().take(20) {
        let board = Board::parse_line(line).unwrap();
        let all = count_solutions(&board, 10_000);
        let first = solve(&board).unwrap();
        for c in (0..CELLS).filter(|&c| board.get(c) == 0) {
            // The solutions split into those with the first one's digit at c, and the rest.
            let mut with = board;
            with.set(c, first.get(c));
            let without = solutions_excluding(&board, &[(c, first.get(c))], 10_000);
            assert_eq!(
                count_solutions(&with, 10_000) + without.count,
                all,
                "{line}"
            );
            if let Some(o) = without.first {
                assert!(o.is_solved() && o.extends(&board) && o.get(c) != first.get(c));
            }
        }
        assert_eq!(solutions_excluding(&board, &[], 10_000).count, all);
        let other = another_solution(&board, &first).unwrap();
        assert!(other != first && other.is_solved() && other.extends(&board));
        assert_eq!(
            another_solution(&other, &other),
            None,
            "a full board has one"
        );
        // Out-of-range exclusions are ignored.
        assert_eq!(
            solutions_excluding(&board, &[(81, 1), (0, 0)], 10_000).count,
            all
        );
    }
}

#[test]
fn empty_and_solved_boards() {
    let empty = Board::empty();
    assert_eq!(count_solutions(&empty, 2), 2);
    assert_eq!(count_solutions(&empty, 5), 5);
    assert_eq!(count_solutions(&empty, 1), 1);
    assert_eq!(count_solutions(&empty, 0), 0);
    let sol = solve(&empty).unwrap();
    assert!(sol.is_solved());
    assert_eq!(count_solutions(&sol, 2), 1);
    assert_eq!(solve(&sol), Some(sol));
    assert_eq!(solutions(&sol, 2).guesses, 0);
}

#[test]
fn contradictions_have_no_solution() {
    let lines = [
        // Two 1s in a row, a column, a box.
        format!("11{}", ".".repeat(79)),
        format!("1{}1{}", ".".repeat(8), ".".repeat(71)),
        format!("1.........1{}", ".".repeat(70)),
        // Legal givens, but r1c9 can hold nothing.
        "12345678........9................................................................"
            .to_owned(),
        // Legal givens, but no 1 can go in row 1 (blocked by box 1 and column 9).
        format!(
            "...23456..1.......{}........1{}",
            ".".repeat(18),
            ".".repeat(36)
        ),
    ];
    for line in &lines {
        assert_eq!(line.len(), 81, "{line}");
        check(line, 0);
        let board = Board::parse_line(line).unwrap();
        assert_eq!(solve(&board), None);
        if board.validate().is_ok() {
            assert_eq!(reference_count(&board), Some(0), "{line}");
        }
    }
    // A solved grid with two cells swapped breaks the rules.
    let mut bad = solve(&Board::empty()).unwrap();
    let (a, b) = (bad.get(0), bad.get(1));
    bad.set(0, b);
    bad.set(1, a);
    assert_eq!(count_solutions(&bad, 2), 0);
}

#[test]
fn line_entry_rejects_bad_input() {
    assert_eq!(
        solutions_line(b"123", 2),
        Err(ParseError::CellCount { found: 3 })
    );
    let mut line = [b'.'; 81];
    line[5] = b'x';
    assert_eq!(
        solutions_line(&line, 2),
        Err(ParseError::BadChar {
            line: 1,
            column: 6,
            ch: 'x'
        })
    );
    assert_eq!(
        count_line(&line, 2),
        solutions_line(&line, 2).map(|s| s.count)
    );
    // The bytes next to the accepted ones.
    for ch in [b'/', b':', b'-', b'A', b'\xAE'] {
        line[5] = ch;
        assert!(matches!(
            count_line(&line, 2),
            Err(ParseError::BadChar { column: 6, .. })
        ));
    }
    line[5] = b'0';
    assert_eq!(solutions_line(&line, 2).unwrap().count, 2);
    assert_eq!(count_line(&line, 2), Ok(2));
    // The same digit twice in a row, a column or a box: no solution.
    for other in [8, 45, 19] {
        let mut twice = [b'.'; 81];
        (twice[0], twice[other]) = (b'4', b'4');
        assert_eq!(count_line(&twice, 2), Ok(0), "cells 0 and {other}");
    }
}

mod props {
    use super::{
        Board, Options, Strategy as S, reference_count, search, solutions, solutions_line,
    };
    use proptest::prelude::*;

    /// A solution grid independent of the fast solver: MRV backtracking from a random first row.
    fn random_solution(seed: u64) -> Board {
        let b = crate::solver::tests::seed_board(seed);
        search(S::Mrv, &b, &Options::default(), &mut ())
            .solution()
            .expect("a valid first row extends to a solution")
    }

    /// Random givens from a random solution, then a few cells overwritten with random digits
    /// (which may break the rules or the solvability).
    fn random_board() -> impl Strategy<Value = Board> {
        (
            any::<u64>(),
            proptest::collection::vec(0usize..81, 15..90),
            proptest::collection::vec((0usize..81, 0u8..10), 0..3),
        )
            .prop_map(|(seed, keep, noise)| {
                let sol = random_solution(seed);
                let mut b = Board::empty();
                for cell in keep {
                    b.set(cell, sol.get(cell));
                }
                for (cell, d) in noise {
                    b.set(cell, d);
                }
                b
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        #[test]
        fn agrees_with_backtracking(b in random_board()) {
            let s = solutions(&b, 2);
            if let Some(reference) = reference_count(&b) {
                prop_assert_eq!(s.count, reference, "{}", b.to_line());
            }
            if let Some(sol) = s.first {
                prop_assert!(sol.is_solved() && sol.extends(&b));
            } else {
                prop_assert_eq!(s.count, 0);
            }
            prop_assert_eq!(solutions_line(b.to_line().as_bytes(), 2).unwrap(), s);
        }
    }
}
