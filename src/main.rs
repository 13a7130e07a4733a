//! The `autoplay` binary: the command line over the `sudoku_autoplay` library.

mod cli;

fn main() {
    std::process::exit(cli::main());
}
