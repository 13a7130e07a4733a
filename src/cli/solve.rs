//! `autoplay solve`: run a strategy on puzzles from the command line, a file or stdin.

use crate::board::{Board, ParseError};
use crate::solver::{self, Options, Outcome, Strategy};
use anyhow::Context;
use std::io::{BufRead, BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::time::Instant;

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    autoplay solve 53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79 --strategy rowmajor\n  \
    autoplay solve -f ../shared/puzzles/magictour_top1465.txt --quiet\n  \
    cat puzzles.txt | autoplay solve --json --unique")]
pub struct SolveArgs {
    /// A puzzle: 81 characters, `1`-`9` for givens and `.` or `0` for empty cells (or a 9-line grid).
    #[arg(conflicts_with = "file")]
    puzzle: Option<String>,
    /// Read puzzles from FILE, one per line (`-` for stdin; stdin is the default with no PUZZLE).
    #[arg(short, long, value_name = "FILE")]
    file: Option<PathBuf>,
    /// Search strategy.
    #[arg(long, value_enum, default_value_t = Strategy::Fast)]
    strategy: Strategy,
    /// Also check that the solution is unique.
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
}

pub fn run(args: SolveArgs) -> anyhow::Result<i32> {
    let options = Options {
        max_steps: args.max_steps,
        check_unique: args.unique,
    };
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut summary = Summary::default();
    let start = Instant::now();

    if let Some(p) = &args.puzzle {
        let parsed = Board::parse(p);
        handle(&args, &options, 0, p.trim(), parsed, &mut out, &mut summary)?;
    } else {
        let reader: Box<dyn BufRead> = match &args.file {
            Some(path) if path.as_os_str() != "-" => Box::new(std::io::BufReader::new(
                std::fs::File::open(path)
                    .with_context(|| format!("cannot open puzzle file {}", path.display()))?,
            )),
            _ => {
                if std::io::stdin().is_terminal() {
                    eprintln!(
                        "reading puzzles from stdin, one per line (Ctrl-D to end; see --help)"
                    );
                }
                Box::new(std::io::stdin().lock())
            }
        };
        for (i, line) in reader.lines().enumerate() {
            let line = line.context("cannot read puzzle input")?;
            let text = line.trim();
            if text.is_empty() || text.starts_with('#') {
                continue;
            }
            let parsed = Board::parse_line(text).map_err(|e| at_line(e, i + 1));
            handle(&args, &options, i + 1, text, parsed, &mut out, &mut summary)?;
        }
    }

    let total = summary.solved + summary.invalid + summary.unsolvable + summary.stopped;
    let secs = start.elapsed().as_secs_f64();
    if total > 1 || args.quiet {
        let line = format!(
            "{total} puzzle{}: {} solved, {} invalid, {} unsolvable{} in {:.3} s ({:.0} puzzles/s, {})",
            if total == 1 { "" } else { "s" },
            summary.solved,
            summary.invalid,
            summary.unsolvable,
            if summary.stopped > 0 {
                format!(", {} stopped by --max-steps", summary.stopped)
            } else {
                String::new()
            },
            secs,
            total as f64 / secs.max(1e-9),
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
    Ok(
        if summary.invalid + summary.unsolvable + summary.stopped == 0 {
            0
        } else {
            1
        },
    )
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
    let board = match parsed
        .map_err(|e| e.to_string())
        .and_then(|b| b.validate().map(|()| b).map_err(|c| c.to_string()))
    {
        Ok(b) => b,
        Err(msg) => {
            summary.invalid += 1;
            // Character errors already name the line.
            let msg = if msg.starts_with("line ") {
                msg
            } else {
                format!("{at}{msg}")
            };
            eprintln!("invalid puzzle: {msg}");
            if args.json {
                let obj = serde_json::json!({"line": line, "puzzle": raw, "status": "invalid", "error": msg});
                writeln!(out, "{obj}")?;
            }
            return Ok(());
        }
    };
    let r = solver::search(args.strategy, &board, options, &mut ());
    let s = &r.stats;
    let status = match r.outcome {
        Outcome::Solved(_) => {
            summary.solved += 1;
            "solved"
        }
        Outcome::Unsolvable => {
            summary.unsolvable += 1;
            eprintln!(
                "{at}no solution: {} (no digit breaks a rule, but no grid completes these givens: \
                 check the puzzle for a mistyped or misread digit)",
                board.to_line()
            );
            "unsolvable"
        }
        Outcome::BudgetExhausted => {
            summary.stopped += 1;
            eprintln!(
                "{at}stopped after {} placements (--max-steps); no solution found yet",
                super::thousands(s.placements)
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
            "unique": r.unique,
            "micros": s.elapsed.as_micros() as u64,
        });
        writeln!(out, "{obj}")?;
    } else if !args.quiet
        && let Some(sol) = r.solution()
    {
        if line > 0 {
            writeln!(out, "line {line}: {}", board.to_line())?;
        }
        write!(out, "{sol}")?;
        let unique = match r.unique {
            Some(true) => ", unique",
            Some(false) => {
                ", NOT unique (several solutions; this is one of them: the puzzle lacks givens, check that none was dropped)"
            }
            None => "",
        };
        writeln!(
            out,
            "{}: {} placements, {} undos, {} calls, max depth {}, {:.3} ms{unique}\n",
            args.strategy,
            super::thousands(s.placements),
            super::thousands(s.undos),
            super::thousands(s.calls()),
            s.max_depth,
            s.elapsed.as_secs_f64() * 1e3,
        )?;
    }
    Ok(())
}
