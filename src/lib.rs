pub mod board;
pub mod cli;
pub mod device;
pub mod play;
pub mod session;
pub mod sim;
pub mod solver;
