//! The integration tests, one binary (one link instead of one per file): each module is what
//! was a test file; `common` and `vision_support` are their shared helpers.

mod common;
mod vision_support;

mod bad_input;
mod calibration_choice;
mod cli_solve;
mod demo;
mod device_adb;
mod device_direct;
mod doctor_corpus;
mod front_door;
mod injector_jvm;
mod input_rules_e2e;
mod layering;
mod library_words;
mod navigation_bar;
mod new_games_e2e;
mod play_e2e;
mod real_screens;
mod real_screens_calibrate;
mod record;
mod recovery_e2e;
mod refused_keys_e2e;
mod replay;
mod several_solutions;
mod sim_adb;
mod sim_calibrations;
mod sim_screenrecord;
mod user_dirs;
mod video_h264;
mod video_mux;
mod vision_calibration;
mod vision_capture;
mod vision_classes;
mod vision_cli;
mod vision_corpus;
mod vision_synthetic;
mod wm_density;
