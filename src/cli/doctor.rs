//! `autoplay doctor`: what the player concludes about a phone, and from which command.

use super::args::AdbArgs;
use sudoku_autoplay::doctor::{self, Report};

#[derive(Debug, clap::Args)]
#[command(
    after_help = "It changes nothing on the phone: no injector is pushed, nothing is \
tapped (the checks write a lone SYN_REPORT, which moves no finger, and press KEYCODE_UNKNOWN, \
which no app takes). Paste `autoplay doctor --json` into a bug report."
)]
pub struct DoctorArgs {
    /// One JSON object (for bug reports and scripts).
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub adb: AdbArgs,
}

pub fn run(args: &DoctorArgs) -> anyhow::Result<i32> {
    let device = args.adb.device()?;
    let report = doctor::examine(&device)?;
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&report)?)?;
    } else {
        print(&report)?;
    }
    Ok(0)
}

fn or_unknown<T: std::fmt::Display>(v: Option<T>) -> String {
    v.map_or("?".into(), |v| v.to_string())
}

fn print(r: &Report) -> std::io::Result<()> {
    print_device(r)?;
    print_touch(r)?;
    print_state(r)?;
    print_capture(r)
}

/// The phone, its screen and its ABI.
fn print_device(r: &Report) -> std::io::Result<()> {
    let i = &r.identity;
    outln!(
        "{} ({}, Android {}, API {})    [{}]",
        r.serial,
        i.model,
        i.release,
        or_unknown(i.sdk),
        i.from
    )?;
    let s = &r.screen;
    let turned = match s.rotation {
        Some(0) | None => String::new(),
        Some(deg) => format!(" (turned {deg}°)"),
    };
    outln!(
        "screen      {}x{}{turned}, {} dpi{}    [{}]",
        or_unknown(s.width),
        or_unknown(s.height),
        or_unknown(s.density),
        s.problem
            .as_ref()
            .map_or(String::new(), |p| format!(" ({p})")),
        s.from
    )?;
    let b = &r.bars;
    let frame = |f: &[u32; 4]| format!("[{},{}][{},{}]", f[0], f[1], f[2], f[3]);
    let frames: Vec<String> = b.frames.iter().map(frame).collect();
    outln!(
        "bars        {}; the app has {}    [{}]",
        if frames.is_empty() {
            "none named".to_string()
        } else {
            frames.join(", ")
        },
        b.app_area
            .as_ref()
            .map_or("the whole screen".to_string(), frame),
        b.from
    )?;
    let a = &r.abi;
    outln!(
        "abi         {} ({}): {}-byte input_event records    [{}]",
        a.abi,
        a.abilist,
        a.record_bytes,
        a.from
    )?;
    Ok(())
}

/// The touch nodes and the panel chosen.
fn print_touch(r: &Report) -> std::io::Result<()> {
    let t = &r.touch;
    outln!(
        "touch       {} multitouch node(s); panel {}    [{}]",
        t.nodes.len(),
        t.why,
        t.from
    )?;
    if let Some(panel) = &t.panel {
        let turned = match t.rotation {
            Some(0) | None => String::new(),
            Some(deg) => format!("; the display is turned {deg}° against them"),
        };
        outln!(
            "            {panel}: protocol {}, axes 0..{} x 0..{}{turned}",
            t.protocol.map_or("?".into(), |p| format!("{p:?}")),
            or_unknown(t.max_x),
            or_unknown(t.max_y)
        )?;
    }
    Ok(())
}

/// The screen's state, the input queue and the tap channels.
fn print_state(r: &Report) -> std::io::Result<()> {
    let st = &r.state;
    outln!(
        "state       screen {}, {}, in front: {}    [{}]",
        st.screen,
        match (st.keyguard, st.secure) {
            (false, _) => "unlocked",
            (true, false) => "lock screen (swipe)",
            (true, true) => "lock screen (PIN, pattern or password)",
        },
        st.focus.as_deref().unwrap_or("nothing"),
        st.from
    )?;
    outln!(
        "input       {} event(s) queued    [{}]",
        r.dispatcher.queued,
        r.dispatcher.from
    )?;
    let mut first = true;
    for c in &r.channels {
        outln!(
            "{:<12}{} {:?}: {}",
            if first { "channels" } else { "" },
            if c.possible { "yes" } else { "no " },
            c.channel,
            c.why
        )?;
        first = false;
    }
    if let Some(refusal) = r.channels.iter().find_map(|c| c.refused.as_ref()) {
        outln!("{:<12}{}", "", super::refusal::remedy(refusal))?;
    }
    Ok(())
}

/// Screencap's format and uiautomator.
fn print_capture(r: &Report) -> std::io::Result<()> {
    let sc = &r.screencap;
    outln!(
        "screencap   {}{} {}x{}{}{}    [{}]",
        sc.format,
        sc.header_bytes
            .map_or(String::new(), |h| format!(" ({h}-byte header)")),
        or_unknown(sc.width),
        or_unknown(sc.height),
        sc.text_before.as_ref().map_or(String::new(), |t| format!(
            "; text before the image: {:?}",
            t.lines().next().unwrap_or("")
        )),
        sc.problem
            .as_ref()
            .map_or(String::new(), |p| format!("; {p}")),
        sc.from
    )?;
    let u = &r.uiautomator;
    outln!(
        "uiautomator {}{}    [{}]",
        if u.usable { "usable" } else { "not usable" },
        u.said.as_ref().map_or(String::new(), |s| format!(" ({s})")),
        u.from
    )?;
    Ok(())
}
