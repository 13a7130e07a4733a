//! `autoplay solve`: run a strategy on puzzles from the command line, a file or stdin.

use super::choice::choice;
use anyhow::Context;
use std::io::{BufRead, BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::time::Instant;
use sudoku_autoplay::board::{Board, ParseError};
use sudoku_autoplay::solver::{self, Options, Outcome, Strategy};
use sudoku_autoplay::text::thousands as t;

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples (from the repository's directory):\n  \
    autoplay solve 53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79 --strategy rowmajor\n  \
    autoplay solve -f tests/data/puzzles/leetcode37.grid --unique\n  \
    autoplay solve -f tests/data/puzzles/magictour_sample.txt --quiet\n  \
    cat tests/data/puzzles/17_clue_sample.txt | autoplay solve --json --unique\n\
The printed solutions are valid input again: counts and headers are `#` comments.")]
pub struct SolveArgs {
    /// A puzzle: 81 characters, `1`-`9` for givens and `.` or `0` for empty cells (or a 9-line grid).
    #[arg(conflicts_with = "file")]
    puzzle: Option<String>,
    /// Read puzzles from FILE: one 81-character line each, or 9-line grids (`-` for stdin; stdin
    /// is the default with no PUZZLE).
    #[arg(short, long, value_name = "FILE")]
    file: Option<PathBuf>,
    /// Search strategy.
    #[arg(long, value_parser = choice::<Strategy>(), default_value = "fast")]
    strategy: Strategy,
    /// Also check that the solution is unique; a puzzle with several solutions is a failure (exit 1).
    #[arg(short, long)]
    unique: bool,
    /// Stop a search after N placements (a runaway rowmajor search ends cleanly).
    #[arg(long, value_name = "N")]
    max_steps: Option<u64>,
    /// One JSON object per puzzle on stdout.
    #[arg(long, conflicts_with = "quiet")]
    json: bool,
    /// Print only the summary (for throughput runs).
    #[arg(short, long)]
    quiet: bool,
}

#[derive(Default)]
struct Summary {
    solved: u64,
    invalid: u64,
    unsolvable: u64,
    stopped: u64,
    /// Solved, but with `--unique` found to have several solutions.
    not_unique: u64,
}

pub fn run(args: SolveArgs) -> anyhow::Result<i32> {
    let options = Options {
        max_steps: args.max_steps,
        check_unique: false,
    };
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut summary = Summary::default();
    let start = Instant::now();

    if let Some(p) = &args.puzzle {
        let parsed = Board::parse(p);
        handle(&args, &options, 0, p.trim(), parsed, &mut out, &mut summary)?;
    } else {
        let mut reader: Box<dyn BufRead> = match &args.file {
            Some(path) if path.as_os_str() != "-" => Box::new(std::io::BufReader::with_capacity(
                1 << 16,
                std::fs::File::open(path)
                    .with_context(|| format!("cannot open puzzle file {}", path.display()))?,
            )),
            _ => {
                if std::io::stdin().is_terminal() {
                    eprintln!(
                        "reading puzzles from stdin, one per line or as 9-line grids (Ctrl-D to end; see --help)"
                    );
                }
                Box::new(std::io::stdin().lock())
            }
        };
        let mut puzzles = Puzzles::default();
        let mut buf = Vec::new();
        loop {
            buf.clear();
            let n = reader
                .read_until(b'\n', &mut buf)
                .context("cannot read puzzle input")?;
            let bytes = line_bytes(&buf);
            if n > 0 && puzzles.grid.is_none() && quiet_fast(&args, bytes, &mut summary) {
                puzzles.count += 1;
                continue;
            }
            let line = (n > 0)
                .then(|| std::str::from_utf8(bytes))
                .transpose()
                .map_err(|_| {
                    std::io::Error::new(
                        std::io::ErrorKind::InvalidData,
                        "stream did not contain valid UTF-8",
                    )
                })
                .context("cannot read puzzle input")?;
            let Some(p) = puzzles.push(line) else {
                if line.is_none() {
                    break;
                }
                continue;
            };
            handle(
                &args,
                &options,
                p.line,
                &p.text,
                p.parsed,
                &mut out,
                &mut summary,
            )?;
        }
    }

    let total = summary.solved + summary.invalid + summary.unsolvable + summary.stopped;
    let secs = start.elapsed().as_secs_f64();
    if total > 1 || args.quiet {
        let line = format!(
            "# {} puzzle{}: {} solved, {} invalid, {} unsolvable{}{} in {:.3} s ({} puzzles/s, {})",
            t(total),
            if total == 1 { "" } else { "s" },
            t(summary.solved),
            t(summary.invalid),
            t(summary.unsolvable),
            if args.unique {
                format!(", {} not unique", t(summary.not_unique))
            } else {
                String::new()
            },
            if summary.stopped > 0 {
                format!(", {} stopped by --max-steps", t(summary.stopped))
            } else {
                String::new()
            },
            secs,
            t((total as f64 / secs.max(1e-9)).round() as u64),
            args.strategy,
        );
        out.flush()?;
        if args.json {
            eprintln!("{line}")
        } else {
            writeln!(out, "{line}")?
        }
    }
    out.flush()?;
    let failures = summary.invalid + summary.unsolvable + summary.stopped + summary.not_unique;
    Ok(if failures == 0 { 0 } else { 1 })
}

/// A line as `BufRead::lines` gives it: without its `\n` or `\r\n`.
fn line_bytes(buf: &[u8]) -> &[u8] {
    let line = buf.strip_suffix(b"\n").unwrap_or(buf);
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// The throughput path of `--quiet` with `fast`: a plain 81-character line solved straight from
/// its bytes in one pass (parse included, up to two solutions with `--unique`). Returns false,
/// having counted nothing, when the line needs the general path: anything but a clean line with
/// a solution, so every message and rule check is [`handle`]'s.
fn quiet_fast(args: &SolveArgs, line: &[u8], summary: &mut Summary) -> bool {
    if !args.quiet || args.strategy != Strategy::Fast {
        return false;
    }
    let line = line.trim_ascii();
    // Counting to 1 without `--unique`, to 2 with it: exactly one found is a clean solve.
    let limit = if args.unique { 2 } else { 1 };
    let solved = matches!(solver::fast::solutions_line(line, limit), Ok(found) if found.count == 1);
    summary.solved += solved as u64;
    solved
}

/// One puzzle of the input, as read.
struct Puzzle {
    /// Its (first) line number.
    line: usize,
    text: String,
    parsed: Result<Board, ParseError>,
}

/// Splits input lines into puzzles: 81-character lines, and 9-line grids (with optional
/// separator lines, as `autoplay solve` prints them). Empty lines and `#` comments are skipped;
/// an empty line ends a grid.
#[derive(Default)]
struct Puzzles {
    /// Lines read so far.
    count: usize,
    /// The grid being read: its first line number and its lines.
    grid: Option<(usize, Vec<String>)>,
}

impl Puzzles {
    /// Takes the next line (`None` at the end of the input); returns a puzzle when one is complete.
    fn push(&mut self, line: Option<&str>) -> Option<Puzzle> {
        let Some(line) = line else {
            return self.grid.take().map(|(at, rows)| grid_puzzle(at, &rows));
        };
        self.count += 1;
        let text = line.trim();
        if text.starts_with('#') {
            return None;
        }
        if text.is_empty() {
            return self.grid.take().map(|(at, rows)| grid_puzzle(at, &rows));
        }
        let cells = text
            .chars()
            .filter(|c| !matches!(c, ' ' | '\t' | '|' | '+' | '-' | '='))
            .count();
        if let Some((_, rows)) = &mut self.grid {
            rows.push(text.to_string());
            let complete = rows.iter().filter(|r| !is_separator(r)).count() == 9;
            // A row of the wrong length ends the grid: its parse error names the line.
            if complete || cells != 9 && !is_separator(text) {
                return self.grid.take().map(|(at, rows)| grid_puzzle(at, &rows));
            }
            return None;
        }
        if cells == 9 {
            self.grid = Some((self.count, vec![text.to_string()]));
            return None;
        }
        if is_separator(text) {
            return None;
        }
        Some(Puzzle {
            line: self.count,
            text: text.to_string(),
            parsed: Board::parse_line(text).map_err(|e| at_line(e, self.count)),
        })
    }
}

fn is_separator(line: &str) -> bool {
    line.chars()
        .all(|c| matches!(c, '-' | '+' | '|' | '=' | ' ' | '\t'))
}

/// A grid of `rows` whose first line is line `at` of the input.
fn grid_puzzle(at: usize, rows: &[String]) -> Puzzle {
    let text = rows.join("\n");
    let parsed = Board::parse_grid(&text).map_err(|e| match e {
        ParseError::BadChar { line, column, ch } => ParseError::BadChar {
            line: line + at - 1,
            column,
            ch,
        },
        ParseError::RowLength { line, found } => ParseError::RowLength {
            line: line + at - 1,
            found,
        },
        other => other,
    });
    Puzzle {
        line: at,
        text,
        parsed,
    }
}

/// Moves a line-parse error to the input's line number.
fn at_line(e: ParseError, line: usize) -> ParseError {
    match e {
        ParseError::BadChar { column, ch, .. } => ParseError::BadChar { line, column, ch },
        other => other,
    }
}

fn handle(
    args: &SolveArgs,
    options: &Options,
    line: usize,
    raw: &str,
    parsed: Result<Board, ParseError>,
    out: &mut impl Write,
    summary: &mut Summary,
) -> anyhow::Result<()> {
    let at = if line > 0 {
        format!("line {line}: ")
    } else {
        String::new()
    };
    let invalid = |msg: String, out: &mut dyn Write, summary: &mut Summary| {
        summary.invalid += 1;
        // Character errors already name the line.
        let msg = if msg.starts_with("line ") {
            msg
        } else {
            format!("{at}{msg}")
        };
        eprintln!("invalid puzzle: {msg}");
        if args.json {
            let obj =
                serde_json::json!({"line": line, "puzzle": raw, "status": "invalid", "error": msg});
            writeln!(out, "{obj}")?;
        }
        anyhow::Ok(())
    };
    let board = match parsed {
        Ok(b) => b,
        Err(e) => return invalid(e.to_string(), out, summary),
    };
    let unsolvable = |out: &mut dyn Write, summary: &mut Summary| {
        summary.unsolvable += 1;
        no_solution(&at, &board);
        if args.json {
            let obj = serde_json::json!({"line": line, "puzzle": board.to_line(), "status": "unsolvable",
                "strategy": args.strategy.name()});
            writeln!(out, "{obj}")?;
        }
        anyhow::Ok(())
    };
    let (r, unique) = if args.strategy == Strategy::Fast {
        // One pass finds up to two solutions; the rules are only checked when there is none.
        let fast = Options {
            check_unique: args.unique,
            ..*options
        };
        let r = solver::search(Strategy::Fast, &board, &fast, &mut ());
        if r.outcome == Outcome::Unsolvable {
            return match board.validate() {
                Err(c) => invalid(c.to_string(), out, summary),
                Ok(()) => unsolvable(out, summary),
            };
        }
        (r, r.unique)
    } else {
        if let Err(c) = board.validate() {
            return invalid(c.to_string(), out, summary);
        }
        // The exact solution count first, with `fast`: a puzzle without a solution is said at
        // once (a rowmajor search of a near-empty unsolvable grid could run for days), and
        // `--unique` needs no second search by the slow strategies.
        let count = solver::fast::solutions(&board, 2).count;
        if count == 0 {
            return unsolvable(out, summary);
        }
        let r = solver::search(args.strategy, &board, options, &mut ());
        (r, args.unique.then_some(count == 1))
    };
    let s = &r.stats;
    let status = match r.outcome {
        Outcome::Solved(_) => {
            summary.solved += 1;
            if unique == Some(false) {
                summary.not_unique += 1;
                eprintln!(
                    "{at}NOT unique: {} has several solutions (one is printed; the puzzle lacks givens, \
                     check that none was dropped)",
                    board.to_line()
                );
            }
            "solved"
        }
        Outcome::Unsolvable => {
            summary.unsolvable += 1;
            no_solution(&at, &board);
            "unsolvable"
        }
        Outcome::BudgetExhausted => {
            summary.stopped += 1;
            eprintln!(
                "{at}stopped after {} placements (--max-steps); no solution found yet",
                sudoku_autoplay::text::thousands(s.placements)
            );
            "stopped"
        }
    };
    if args.json {
        let obj = serde_json::json!({
            "line": line,
            "puzzle": board.to_line(),
            "status": status,
            "solution": r.solution().map(|b| b.to_line()),
            "strategy": args.strategy.name(),
            "placements": s.placements,
            "undos": s.undos,
            "calls": s.calls(),
            "max_depth": s.max_depth,
            "unique": unique,
            "micros": s.elapsed.as_micros() as u64,
        });
        writeln!(out, "{obj}")?;
    } else if !args.quiet
        && let Some(sol) = r.solution()
    {
        if line > 0 {
            writeln!(out, "# line {line}: {}", board.to_line())?;
        }
        write!(out, "{sol}")?;
        let unique = match unique {
            Some(true) => ", unique",
            Some(false) => ", NOT unique (several solutions; this is one of them)",
            None => "",
        };
        writeln!(
            out,
            "# {}: {} placements, {} undos, {} calls, max depth {}, {:.3} ms{unique}\n",
            args.strategy,
            sudoku_autoplay::text::thousands(s.placements),
            sudoku_autoplay::text::thousands(s.undos),
            sudoku_autoplay::text::thousands(s.calls()),
            s.max_depth,
            s.elapsed.as_secs_f64() * 1e3,
        )?;
    }
    Ok(())
}

fn no_solution(at: &str, board: &Board) {
    eprintln!(
        "{at}no solution: {} (no digit breaks a rule, but no grid completes these givens: \
         check the puzzle for a mistyped or misread digit)",
        board.to_line()
    );
}
