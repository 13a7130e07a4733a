//! Services a host can OPEN on the device, and the code that runs them on a stream.

use super::pty::{self, LineEditor};
use super::shell_protocol as v2;
use super::stream::{StreamReader, StreamWriter};
use crate::shell::dd::{self, Dd};
use crate::shell::{Fd, Flow, Handset, Incomplete, Output, Shell, Stall, parse, screencap, spend};
use std::sync::Arc;
use tokio::sync::Notify;

/// Longest command line an interactive shell buffers before it gives up on the session.
const MAX_LINE: usize = 1024 * 1024;

/// A parsed service request (the OPEN payload).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Service {
    /// `shell[,args]:[command]`; no command means an interactive shell reading stdin.
    Shell {
        v2: bool,
        pty: bool,
        command: Option<String>,
    },
    /// `exec:command`: raw bytes both ways, no shell protocol.
    Exec(String),
    /// `framebuffer:`
    Framebuffer,
    /// `sync:`: the file transfer protocol (`adb push`).
    Sync,
}

impl Service {
    /// Parses an OPEN payload (which may end in NUL). `None` for services this phone lacks.
    pub fn parse(payload: &[u8]) -> Option<Service> {
        let payload = payload.strip_suffix(b"\0").unwrap_or(payload);
        let text = std::str::from_utf8(payload).ok()?;
        let (name, rest) = text.split_once(':')?;
        let command = |s: &str| (!s.is_empty()).then(|| s.to_string());
        match name {
            "exec" => Some(Service::Exec(rest.to_string())),
            "framebuffer" if rest.is_empty() => Some(Service::Framebuffer),
            "sync" if rest.is_empty() => Some(Service::Sync),
            _ => {
                let mut parts = name.split(',');
                let shell = parts.next() == Some("shell");
                let args: Vec<&str> = parts.collect();
                shell.then(|| Service::Shell {
                    v2: args.contains(&"v2"),
                    // adbd's default without a command is a pty; `raw` turns it off.
                    pty: args.contains(&"pty") || (rest.is_empty() && !args.contains(&"raw")),
                    command: command(rest),
                })
            }
        }
    }
}

/// Everything a service needs besides its stream.
#[derive(Clone)]
pub struct Context {
    pub device: Arc<Handset>,
    /// Notified when the connection must be dropped (`--disconnect-after`).
    pub hangup: Arc<Notify>,
}

/// Runs `service` on a stream until it finishes, then closes the stream.
pub async fn run(service: Service, ctx: Context, reader: StreamReader, mut writer: StreamWriter) {
    let hung_up = match (screenrecord_of(&service), service) {
        (Some((args, v2)), _) => {
            super::screenrecord::run(&ctx.device, &args, v2, reader, &mut writer).await
        }
        (None, service) => run_other(service, &ctx, reader, &mut writer).await,
    };
    if hung_up {
        ctx.hangup.notify_one();
    } else {
        writer.close().await;
    }
}

/// Runs every service but a recording. Returns true if the connection must drop.
async fn run_other(
    service: Service,
    ctx: &Context,
    reader: StreamReader,
    writer: &mut StreamWriter,
) -> bool {
    match service {
        Service::Sync => {
            super::sync::serve(&ctx.device, reader, writer).await;
            false
        }
        Service::Framebuffer => {
            reader.drain();
            let image = ctx.device.phone().screenshot();
            let _ = writer.write(&screencap::framebuffer(&image)).await;
            false
        }
        Service::Exec(cmd)
        | Service::Shell {
            v2: false,
            command: Some(cmd),
            ..
        } if stdin_command(&cmd).is_some() => match stdin_command(&cmd) {
            Some(command) => copy_stdin(ctx, command, reader, writer).await,
            None => false,
        },
        Service::Exec(cmd)
        | Service::Shell {
            v2: false,
            command: Some(cmd),
            ..
        } => one_command(ctx, &cmd, false, reader, writer).await,
        Service::Shell {
            v2: true,
            command: Some(cmd),
            ..
        } => one_command(ctx, &cmd, true, reader, writer).await,
        Service::Shell {
            v2,
            pty,
            command: None,
        } => interactive(ctx.device.clone(), v2, pty, reader, writer).await,
    }
}

/// A command line run to its end, its output sent back at once (`v2`: framed, with its exit
/// status). Returns true if the connection must drop.
async fn one_command(
    ctx: &Context,
    cmd: &str,
    v2: bool,
    reader: StreamReader,
    writer: &mut StreamWriter,
) -> bool {
    reader.drain();
    let mut shell = Shell::new(ctx.device.clone());
    let mut out = Output::default();
    let hangup = shell.run(cmd, &mut out, false).await == Ok(Flow::Hangup);
    // A v1 stream gets what came before a hang-up; a v2 one, a whole exchange or nothing.
    if !v2 {
        let _ = writer.write(&out.merged()).await;
    } else if !hangup {
        let mut bytes = framed(&out);
        bytes.extend(v2::encode(v2::EXIT, &[exit_byte(shell.status())]));
        let _ = writer.write(&bytes).await;
    }
    hangup
}

/// A command line whose last command reads the stream as its stdin: a `dd` (how a host
/// streams raw input records into a device node), maybe `exec`ed after other commands
/// (`echo pid:$$; exec dd of=... bs=24`, which tells the host the copying process's id), or
/// `app_process` (the tap injector, reading records).
fn stdin_command(cmd: &str) -> Option<(Vec<parse::Command>, parse::Command)> {
    let mut commands = parse::parse(cmd).ok()?;
    let last = commands.pop()?;
    let words: Vec<String> = last.words.iter().map(|w| w.expand(0, 0)).collect();
    let words = match words.first().map(String::as_str) {
        Some("exec") => &words[1..],
        _ => &words[..],
    };
    let (_, words) = crate::shell::assignments(words);
    matches!(
        words.first().map(String::as_str),
        Some("dd" | "app_process")
    )
    .then_some((commands, last))
}

/// A service that is one `screenrecord` command (maybe `exec`ed): its arguments, and whether
/// the stream speaks the shell protocol. It records on the stream until its time limit or the
/// host's hang-up.
fn screenrecord_of(service: &Service) -> Option<(Vec<String>, bool)> {
    match service {
        Service::Exec(cmd) => Some((screenrecord_args(cmd)?, false)),
        Service::Shell {
            v2,
            command: Some(cmd),
            ..
        } => Some((screenrecord_args(cmd)?, *v2)),
        _ => None,
    }
}

fn screenrecord_args(cmd: &str) -> Option<Vec<String>> {
    let commands = parse::parse(cmd).ok()?;
    let [only] = commands.as_slice() else {
        return None;
    };
    let words: Vec<String> = only.words.iter().map(|w| w.expand(0, 0)).collect();
    let words = match words.first().map(String::as_str) {
        Some("exec") => &words[1..],
        _ => &words[..],
    };
    (words.first().map(String::as_str) == Some("screenrecord")).then(|| words[1..].to_vec())
}

/// Runs the commands before the `dd` (their output goes back at once), then `dd ARGS` with the
/// stream as its stdin, chunk by chunk as the host writes them, until the host closes the
/// stream, `count` is reached or a write fails; then its messages go back. The copying
/// process's I/O counters are kept up to date for `/proc/PID/io`. Returns true if the
/// connection must drop.
async fn copy_stdin(
    ctx: &Context,
    (before, dd_command): (Vec<parse::Command>, parse::Command),
    reader: StreamReader,
    writer: &mut StreamWriter,
) -> bool {
    let device = &ctx.device;
    let mut shell = Shell::new(device.clone());
    let mut out = Output::default();
    match shell.run_commands(before, &mut out).await {
        Flow::Hangup => return true,
        Flow::Exit(_) => {
            reader.drain();
            let _ = writer.write(&out.merged()).await;
            return false;
        }
        Flow::Continue => {}
    }
    if !out.is_empty() && writer.write(&out.merged()).await.is_err() {
        return false;
    }
    let words: Vec<String> = dd_command
        .words
        .iter()
        .map(|w| w.expand(shell.status(), shell.pid()))
        .collect();
    // `exec dd` runs as the shell's process; a plain `dd` is a child of its own.
    let (words, pid) = match words.first().map(String::as_str) {
        Some("exec") => (&words[1..], shell.pid()),
        _ => (&words[..], device.spawn()),
    };
    let (env, words) = crate::shell::assignments(words);
    let args = &words[1..];
    if words[0] == "app_process" {
        let classpath = crate::shell::classpath(&env).map(str::to_string);
        return run_injector(ctx, classpath.as_deref(), args, pid, reader, writer).await;
    }
    spend(device.costs().process()).await;
    if device.count_command() {
        return true;
    }
    let mut out = Output::default();
    match Dd::start(device, args) {
        Err(msg) => {
            out.err(format!("{msg}\n"));
            reader.drain();
        }
        Ok(copy) => copy_to_end(device, copy, pid, reader, &mut out).await,
    }
    device.exit(pid);
    let _ = writer.write(&out.merged()).await;
    false
}

/// `dd` (process `pid`) copying the stream chunk by chunk, as the host writes them, until the
/// host closes it, `count` is reached or a write fails; its messages go to `out`.
async fn copy_to_end(
    device: &Handset,
    mut copy: Dd,
    pid: u32,
    mut reader: StreamReader,
    out: &mut Output,
) {
    let mut reads = 0;
    let stop = loop {
        reads += 1;
        spend(Stall::before_read(device.knobs().stream_stall, reads)).await;
        let fed = match reader.recv().await {
            Some(chunk) => copy.feed(device, &chunk),
            None => break copy.finish(device),
        };
        device.set_io(pid, copy.io());
        if let Err(stop) = fed {
            break Err(stop);
        }
    };
    reader.drain();
    dd::end(&copy, stop, out);
}

/// The tap injector on an `exec:` stream: the Java start-up, the hello line (or the launch's
/// failure), then each chunk of stdin answered as soon as it is injected, until the host closes
/// the stream. Returns true if the connection must drop.
async fn run_injector(
    ctx: &Context,
    classpath: Option<&str>,
    args: &[String],
    pid: u32,
    mut reader: StreamReader,
    writer: &mut StreamWriter,
) -> bool {
    let device = &ctx.device;
    spend(device.costs().java()).await;
    if device.count_command() {
        return true;
    }
    let mut out = Output::default();
    let started = crate::shell::inject::start(device, classpath, args, pid, &mut out);
    let _ = writer.write(&out.merged()).await;
    let Ok(mut injector) = started else {
        reader.drain();
        device.exit(pid);
        return false;
    };
    let mut reads = 0;
    loop {
        reads += 1;
        spend(Stall::before_read(device.knobs().stream_stall, reads)).await;
        let Some(chunk) = reader.recv().await else {
            break;
        };
        let mut out = Output::default();
        let cost = injector.feed(device, &chunk, &mut out);
        spend(cost).await;
        if writer.write(&out.merged()).await.is_err() {
            break;
        }
    }
    let mut out = Output::default();
    injector.finish(&mut out);
    let _ = writer.write(&out.merged()).await;
    device.exit(pid);
    false
}

fn exit_byte(status: i32) -> u8 {
    (status & 0xff) as u8
}

/// Output as shell v2 stdout/stderr packets.
fn framed(out: &Output) -> Vec<u8> {
    let mut bytes = Vec::new();
    for (fd, chunk) in &out.chunks {
        let id = match fd {
            Fd::Stdout => v2::STDOUT,
            Fd::Stderr => v2::STDERR,
        };
        bytes.extend(v2::encode(id, chunk));
    }
    bytes
}

/// An interactive shell: reads stdin line by line and runs each complete line, so a host can
/// pipeline thousands of commands into one session. With a pty it also echoes and prompts.
/// Returns true if the connection must drop.
async fn interactive(
    device: Arc<Handset>,
    v2: bool,
    pty: bool,
    mut reader: StreamReader,
    writer: &mut StreamWriter,
) -> bool {
    let prompt = format!("{}:/ $ ", device.profile().device);
    let mut session = Session {
        shell: Shell::new(device),
        v2,
        pty,
    };
    let mut decoder = v2::Decoder::default();
    let mut editor = LineEditor::default();
    let mut pending: Vec<u8> = Vec::new();
    let mut stdin_open = true;
    if pty
        && writer
            .write(&session.encode(prompt.as_bytes(), Fd::Stdout))
            .await
            .is_err()
    {
        return false;
    }
    loop {
        let Some(chunk) = reader.recv().await else {
            // Stream closed by the host: nobody is listening any more.
            return false;
        };
        let mut typed = Vec::new();
        if v2 {
            decoder.push(&chunk);
            loop {
                match decoder.next_packet() {
                    Ok(Some((v2::STDIN, data))) => typed.extend_from_slice(&data),
                    Ok(Some((v2::CLOSE_STDIN, _))) => stdin_open = false,
                    Ok(Some(_)) => {}
                    Ok(None) => break,
                    Err(_) => return false,
                }
            }
        } else {
            typed = chunk;
        }
        let (mut bytes, flow) = if pty {
            session.typed(&mut editor, &prompt, &typed).await
        } else {
            pending.extend_from_slice(&typed);
            session.piped(&mut pending, stdin_open).await
        };
        if flow == Flow::Hangup {
            return true;
        }
        let done = flow != Flow::Continue || (v2 && !stdin_open);
        if done && v2 {
            bytes.extend(v2::encode(v2::EXIT, &[exit_byte(session.shell.status())]));
        }
        if !bytes.is_empty() && writer.write(&bytes).await.is_err() {
            return false;
        }
        if done {
            return false;
        }
    }
}

/// An interactive shell's output conventions.
struct Session {
    shell: Shell,
    v2: bool,
    pty: bool,
}

impl Session {
    /// Keys typed on a pty: echoed, each line run, a prompt after each; the bytes to send and
    /// how the shell goes on.
    async fn typed(
        &mut self,
        editor: &mut LineEditor,
        prompt: &str,
        typed: &[u8],
    ) -> (Vec<u8>, Flow) {
        let mut flow = Flow::Continue;
        let t = editor.feed(typed);
        let mut bytes = self.encode(&t.echo, Fd::Stdout);
        for line in t.lines {
            let mut out = Output::default();
            flow = self.run(&line, &mut out, false).await;
            bytes.extend(self.framed(&out));
            if flow != Flow::Continue {
                break;
            }
            bytes.extend(self.encode(prompt.as_bytes(), Fd::Stdout));
        }
        if t.eof && flow == Flow::Continue {
            flow = Flow::Exit(self.shell.status());
        }
        (bytes, flow)
    }

    /// Piped stdin: each complete line of `pending` run (a quote may span lines), the rest
    /// when stdin is closed; the bytes to send and how the shell goes on.
    async fn piped(&mut self, pending: &mut Vec<u8>, stdin_open: bool) -> (Vec<u8>, Flow) {
        let mut flow = Flow::Continue;
        let mut out = Output::default();
        let mut consumed = 0;
        let mut start = 0;
        while let Some(pos) = pending[start..].iter().position(|&b| b == b'\n') {
            let end = start + pos + 1;
            let script = String::from_utf8_lossy(&pending[consumed..end]).into_owned();
            match self.shell.run(&script, &mut out, stdin_open).await {
                Ok(f) => {
                    consumed = end;
                    flow = f;
                    if flow != Flow::Continue {
                        break;
                    }
                }
                // A quote spans lines: keep reading.
                Err(Incomplete::OpenQuote) => {}
            }
            start = end;
        }
        pending.drain(..consumed);
        if flow == Flow::Continue && !stdin_open && !pending.is_empty() {
            let script = String::from_utf8_lossy(pending).into_owned();
            pending.clear();
            flow = self.run(&script, &mut out, false).await;
        }
        if pending.len() > MAX_LINE {
            out.err("/system/bin/sh: line too long\n");
            flow = Flow::Exit(1);
        }
        (self.framed(&out), flow)
    }

    /// Runs a complete script (a syntax error is reported, not waited on).
    async fn run(&mut self, script: &str, out: &mut Output, wait: bool) -> Flow {
        self.shell
            .run(script, out, wait)
            .await
            .unwrap_or(Flow::Continue)
    }

    /// Bytes for one output chunk: shell v2 packet or raw, `\r\n` line ends with a pty.
    fn encode(&self, bytes: &[u8], fd: Fd) -> Vec<u8> {
        let bytes = if self.pty {
            pty::crlf(bytes)
        } else {
            bytes.to_vec()
        };
        if bytes.is_empty() {
            return bytes;
        }
        match (self.v2, fd) {
            (false, _) => bytes,
            (true, Fd::Stdout) => v2::encode(v2::STDOUT, &bytes),
            (true, Fd::Stderr) => v2::encode(v2::STDERR, &bytes),
        }
    }

    fn framed(&self, out: &Output) -> Vec<u8> {
        out.chunks
            .iter()
            .flat_map(|(fd, b)| self.encode(b, *fd))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn service_names() {
        assert_eq!(
            Service::parse(b"shell:echo hi\0"),
            Some(Service::Shell {
                v2: false,
                pty: false,
                command: Some("echo hi".into())
            })
        );
        assert_eq!(
            Service::parse(b"shell,v2,TERM=xterm-256color,raw:exit 3"),
            Some(Service::Shell {
                v2: true,
                pty: false,
                command: Some("exit 3".into())
            })
        );
        assert_eq!(
            Service::parse(b"shell,v2,raw:"),
            Some(Service::Shell {
                v2: true,
                pty: false,
                command: None
            })
        );
        assert_eq!(
            Service::parse(b"shell,TERM=xterm,raw:"),
            Some(Service::Shell {
                v2: false,
                pty: false,
                command: None
            })
        );
        assert_eq!(
            Service::parse(b"exec:screencap -p\0"),
            Some(Service::Exec("screencap -p".into()))
        );
        assert_eq!(
            Service::parse(b"framebuffer:\0"),
            Some(Service::Framebuffer)
        );
        assert_eq!(
            Service::parse(b"shell,v2,TERM=xterm,pty:"),
            Some(Service::Shell {
                v2: true,
                pty: true,
                command: None
            })
        );
        assert_eq!(
            Service::parse(b"shell:"),
            Some(Service::Shell {
                v2: false,
                pty: true,
                command: None
            })
        );
        assert_eq!(Service::parse(b"sync:\0"), Some(Service::Sync));
        assert_eq!(Service::parse(b"shellx:ls"), None);
        assert_eq!(Service::parse(b"\xff\xfe:"), None);
        assert_eq!(Service::parse(b"noseparator"), None);
    }
}
