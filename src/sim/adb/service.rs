//! Services a host can OPEN on the device, and the code that runs them on a stream.

use super::shell_protocol as v2;
use super::stream::{StreamReader, StreamWriter};
use crate::sim::shell::{Device, Fd, Flow, Incomplete, Output, Shell, screencap};
use std::sync::Arc;
use tokio::sync::Notify;

/// Longest command line an interactive shell buffers before it gives up on the session.
const MAX_LINE: usize = 1024 * 1024;

/// A parsed service request (the OPEN payload).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Service {
    /// `shell[,args]:[command]`; no command means an interactive shell reading stdin.
    Shell { v2: bool, command: Option<String> },
    /// `exec:command`: raw bytes both ways, no shell protocol.
    Exec(String),
    /// `framebuffer:`
    Framebuffer,
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
            _ => {
                let mut parts = name.split(',');
                (parts.next() == Some("shell")).then(|| Service::Shell {
                    v2: parts.any(|a| a == "v2"),
                    command: command(rest),
                })
            }
        }
    }
}

/// Everything a service needs besides its stream.
#[derive(Clone)]
pub struct Context {
    pub device: Arc<Device>,
    /// Notified when the connection must be dropped (`--disconnect-after`).
    pub hangup: Arc<Notify>,
}

/// Runs `service` on a stream until it finishes, then closes the stream.
pub async fn run(service: Service, ctx: Context, reader: StreamReader, mut writer: StreamWriter) {
    let hung_up = match service {
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
        } => {
            reader.drain();
            let mut shell = Shell::new(ctx.device.clone());
            let mut out = Output::default();
            let flow = shell.run(&cmd, &mut out, false).await;
            let _ = writer.write(&out.merged()).await;
            flow == Ok(Flow::Hangup)
        }
        Service::Shell {
            v2: true,
            command: Some(cmd),
        } => {
            reader.drain();
            let mut shell = Shell::new(ctx.device.clone());
            let mut out = Output::default();
            let flow = shell.run(&cmd, &mut out, false).await;
            if flow == Ok(Flow::Hangup) {
                true
            } else {
                let mut bytes = framed(&out);
                bytes.extend(v2::encode(v2::EXIT, &[exit_byte(shell.status())]));
                let _ = writer.write(&bytes).await;
                false
            }
        }
        Service::Shell { v2, command: None } => {
            interactive(ctx.device.clone(), v2, reader, &mut writer).await
        }
    };
    if hung_up {
        ctx.hangup.notify_one();
    } else {
        writer.close().await;
    }
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
/// pipeline thousands of commands into one session. Returns true if the connection must drop.
async fn interactive(
    device: Arc<Device>,
    v2: bool,
    mut reader: StreamReader,
    writer: &mut StreamWriter,
) -> bool {
    let mut shell = Shell::new(device);
    let mut decoder = v2::Decoder::default();
    let mut pending: Vec<u8> = Vec::new();
    let mut stdin_open = true;
    loop {
        // Collect stdin bytes.
        let Some(chunk) = reader.recv().await else {
            // Stream closed by the host: nobody is listening any more.
            return false;
        };
        if v2 {
            decoder.push(&chunk);
            loop {
                match decoder.next_packet() {
                    Ok(Some((v2::STDIN, data))) => pending.extend_from_slice(&data),
                    Ok(Some((v2::CLOSE_STDIN, _))) => stdin_open = false,
                    Ok(Some(_)) => {}
                    Ok(None) => break,
                    Err(_) => return false,
                }
            }
        } else {
            pending.extend_from_slice(&chunk);
        }
        // Run every complete line (and the rest once stdin closed).
        let mut out = Output::default();
        let mut flow = Flow::Continue;
        let mut consumed = 0;
        let mut start = 0;
        while let Some(pos) = pending[start..].iter().position(|&b| b == b'\n') {
            let end = start + pos + 1;
            let script = String::from_utf8_lossy(&pending[consumed..end]).into_owned();
            match shell.run(&script, &mut out, stdin_open).await {
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
            let script = String::from_utf8_lossy(&pending).into_owned();
            pending.clear();
            if let Ok(f) = shell.run(&script, &mut out, false).await {
                flow = f;
            }
        }
        if flow == Flow::Hangup {
            return true;
        }
        if pending.len() > MAX_LINE {
            out.err("/system/bin/sh: line too long\n");
            flow = Flow::Exit(1);
        }
        let done = flow != Flow::Continue || (v2 && !stdin_open);
        let mut bytes = if v2 { framed(&out) } else { out.merged() };
        if done && v2 {
            bytes.extend(v2::encode(v2::EXIT, &[exit_byte(shell.status())]));
        }
        if !bytes.is_empty() && writer.write(&bytes).await.is_err() {
            return false;
        }
        if done {
            return false;
        }
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
                command: Some("echo hi".into())
            })
        );
        assert_eq!(
            Service::parse(b"shell,v2,TERM=xterm-256color,raw:exit 3"),
            Some(Service::Shell {
                v2: true,
                command: Some("exit 3".into())
            })
        );
        assert_eq!(
            Service::parse(b"shell,v2,raw:"),
            Some(Service::Shell {
                v2: true,
                command: None
            })
        );
        assert_eq!(
            Service::parse(b"shell,TERM=xterm,raw:"),
            Some(Service::Shell {
                v2: false,
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
        assert_eq!(Service::parse(b"sync:\0"), None);
        assert_eq!(Service::parse(b"shellx:ls"), None);
        assert_eq!(Service::parse(b"\xff\xfe:"), None);
        assert_eq!(Service::parse(b"noseparator"), None);
    }
}
