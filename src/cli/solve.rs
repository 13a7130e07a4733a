//! `autoplay solve`: run a strategy on puzzles from the command line, a file or stdin.

use super::choice::choice;
use anyhow::Context;
use std::io::{BufRead, BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::time::Instant;
use sudoku_autoplay::board::{Board, ParseError};
use sudoku_autoplay::solver::{self, Options, Outcome, SearchResult, Strategy};
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
    /// Also check that the solution is unique; a puzzle with several solutions is a failure
    /// (exit 1), named on stderr (with --quiet only counted).
    #[arg(short, long)]
    unique: bool,
    /// Stop a search after N placements (a runaway rowmajor search ends cleanly).
    #[arg(long, value_name = "N")]
    max_steps: Option<u64>,
    /// One JSON object per puzzle on stdout.
    #[arg(long, conflicts_with = "quiet")]
    json: bool,
    /// Print only the summary (for throughput runs). Invalid and unsolvable puzzles are still
    /// named on stderr; puzzles with several solutions (--unique) are only counted in the
    /// summary: run without --quiet to see which.
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

impl Summary {
    fn total(&self) -> u64 {
        self.solved + self.invalid + self.unsolvable + self.stopped
    }

    fn failures(&self) -> u64 {
        self.invalid + self.unsolvable + self.stopped + self.not_unique
    }

    /// The summary line, e.g. `# 3 puzzles: 3 solved, 0 invalid, 0 unsolvable in 0.001 s (...)`.
    fn line(&self, args: &SolveArgs, secs: f64) -> String {
        let total = self.total();
        let not_unique = match (args.unique, args.quiet && self.not_unique > 0) {
            (false, _) => String::new(),
            (true, false) => format!(", {} not unique", t(self.not_unique)),
            (true, true) => format!(
                ", {} not unique (run without --quiet to see which)",
                t(self.not_unique)
            ),
        };
        let stopped = if self.stopped > 0 {
            format!(", {} stopped by --max-steps", t(self.stopped))
        } else {
            String::new()
        };
        format!(
            "# {} puzzle{}: {} solved, {} invalid, {} unsolvable{not_unique}{stopped} in {secs:.3} s \
             ({} puzzles/s, {})",
            t(total),
            if total == 1 { "" } else { "s" },
            t(self.solved),
            t(self.invalid),
            t(self.unsolvable),
            t((total as f64 / secs.max(1e-9)).round() as u64),
            args.strategy,
        )
    }
}

pub fn run(args: SolveArgs) -> anyhow::Result<i32> {
    let start = Instant::now();
    let stdout = std::io::stdout();
    let mut solving = Solving {
        options: Options {
            max_steps: args.max_steps,
            check_unique: false,
        },
        args: &args,
        out: BufWriter::new(stdout.lock()),
        summary: Summary::default(),
    };
    if let Some(p) = &args.puzzle {
        solving.handle(0, p.trim(), Board::parse(p))?;
    } else {
        solving.read_all(open_input(&args)?)?;
    }
    let Solving {
        mut out, summary, ..
    } = solving;
    if summary.total() > 1 || args.quiet {
        let line = summary.line(&args, start.elapsed().as_secs_f64());
        out.flush()?;
        if args.json {
            eprintln!("{line}")
        } else {
            writeln!(out, "{line}")?
        }
    }
    out.flush()?;
    Ok(if summary.failures() == 0 { 0 } else { 1 })
}

/// The puzzle input: the file of `--file`, else stdin.
fn open_input(args: &SolveArgs) -> anyhow::Result<Box<dyn BufRead>> {
    Ok(match &args.file {
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
    })
}

/// A run over puzzles: the settings, the output, the counts so far.
struct Solving<'a, W: Write> {
    args: &'a SolveArgs,
    options: Options,
    out: W,
    summary: Summary,
}

impl<W: Write> Solving<'_, W> {
    /// Solves every puzzle of `reader`.
    fn read_all(&mut self, mut reader: Box<dyn BufRead>) -> anyhow::Result<()> {
        let mut puzzles = Puzzles::default();
        let mut buf = Vec::new();
        loop {
            let refused = puzzles.grid.is_none() && {
                let (taken, refused) = self.quiet_fast_lines(reader.as_mut())?;
                puzzles.count += taken;
                refused
            };
            buf.clear();
            let n = reader
                .read_until(b'\n', &mut buf)
                .context("cannot read puzzle input")?;
            let bytes = line_bytes(&buf);
            // A line the buffer cut, or the last one without its newline; not one the loop
            // above refused (it goes on to the general path, not solved on this one again).
            if n > 0 && !refused && puzzles.grid.is_none() && self.quiet_fast(bytes) {
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
            match puzzles.push(line) {
                Some(p) => self.handle(p.line, &p.text, p.parsed)?,
                None if line.is_none() => return Ok(()),
                None => {}
            }
        }
    }

    /// [`Self::quiet_fast`] on the lines that lie whole in `reader`'s buffer, read there
    /// without a copy; stops, leaving it unread, at a line it does not take or one the buffer
    /// cuts. Returns how many lines it took, and whether it stopped at one it did not take.
    fn quiet_fast_lines(&mut self, reader: &mut dyn BufRead) -> anyhow::Result<(usize, bool)> {
        let mut taken = 0;
        if !self.fast_path() {
            return Ok((taken, false));
        }
        loop {
            let chunk = reader.fill_buf().context("cannot read puzzle input")?;
            // memchr's portable search: its default one asks the CPU for AVX2 first, a dozen
            // `cpuid`s that cost 35-40 us of start-up on a VM (each traps to the hypervisor).
            let Some(end) = memchr::arch::all::memchr::One::new(b'\n').find(chunk) else {
                return Ok((taken, false));
            };
            if !self.quiet_fast(line_bytes(&chunk[..=end])) {
                return Ok((taken, true));
            }
            reader.consume(end + 1);
            taken += 1;
        }
    }

    /// Whether plain lines take [`Self::quiet_fast`]: `--quiet` with `fast`.
    fn fast_path(&self) -> bool {
        self.args.quiet && self.args.strategy == Strategy::Fast
    }

    /// The throughput path of `--quiet` with `fast`: a plain 81-character line counted straight
    /// from its bytes in one pass (parse included, up to two solutions with `--unique`, none
    /// kept). Returns false, having counted nothing, when the line needs the general path: a
    /// line that is not clean or has no solution, so every message and rule check is
    /// [`Self::handle`]'s.
    fn quiet_fast(&mut self, line: &[u8]) -> bool {
        if !self.fast_path() {
            return false;
        }
        // Counting to 1 without `--unique`, to 2 with it.
        let limit = if self.args.unique { 2 } else { 1 };
        let count = solver::fast::count_line(line.trim_ascii(), limit).unwrap_or(0);
        self.summary.solved += (count > 0) as u64;
        self.summary.not_unique += (count > 1) as u64;
        count > 0
    }

    /// Solves one puzzle of the input (`line` 0: the command line's) and reports it.
    fn handle(
        &mut self,
        line: usize,
        raw: &str,
        parsed: Result<Board, ParseError>,
    ) -> anyhow::Result<()> {
        let at = if line > 0 {
            format!("line {line}: ")
        } else {
            String::new()
        };
        let board = match parsed {
            Ok(board) => board,
            Err(e) => return self.invalid(line, &at, raw, e.to_string()),
        };
        match self.search(&board) {
            Ok((r, unique)) => self.report(line, &at, &board, &r, unique),
            Err(Failure::Invalid(msg)) => self.invalid(line, &at, raw, msg),
            Err(Failure::Unsolvable) => self.unsolvable(line, &at, &board),
        }
    }

    /// The search of `board` by the chosen strategy, and whether its solution is unique when
    /// `--unique` asks.
    fn search(&self, board: &Board) -> Result<(SearchResult, Option<bool>), Failure> {
        let args = self.args;
        if args.strategy == Strategy::Fast {
            // One pass finds up to two solutions; the rules are only checked when there is none.
            let fast = Options {
                check_unique: args.unique,
                ..self.options
            };
            let r = solver::search(Strategy::Fast, board, &fast, &mut ());
            if r.outcome == Outcome::Unsolvable {
                board
                    .validate()
                    .map_err(|c| Failure::Invalid(c.to_string()))?;
                return Err(Failure::Unsolvable);
            }
            return Ok((r, r.unique));
        }
        board
            .validate()
            .map_err(|c| Failure::Invalid(c.to_string()))?;
        // The exact solution count first, with `fast`: a puzzle without a solution is said at
        // once (a rowmajor search of a near-empty unsolvable grid could run for days), and
        // `--unique` needs no second search by the slow strategies.
        let count = solver::fast::solutions(board, 2).count;
        if count == 0 {
            return Err(Failure::Unsolvable);
        }
        let r = solver::search(args.strategy, board, &self.options, &mut ());
        Ok((r, args.unique.then_some(count == 1)))
    }

    /// Counts and reports a puzzle that breaks the rules or cannot be read.
    fn invalid(&mut self, line: usize, at: &str, raw: &str, msg: String) -> anyhow::Result<()> {
        self.summary.invalid += 1;
        // Character errors already name the line.
        let msg = if msg.starts_with("line ") {
            msg
        } else {
            format!("{at}{msg}")
        };
        eprintln!("invalid puzzle: {msg}");
        if self.args.json {
            let obj =
                serde_json::json!({"line": line, "puzzle": raw, "status": "invalid", "error": msg});
            writeln!(self.out, "{obj}")?;
        }
        Ok(())
    }

    /// Counts and reports a puzzle that obeys the rules but has no solution.
    fn unsolvable(&mut self, line: usize, at: &str, board: &Board) -> anyhow::Result<()> {
        self.summary.unsolvable += 1;
        no_solution(at, board);
        if self.args.json {
            let obj = serde_json::json!({"line": line, "puzzle": board.to_line(), "status": "unsolvable",
                "strategy": self.args.strategy.name()});
            writeln!(self.out, "{obj}")?;
        }
        Ok(())
    }

    /// Counts and reports a search's outcome: the solution with its counts, or JSON.
    fn report(
        &mut self,
        line: usize,
        at: &str,
        board: &Board,
        r: &SearchResult,
        unique: Option<bool>,
    ) -> anyhow::Result<()> {
        let (args, s) = (self.args, &r.stats);
        let status = self.count(at, board, r, unique);
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
            writeln!(self.out, "{obj}")?;
        } else if !args.quiet
            && let Some(sol) = r.solution()
        {
            if line > 0 {
                writeln!(self.out, "# line {line}: {}", board.to_line())?;
            }
            write!(self.out, "{sol}")?;
            let unique = match unique {
                Some(true) => ", unique",
                Some(false) => ", NOT unique (several solutions; this is one of them)",
                None => "",
            };
            writeln!(
                self.out,
                "# {}: {} placements, {} undos, {} calls, max depth {}, {:.3} ms{unique}\n",
                args.strategy,
                t(s.placements),
                t(s.undos),
                t(s.calls()),
                s.max_depth,
                s.elapsed.as_secs_f64() * 1e3,
            )?;
        }
        Ok(())
    }

    /// Counts a search's outcome in the summary, says on stderr what needs saying, and returns
    /// the outcome's status word.
    fn count(
        &mut self,
        at: &str,
        board: &Board,
        r: &SearchResult,
        unique: Option<bool>,
    ) -> &'static str {
        match r.outcome {
            Outcome::Solved(_) => {
                self.summary.solved += 1;
                if unique == Some(false) {
                    self.summary.not_unique += 1;
                    if !self.args.quiet {
                        eprintln!(
                            "{at}NOT unique: {} has several solutions (one is printed; the puzzle \
                             lacks givens, check that none was dropped)",
                            board.to_line()
                        );
                    }
                }
                "solved"
            }
            Outcome::Unsolvable => {
                self.summary.unsolvable += 1;
                no_solution(at, board);
                "unsolvable"
            }
            Outcome::BudgetExhausted => {
                self.summary.stopped += 1;
                eprintln!(
                    "{at}stopped after {} placements (--max-steps); no solution found yet",
                    t(r.stats.placements)
                );
                "stopped"
            }
        }
    }
}

/// Why a puzzle got no search.
enum Failure {
    /// It breaks the rules (the message says how).
    Invalid(String),
    /// It obeys them but no grid completes it.
    Unsolvable,
}

/// A line as `BufRead::lines` gives it: without its `\n` or `\r\n`.
fn line_bytes(buf: &[u8]) -> &[u8] {
    let line = buf.strip_suffix(b"\n").unwrap_or(buf);
    line.strip_suffix(b"\r").unwrap_or(line)
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

fn no_solution(at: &str, board: &Board) {
    eprintln!(
        "{at}no solution: {} (no digit breaks a rule, but no grid completes these givens: \
         check the puzzle for a mistyped or misread digit)",
        board.to_line()
    );
}
