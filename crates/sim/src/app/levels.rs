//! The app's 70 levels: bundled data (`levels.txt`), their difficulty measure, their search
//! counts (the table in `docs/levels.md`), and the seeded generator that produced them.
//!
//! **Difficulty** is [`Difficulty`]: first the number of empty cells (fewer givens = harder),
//! then the number of placements the MRV backtracker makes to the first solution (always
//! branching on the cell with the fewest candidates, so it counts real branching, not luck).
//! Levels are in ascending order of that key. MRV's rules are fixed by its definition (and its
//! counts pinned by tests), so improving the `fast` solver never reorders the levels. The
//! row-major backtracker's count is deliberately *not* the difficulty: it depends on where the
//! givens happen to sit, so the hardest level (17 givens) takes it only ~100 placements while
//! some middle levels take tens of thousands.

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::OnceLock;
use sudoku_autoplay::board::{Board, CELLS};
use sudoku_autoplay::solver::{self, Options, Outcome, Strategy, fast};

/// Number of levels shipped.
pub const LEVEL_COUNT: usize = 70;

/// No level may take the row-major backtracker more placements than this.
pub const ROWMAJOR_CAP: u64 = 2_000_000;

/// The seed [`generate`] was run with to produce `levels.txt`.
pub const SEED: u64 = 2024;

const DATA: &str = include_str!("levels.txt");

/// The bundled levels, level 1 first.
pub fn levels() -> &'static [Board] {
    static LEVELS: OnceLock<Vec<Board>> = OnceLock::new();
    LEVELS.get_or_init(|| {
        // The data is compiled in and checked by the tests below, so this cannot fail at run time.
        parse(DATA).expect("bundled levels.txt is valid (see levels::tests)")
    })
}

/// Level `n` (1-based), if it exists.
pub fn level(n: u32) -> Option<&'static Board> {
    (n as usize).checked_sub(1).and_then(|i| levels().get(i))
}

/// Parses a level file: one 81-character puzzle per line (the first word), `#` starts a comment.
pub fn parse(text: &str) -> Result<Vec<Board>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        let Some(word) = line.split_whitespace().next() else {
            continue;
        };
        let board = Board::parse_line(word).map_err(|e| format!("levels line {}: {e}", i + 1))?;
        out.push(board);
    }
    Ok(out)
}

/// The difficulty measure; larger is harder (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Difficulty {
    /// Empty cells (81 minus givens).
    pub empties: u32,
    /// MRV placements to the first solution (`u64::MAX` past [`ROWMAJOR_CAP`]).
    pub mrv: u64,
}

/// Rates a puzzle.
pub(crate) fn difficulty(board: &Board) -> Difficulty {
    Difficulty {
        empties: (CELLS - board.filled()) as u32,
        mrv: placements(Strategy::Mrv, board, ROWMAJOR_CAP).unwrap_or(u64::MAX),
    }
}

/// Placements of `strategy` to the first solution, `None` if it needs more than `cap`.
fn placements(strategy: Strategy, board: &Board, cap: u64) -> Option<u64> {
    let opts = Options {
        max_steps: Some(cap),
        check_unique: false,
    };
    let r = solver::search(strategy, board, &opts, &mut ());
    matches!(r.outcome, Outcome::Solved(_)).then_some(r.stats.placements)
}

/// Placements of the row-major and MRV backtrackers to the first solution (`None`: over the cap).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    pub rowmajor: Option<u64>,
    pub mrv: Option<u64>,
}

/// Runs both observed backtrackers on `board`, each stopped at `cap` placements.
pub fn counts(board: &Board, cap: u64) -> Counts {
    Counts {
        rowmajor: placements(Strategy::RowMajor, board, cap),
        mrv: placements(Strategy::Mrv, board, cap),
    }
}

/// One generated level with where it came from.
#[derive(Debug, Clone)]
pub struct Generated {
    pub board: Board,
    /// 1-based line of the source puzzle in the pool file.
    pub source_line: usize,
    /// Givens copied from the solution on top of the source puzzle.
    pub added: usize,
    /// Whether the source was transformed (rows, columns and digits relabelled).
    pub isomorph: bool,
}

/// Random isomorphs tried for the last level.
const LAST_TRIALS: usize = 20_000;

/// A random isomorph of `board` (same difficulty, same solution count): bands, rows within bands,
/// stacks and columns within stacks permuted, maybe transposed, and digits relabelled so the
/// solution's first row reads 1..9. `None` if `board` has no solution.
pub(crate) fn isomorph(board: &Board, rng: &mut impl Rng) -> Option<Board> {
    fn perm(rng: &mut impl Rng) -> [usize; 9] {
        let mut bands = [0usize, 1, 2];
        bands.shuffle(rng);
        let mut out = [0usize; 9];
        for (i, &b) in bands.iter().enumerate() {
            let mut rows = [0usize, 1, 2];
            rows.shuffle(rng);
            for (j, &r) in rows.iter().enumerate() {
                out[i * 3 + j] = b * 3 + r;
            }
        }
        out
    }
    let rows = perm(rng);
    let cols = perm(rng);
    let transpose = rng.random_bool(0.5);
    let mut cells = [0u8; CELLS];
    for (r, &sr) in rows.iter().enumerate() {
        for (c, &sc) in cols.iter().enumerate() {
            let (sr, sc) = if transpose { (sc, sr) } else { (sr, sc) };
            cells[r * 9 + c] = board.get(sr * 9 + sc);
        }
    }
    let moved = Board::from_cells(cells)?;
    let solution = fast::solve(&moved)?;
    let mut map = [0u8; 10];
    for c in 0..9 {
        map[solution.get(c) as usize] = c as u8 + 1;
    }
    for v in cells.iter_mut() {
        *v = map[*v as usize];
    }
    Board::from_cells(cells)
}

/// The number of givens scheduled for level `n` (1-based): 46 falling to 18 at level 69, and 17
/// (an unmodified source puzzle) for the last level.
pub(crate) fn scheduled_givens(n: usize) -> usize {
    if n >= LEVEL_COUNT {
        17
    } else {
        let i = n.saturating_sub(1) as f64;
        46 - (i * 28.0 / 68.0).round() as usize
    }
}

/// The row-major placement count level `n` (1..70) is steered towards: log-linear from 60 at
/// level 1 to 30,000 at level 35 and 1,000,000 at level 69; the last level aims at 100.
fn target(n: usize) -> f64 {
    let lerp = |a: f64, b: f64, t: f64| (a.ln() + (b.ln() - a.ln()) * t).exp();
    match n {
        _ if n >= LEVEL_COUNT => 100.0,
        0..=35 => lerp(60.0, 30_000.0, n.saturating_sub(1) as f64 / 34.0),
        _ => lerp(30_000.0, 1_000_000.0, (n - 35) as f64 / 34.0),
    }
}

/// Candidates tried per level.
const CANDIDATES: usize = 16;

/// Generates the levels from `pool` (17-clue puzzles with unique solutions), seeded.
///
/// Level 70 is the isomorph of a 17-clue pool puzzle (see [`isomorph`]) whose row-major count is
/// closest to 100, among `LAST_TRIALS` random ones. Each other level draws
/// `CANDIDATES` random pool puzzles, copies random cells of the solution into each until it has
/// [`scheduled_givens`] givens (a superset of a unique puzzle's givens keeps it unique), and keeps
/// the one whose row-major count is closest (log scale) to its target, never over
/// [`ROWMAJOR_CAP`]. Levels 1..69 are finally sorted by [`Difficulty`].
pub fn generate(pool: &[Board], seed: u64) -> Result<Vec<Generated>, String> {
    if pool.is_empty() {
        return Err("empty puzzle pool".into());
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let last = last_level(pool, &mut rng)?;
    let mut out = Vec::with_capacity(LEVEL_COUNT);
    for n in 1..LEVEL_COUNT {
        out.push(generate_level(pool, n, &mut rng)?);
    }
    out.sort_by_cached_key(|g| difficulty(&g.board));
    out.push(last);
    Ok(out)
}

/// The row-major search's placements on `b`, if it solves it within `cap`.
fn rowmajor(b: &Board, cap: u64) -> Option<u64> {
    placements(Strategy::RowMajor, b, cap)
}

/// How far `count` placements are from level `n`'s target, on a log scale.
fn score(count: u64, n: usize) -> f64 {
    ((count as f64).ln() - target(n).ln()).abs()
}

/// The last level: of `LAST_TRIALS` isomorphs of random 17-clue puzzles, the one whose
/// row-major count is closest to its target (within a small budget).
fn last_level(pool: &[Board], rng: &mut ChaCha8Rng) -> Result<Generated, String> {
    let mut last: Option<(f64, Generated)> = None;
    for _ in 0..LAST_TRIALS {
        let index = rng.random_range(0..pool.len());
        let source = pool[index];
        if source.filled() != 17 || fast::count_solutions(&source, 2) != 1 {
            continue;
        }
        let Some(board) = isomorph(&source, rng) else {
            continue;
        };
        if let Some(c) = rowmajor(&board, 1000) {
            let s = score(c, LEVEL_COUNT);
            if last.as_ref().is_none_or(|(best, _)| s < *best) {
                let level = Generated {
                    board,
                    source_line: index + 1,
                    added: 0,
                    isomorph: true,
                };
                last = Some((s, level));
            }
        }
    }
    let (_, last) = last.ok_or("no 17-clue isomorph solves within 1000 row-major steps")?;
    Ok(last)
}

/// Level `n` (not the last): of `CANDIDATES` random pool puzzles given its scheduled number of
/// givens, the one whose row-major count is closest to its target.
fn generate_level(pool: &[Board], n: usize, rng: &mut ChaCha8Rng) -> Result<Generated, String> {
    let givens = scheduled_givens(n);
    let mut best: Option<(f64, Generated)> = None;
    let mut tries = 0;
    while tries < CANDIDATES * 8 && (tries < CANDIDATES || best.is_none()) {
        tries += 1;
        let index = rng.random_range(0..pool.len());
        let source = pool[index];
        let Some(solution) = fast::solve(&source) else {
            continue;
        };
        if source.filled() > givens || fast::count_solutions(&source, 2) != 1 {
            continue;
        }
        let mut empty: Vec<usize> = (0..CELLS).filter(|&c| source.get(c) == 0).collect();
        empty.shuffle(rng);
        let added = givens - source.filled();
        let mut board = source;
        for &c in &empty[..added] {
            board.set(c, solution.get(c));
        }
        let Some(count) = rowmajor(&board, ROWMAJOR_CAP) else {
            continue;
        };
        let s = score(count, n);
        if best.as_ref().is_none_or(|(b, _)| s < *b) {
            let level = Generated {
                board,
                source_line: index + 1,
                added,
                isomorph: false,
            };
            best = Some((s, level));
        }
    }
    let (_, level) = best.ok_or_else(|| format!("no candidate for level {n}"))?;
    Ok(level)
}

/// The text of `levels.txt` for generated levels.
#[cfg(test)]
pub(crate) fn levels_txt(levels: &[Generated]) -> String {
    use std::fmt::Write as _;
    let mut s = String::from(
        "# Levels of the simulated Sudoku app, level 1 first: 81 cells row-major, '.' = empty.\n\
         # Source: each puzzle is a 17-clue puzzle from Gordon Royle's list of 17-clue Sudoku\n\
         # (as collected in t-dillon/tdoku's benchmark data; here ../shared/puzzles/17_clue.txt,\n\
         # line number in the comment) with \"+N\" extra givens copied from its unique solution;\n\
         # \"isomorph\": rows, columns and digits relabelled (same puzzle up to symmetry).\n\
         # Generated by `cargo test -p autoplay-sim --lib app::levels::tests::regenerate -- --ignored`\n\
         # (crates/sim/src/app/levels.rs, seed 2024); ordered by difficulty (see docs/levels.md).\n",
    );
    for g in levels {
        let how = if g.isomorph {
            " isomorph".to_string()
        } else {
            format!(" +{}", g.added)
        };
        let _ = writeln!(
            s,
            "{}  # 17_clue.txt:{}{how}",
            g.board.to_line(),
            g.source_line
        );
    }
    s
}

/// The Markdown text of `docs/levels.md` for `levels`.
#[cfg(test)]
pub(crate) fn levels_md(levels: &[Board]) -> String {
    use std::fmt::Write as _;
    use sudoku_autoplay::text::thousands;
    let mut s = String::from(
        "# Levels\n\n\
         The simulated app ships 70 levels (`crates/sim/src/app/levels.txt`), each with a unique solution\n\
         (checked with the fast solver).\n\n\
         **Difficulty** rises with the level number. It is measured by (1) the number of empty\n\
         cells, then (2) the number of placements the MRV backtracker makes (it always branches on\n\
         the cell with the fewest candidates, so its count reflects real branching); levels are\n\
         sorted by that pair.\n\n\
         **Source.** Every level is a 17-clue puzzle from Gordon Royle's list\n\
         (`shared/puzzles/17_clue.txt`). Levels 1-69 add givens copied from the puzzle's solution\n\
         (46 givens at level 1 down to 18 at level 69); among 16 seeded random candidates per level\n\
         the generator keeps the one whose row-major count is closest to a target rising from 60 to\n\
         1,000,000, so the table shows the whole range. Level 70 is an unmodified 17-clue puzzle up\n\
         to symmetry (rows, columns and digits relabelled), picked among 20,000 random isomorphs for\n\
         a row-major count near 100. The generator is `levels::generate` (seed 2024).\n\n\
         **Counts** are placements (digits written into empty cells) to the first solution:\n\
         *row-major* is the article's backtracker (cells in reading order, digits ascending), *MRV*\n\
         always branches on the cell with the fewest candidates. The row-major count says little\n\
         about difficulty: the hardest level has only 17 givens, yet row-major solves it in about\n\
         100 placements while some middle levels take it tens of thousands. No level takes it more\n\
         than 2,000,000.\n\n\
         This file is checked by `cargo test -p autoplay-sim --lib app::levels` and regenerated with\n\
         `cargo test -p autoplay-sim --lib app::levels::tests::regenerate -- --ignored`.\n\n\
         | level | givens | row-major placements | MRV placements |\n\
         |---:|---:|---:|---:|\n",
    );
    let show = |c: Option<u64>| c.map_or_else(|| "> 2,000,000".to_string(), thousands);
    for (i, b) in levels.iter().enumerate() {
        let c = counts(b, ROWMAJOR_CAP);
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} |",
            i + 1,
            b.filled(),
            show(c.rowmajor),
            show(c.mrv)
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/levels.md");

    #[test]
    fn seventy_unique_levels_in_difficulty_order() {
        let lv = levels();
        assert_eq!(lv.len(), LEVEL_COUNT);
        let mut prev: Option<Difficulty> = None;
        for (i, b) in lv.iter().enumerate() {
            assert!(b.validate().is_ok(), "level {}", i + 1);
            assert_eq!(fast::count_solutions(b, 2), 1, "level {} unique", i + 1);
            let d = difficulty(b);
            if let Some(p) = prev {
                assert!(p <= d, "level {} easier than level {}", i + 1, i);
            }
            prev = Some(d);
        }
        assert_eq!(lv[LEVEL_COUNT - 1].filled(), 17);
    }

    /// A few pinned counts, independent of the generated table.
    #[test]
    fn pinned_counts() {
        let at = |n: u32| counts(level(n).unwrap(), ROWMAJOR_CAP);
        assert_eq!(
            at(1),
            Counts {
                rowmajor: Some(58),
                mrv: Some(35)
            }
        );
        assert_eq!(at(37).rowmajor, Some(7_238));
        assert_eq!(
            at(70),
            Counts {
                rowmajor: Some(106),
                mrv: Some(46_841)
            }
        );
        let most = levels()
            .iter()
            .filter_map(|b| counts(b, ROWMAJOR_CAP).rowmajor)
            .max();
        assert_eq!(
            most,
            Some(1_235_601),
            "no level over the cap, level 68 the most"
        );
    }

    #[test]
    fn level_lookup_is_one_based() {
        assert_eq!(level(1), levels().first());
        assert_eq!(level(70), levels().last());
        assert!(level(0).is_none());
        assert!(level(71).is_none());
    }

    #[test]
    fn parse_reports_bad_lines() {
        let err = parse("# c\n123\n").unwrap_err();
        assert!(err.contains("line 2"), "{err}");
        assert_eq!(parse("# only comments\n\n").unwrap().len(), 0);
    }

    /// docs/levels.md is exactly what the current levels and solvers produce.
    #[test]
    fn levels_doc_is_current() {
        let doc = std::fs::read_to_string(DOC_PATH).expect("docs/levels.md exists");
        assert_eq!(
            doc,
            levels_md(levels()),
            "docs/levels.md is stale: run `cargo test -p autoplay-sim --lib app::levels::tests::regenerate -- --ignored`"
        );
    }

    /// Regenerates levels.txt and docs/levels.md from ../shared/puzzles/17_clue.txt.
    #[test]
    #[ignore = "slow; rewrites crates/sim/src/app/levels.txt and docs/levels.md"]
    fn regenerate() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
        let pool_text = std::fs::read_to_string(format!("{root}/../shared/puzzles/17_clue.txt"))
            .expect("../shared/puzzles/17_clue.txt beside the repository");
        let pool = parse(&pool_text).unwrap();
        let generated = generate(&pool, SEED).unwrap();
        std::fs::write(
            format!("{root}/crates/sim/src/app/levels.txt"),
            levels_txt(&generated),
        )
        .unwrap();
        let boards: Vec<Board> = generated.iter().map(|g| g.board).collect();
        std::fs::write(DOC_PATH, levels_md(&boards)).unwrap();
    }
}
