pub mod board;
pub mod calibration;
pub mod capture;
pub mod cli;
pub mod sim;
pub mod solver;
pub mod vision;
