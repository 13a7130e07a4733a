pub mod board;
pub mod cli;
pub mod sim;
pub mod solver;
