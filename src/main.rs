fn main() {
    std::process::exit(sudoku_autoplay::cli::main());
}
