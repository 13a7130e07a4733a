//! Solver benchmarks: `cargo bench --bench solvers` (filter groups: `-- uniqueness`, `-- rowmajor`).
//!
//! * `uniqueness/<set>`: puzzles per second, single thread, parse included, counting up to two
//!   solutions: our `fast::count_line(line, 2)` (what `autoplay solve --unique --quiet` runs per
//!   line) against the `sudoku` crate 0.8's `Sudoku::from_str_line(line)?.solution()` (which
//!   searches for a second solution and returns `None` unless the solution is unique). Before
//!   timing, both are run over the whole slice and must agree on every puzzle (unique or not,
//!   and the same solution when unique).
//! * `rowmajor/vaste3`: placements per second of the observed row-major backtracker with the
//!   no-op observer `()`, a counting observer, and the classic loop written here by hand (no
//!   observer; it steps into every depth and back out of each dead end).
//!
//! Whole-process comparisons with tdoku and JSolve, built from a checkout: `benches/peers/run.sh`.

use criterion::{Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;
use sudoku_autoplay::board::{Board, CELLS, box_of, col_of, row_of};
use sudoku_autoplay::solver::{Observer, Options, Strategy, fast, search};

const PUZZLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/puzzles/");

/// Dataset file and the stride of the slice benchmarked (1 = the whole file).
const SETS: [(&str, usize); 5] = [
    ("17_clue.txt", 1),
    ("magictour_top1465.txt", 1),
    ("forum_hardest_1106.txt", 1),
    // 48,766 puzzles at ~20k/s is too long per criterion sample: every 4th line (12,192).
    ("forum_hardest_1905_11plus.txt", 4),
    // Every puzzle has several solutions.
    ("serg_benchmark.txt", 1),
];

fn load(file: &str, stride: usize) -> Vec<String> {
    let path = format!("{PUZZLES}{file}");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{path}: {e}: this benchmark needs the whole puzzle sets in ../shared/puzzles/ beside \
             the repository (the tests use the samples in tests/data/puzzles/)"
        )
    });
    text.lines()
        .filter(|l| l.len() == CELLS)
        .step_by(stride)
        .map(str::to_owned)
        .collect()
}

/// Both solvers must agree on every puzzle of the slice: unique or not, and the same solution
/// when unique. Prints our guesses per puzzle.
fn check_agreement(file: &str, lines: &[String]) {
    let mut guesses = 0;
    for line in lines {
        let ours = fast::solutions_line(line.as_bytes(), 2).expect("valid puzzle line");
        let count = fast::count_line(line.as_bytes(), 2).expect("valid puzzle line");
        assert_eq!(count, ours.count, "{file}: {line}");
        let theirs = sudoku::Sudoku::from_str_line(line)
            .expect("valid puzzle line")
            .solution();
        match theirs {
            Some(theirs) => {
                assert_eq!(ours.count, 1, "{file}: {line}");
                let ours = ours.first.expect("a solution").to_line();
                assert_eq!(ours, theirs.to_str_line().to_string(), "{file}: {line}");
            }
            None => assert_eq!(ours.count, 2, "{file}: several solutions: {line}"),
        }
        guesses += ours.guesses;
    }
    eprintln!(
        "{file}: {} puzzles, {:.2} guesses per puzzle (fast)",
        lines.len(),
        guesses as f64 / lines.len() as f64
    );
}

fn uniqueness(c: &mut Criterion) {
    for (file, stride) in SETS {
        let lines = load(file, stride);
        check_agreement(file, &lines);
        let name = file.trim_end_matches(".txt");
        let mut g = c.benchmark_group(format!("uniqueness/{name}"));
        g.throughput(Throughput::Elements(lines.len() as u64))
            .sampling_mode(SamplingMode::Flat)
            .sample_size(10)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(8));
        g.bench_function("fast", |b| {
            b.iter(|| {
                let mut unique = 0u32;
                for line in &lines {
                    let count = fast::count_line(black_box(line.as_bytes()), 2);
                    unique += (count == Ok(1)) as u32;
                }
                unique
            })
        });
        g.bench_function("sudoku_crate", |b| {
            b.iter(|| {
                let mut unique = 0u32;
                for line in &lines {
                    let s = sudoku::Sudoku::from_str_line(black_box(line));
                    unique += s.is_ok_and(|s| s.solution().is_some()) as u32;
                }
                unique
            })
        });
        g.finish();
    }
}

const VASTE3: &str =
    ".......12....35......6...7.7.....3.....4..8..1...........12.....8.....4..5....6..";
const VASTE3_PLACEMENTS: u64 = 6_943_195;

/// Counts every event, to contrast with the no-op observer.
#[derive(Default)]
struct Counting {
    places: u64,
    undos: u64,
}

impl Observer for Counting {
    fn place(&mut self, _cell: usize, _digit: u8) {
        self.places += 1;
    }
    fn undo(&mut self, _cell: usize, _digit: u8) {
        self.undos += 1;
    }
}

/// The classic row-major backtracker without any observer, statistics or budget, written out
/// by hand: empty cells in row-major order, digits ascending, stepping into every depth and
/// back out of each dead end. Returns the placements and the solution.
fn rowmajor_by_hand(board: &Board) -> (u64, Option<[u8; CELLS]>) {
    // used[r], used[9 + c], used[18 + b]: digits present in row r, column c, box b.
    let mut used = [0u16; 32];
    let mut units = [[0usize; 3]; CELLS]; // per depth: the cell's three entries of `used`
    let mut cells = [0usize; CELLS];
    let mut n = 0;
    for (cell, &d) in board.cells().iter().enumerate() {
        let u = [row_of(cell), 9 + col_of(cell), 18 + box_of(cell)];
        if d == 0 {
            (units[n], cells[n]) = (u, cell);
            n += 1;
        } else {
            u.iter().for_each(|&i| used[i] |= 1 << (d - 1));
        }
    }
    let free = |used: &[u16; 32], u: [usize; 3]| !(used[u[0]] | used[u[1]] | used[u[2]]) & 0x1FF;
    let mut grid = *board.cells();
    if n == 0 {
        return (0, Some(grid));
    }
    let mut untried = [0u16; CELLS + 1];
    let mut placed = [0u16; CELLS + 1];
    let mut placements = 0u64;
    let mut depth = 0;
    untried[0] = free(&used, units[0]);
    loop {
        if untried[depth] == 0 {
            if depth == 0 {
                return (placements, None);
            }
            depth -= 1;
            units[depth].iter().for_each(|&i| used[i] ^= placed[depth]);
            continue;
        }
        let bit = untried[depth] & untried[depth].wrapping_neg();
        untried[depth] ^= bit;
        placed[depth] = bit;
        units[depth].iter().for_each(|&i| used[i] ^= bit);
        placements += 1;
        depth += 1;
        if depth == n {
            for d in 0..n {
                grid[cells[d]] = placed[d].trailing_zeros() as u8 + 1;
            }
            return (placements, Some(grid));
        }
        untried[depth] = free(&used, units[depth]);
    }
}

fn rowmajor(c: &mut Criterion) {
    let board = Board::parse(VASTE3).expect("valid puzzle");
    let opts = Options::default();
    let reference = search(Strategy::RowMajor, &board, &opts, &mut ());
    assert_eq!(reference.stats.placements, VASTE3_PLACEMENTS);
    let (by_hand, grid) = rowmajor_by_hand(&board);
    assert_eq!(by_hand, VASTE3_PLACEMENTS);
    assert_eq!(grid.and_then(Board::from_cells), reference.solution());
    let mut counting = Counting::default();
    search(Strategy::RowMajor, &board, &opts, &mut counting);
    assert_eq!(counting.places, VASTE3_PLACEMENTS);
    assert_eq!(
        counting.places - counting.undos,
        64,
        "the 64 empty cells end filled"
    );

    let mut g = c.benchmark_group("rowmajor/vaste3");
    g.throughput(Throughput::Elements(VASTE3_PLACEMENTS))
        .sampling_mode(SamplingMode::Flat)
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    g.bench_function("noop_observer", |b| {
        b.iter(|| search(Strategy::RowMajor, black_box(&board), &opts, &mut ()).stats)
    });
    g.bench_function("by_hand", |b| {
        b.iter(|| rowmajor_by_hand(black_box(&board)).0)
    });
    g.bench_function("counting_observer", |b| {
        b.iter(|| {
            let mut obs = Counting::default();
            search(Strategy::RowMajor, black_box(&board), &opts, &mut obs);
            obs.places
        })
    });
    g.finish();
}

criterion_group!(benches, uniqueness, rowmajor);
criterion_main!(benches);
