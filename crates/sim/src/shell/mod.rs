//! The phone's `/system/bin/sh`: parses a script (see [`parse`]) and runs its commands
//! against the [`Handset`]. Unknown commands fail with 127 like Android's mksh.

pub mod dd;
pub(crate) mod device;
pub mod evdev;
pub mod inject;
mod input;
pub mod log;
pub mod logcat;
pub mod output;
pub mod parse;
pub mod refusal;
pub(crate) mod screencap;
pub mod screenrecord;
mod starting;
mod system;
pub(crate) mod touch;

pub use device::{Handset, Io, Knobs, Stall};
pub use output::{Fd, Output};

use parse::{Join, ParseError};
use std::sync::Arc;
use std::time::Duration;

/// How a script ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Ran to the end; the shell continues (interactive) or exits with its status.
    Continue,
    /// `exit N`.
    Exit(i32),
    /// `--disconnect-after` fired: the connection must be dropped now.
    Hangup,
}

/// Why a script could not run yet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Incomplete {
    /// A quote is open: an interactive shell waits for the next line.
    OpenQuote,
}

/// One shell session (a process of its own): remembers `$?`.
pub struct Shell {
    device: Arc<Handset>,
    status: i32,
    pid: u32,
}

impl Drop for Shell {
    fn drop(&mut self) {
        self.device.exit(self.pid);
    }
}

impl Shell {
    /// A new session on `device`.
    pub fn new(device: Arc<Handset>) -> Shell {
        let pid = device.spawn();
        Shell {
            device,
            status: 0,
            pid,
        }
    }

    /// The shell's process id (`$$`).
    pub fn pid(&self) -> u32 {
        self.pid
    }

    /// The last command's exit status (`$?`).
    pub fn status(&self) -> i32 {
        self.status
    }

    /// Runs a script. An unterminated quote is reported (so an interactive caller can wait for
    /// more input) when `wait_on_open_quote` is set; otherwise it is a syntax error.
    pub async fn run(
        &mut self,
        script: &str,
        out: &mut Output,
        wait_on_open_quote: bool,
    ) -> Result<Flow, Incomplete> {
        let commands = match parse::parse(script) {
            Ok(c) => c,
            Err(ParseError::Unterminated) if wait_on_open_quote => {
                return Err(Incomplete::OpenQuote);
            }
            Err(e) => {
                out.err(format!("/system/bin/sh: {e}\n"));
                self.status = if matches!(e, ParseError::Unsupported(_)) {
                    1
                } else {
                    2
                };
                return Ok(Flow::Continue);
            }
        };
        Ok(self.run_commands(commands, out).await)
    }

    /// Runs parsed commands.
    pub async fn run_commands(&mut self, commands: Vec<parse::Command>, out: &mut Output) -> Flow {
        for command in commands {
            let run = match command.join {
                Join::Always => true,
                Join::And => self.status == 0,
                Join::Or => self.status != 0,
            };
            if !run {
                continue;
            }
            let args: Vec<String> = command
                .words
                .iter()
                .map(|w| w.expand(self.status, self.pid))
                .collect();
            if args.first().map(String::as_str) == Some("exit") {
                let code = match args.get(1) {
                    None => self.status,
                    Some(n) => match n.parse::<i64>() {
                        Ok(n) => (n & 0xff) as i32,
                        Err(_) => {
                            out.err(format!("/system/bin/sh: exit: {n}: bad number\n"));
                            self.status = 2;
                            continue;
                        }
                    },
                };
                self.status = code;
                return Flow::Exit(code);
            }
            // `exec CMD`: CMD replaces the shell, which is gone when it ends.
            let replaced = args.len() > 1 && args[0] == "exec";
            let args = if replaced { &args[1..] } else { &args[..] };
            self.status = self.exec(args, out).await;
            if self.device.count_command() {
                return Flow::Hangup;
            }
            if replaced {
                return Flow::Exit(self.status);
            }
        }
        Flow::Continue
    }

    /// Runs one simple command and returns its exit status.
    async fn exec(&mut self, args: &[String], out: &mut Output) -> i32 {
        let (env, args) = assignments(args);
        let Some(name) = args.first() else {
            return 0;
        };
        let rest = &args[1..];
        let device = &*self.device;
        let costs = *device.costs();
        if let Some(canned) = canned(device, args) {
            spend(costs.process()).await;
            out.out(canned);
            return 0;
        }
        match name.as_str() {
            "echo" => return echo(rest, out),
            "exec" => return 0,
            "true" => return 0,
            "false" => return 1,
            _ => {}
        }
        if let Some(status) = starting::refused(device, name, rest, out) {
            spend(costs.process()).await;
            return status;
        }
        match name.as_str() {
            "input" => run_input(device, rest, out).await,
            "screencap" => run_screencap(device, rest, out).await,
            "app_process" => {
                // From a script its stdin is empty: the injector says hello and ends.
                spend(costs.java()).await;
                match inject::start(device, classpath(&env), rest, self.pid, out) {
                    Ok(mut injector) => injector.finish(out),
                    Err(status) => status,
                }
            }
            "screenrecord" => {
                spend(costs.process()).await;
                match screenrecord::parse(device, rest, out) {
                    Err(status) => status,
                    Ok(_) => {
                        out.err("screenrecord: this simulated phone records only as a command line of its own (adb exec-out screenrecord ..., adb shell screenrecord ...)\n");
                        1
                    }
                }
            }
            "sendevent" | "getevent" | "wm" | "getprop" | "am" | "monkey" | "uiautomator"
            | "dumpsys" | "dd" | "cat" | "logcat" => {
                spend(costs.process()).await;
                run_tool(device, name, rest, out)
            }
            _ => {
                out.err(format!(
                    "/system/bin/sh: {name}: inaccessible or not found\n"
                ));
                127
            }
        }
    }
}

/// `input`: the process's start, the injection, and (`WAIT_FOR_FINISH`) the app's handling.
async fn run_input(device: &Handset, rest: &[String], out: &mut Output) -> i32 {
    let costs = *device.costs();
    spend(costs.input(device.profile().sdk) + device.knobs().input_latency).await;
    let pid = device.spawn();
    let (status, done) = input::input(device, rest, pid, out);
    device.exit(pid);
    // `input` injects with WAIT_FOR_FINISH: it returns once the app handled it.
    if let Some(done) = done {
        tokio::time::sleep_until(done.into()).await;
    }
    status
}

/// `screencap`: the frame is taken once the process runs; encoding and output take the rest.
async fn run_screencap(device: &Handset, rest: &[String], out: &mut Output) -> i32 {
    let costs = *device.costs();
    let png = rest.iter().any(|a| a == "-p");
    let total = costs.screencap(png, device.unit_random());
    spend(costs.process().min(total)).await;
    let status = screencap::screencap(device, rest, out);
    spend(total.saturating_sub(costs.process())).await;
    status
}

/// The tools that cost a process's start and answer at once.
fn run_tool(device: &Handset, name: &str, rest: &[String], out: &mut Output) -> i32 {
    match name {
        "sendevent" => input::sendevent(device, rest, out),
        "getevent" => input::getevent(device, rest, out),
        "wm" => system::wm(device, rest, out),
        "getprop" => system::getprop(device, rest, out),
        "am" => system::am(device, rest, out),
        "monkey" => system::monkey(device, rest, out),
        "uiautomator" => system::uiautomator(device, rest, out),
        "dumpsys" => system::dumpsys(device, rest, out),
        "cat" => system::cat(device, rest, out),
        "logcat" => logcat::logcat(device, rest, out),
        _ => dd::dd(device, rest, out),
    }
}

/// The canned answer for a command line (`--shell-output`), the longest matching prefix's.
fn canned<'a>(device: &'a Handset, args: &[String]) -> Option<&'a [u8]> {
    let line = args.join(" ");
    device
        .knobs()
        .shell_outputs
        .iter()
        .filter(|(prefix, _)| line.starts_with(prefix.as_str()))
        .max_by_key(|(prefix, _)| prefix.len())
        .map(|(_, bytes)| bytes.as_slice())
}

/// Splits leading `NAME=value` words (the command's environment) from the command.
pub fn assignments(args: &[String]) -> (Vec<(&str, &str)>, &[String]) {
    let n = args
        .iter()
        .take_while(|a| {
            a.split_once('=').is_some_and(|(k, _)| {
                !k.is_empty()
                    && !k.starts_with(|c: char| c.is_ascii_digit())
                    && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            })
        })
        .count();
    let env = args[..n].iter().filter_map(|a| a.split_once('=')).collect();
    (env, &args[n..])
}

/// The `CLASSPATH` of a command's environment.
pub fn classpath<'a>(env: &[(&'a str, &'a str)]) -> Option<&'a str> {
    env.iter()
        .rev()
        .find(|(k, _)| *k == "CLASSPATH")
        .map(|(_, v)| *v)
}

/// Lets `d` of the phone's time pass (nothing when it is zero).
pub async fn spend(d: Duration) {
    if !d.is_zero() {
        tokio::time::sleep(d).await;
    }
}

/// `echo [-n] args...`
fn echo(args: &[String], out: &mut Output) -> i32 {
    let (newline, args) = match args.first().map(String::as_str) {
        Some("-n") => (false, &args[1..]),
        _ => (true, args),
    };
    out.out(args.join(" "));
    if newline {
        out.out("\n");
    }
    0
}

#[cfg(test)]
mod tests;
