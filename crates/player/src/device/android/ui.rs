//! `uiautomator dump`: the words and nodes of the window in front, or the error uiautomator
//! printed instead of them.

/// `uiautomator dump` to the shell's output.
pub(crate) const UI_DUMP_COMMAND: &str = "uiautomator dump /dev/tty";

/// What `uiautomator dump` gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UiDump {
    /// The window in front's words and nodes, or the error line printed instead ([`ui_dump`]).
    pub screen: Result<UiScreen, String>,
    /// Its exit status and output, as printed.
    pub code: i32,
    pub output: String,
}

/// The words of the window in front, and its nodes that carry words and bounds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UiScreen {
    pub texts: Vec<String>,
    pub nodes: Vec<UiNode>,
}

impl UiDump {
    pub(crate) fn parse(output: String, code: i32) -> UiDump {
        let screen = ui_dump(&output).map(|texts| UiScreen {
            texts,
            nodes: ui_nodes(&output),
        });
        UiDump {
            screen,
            code,
            output,
        }
    }
}

/// What `uiautomator dump` printed: the texts of the window in front ([`ui_texts`]), or the
/// error it printed instead of a dump (`ERROR: could not get idle state.` while the screen keeps
/// animating, `ERROR: null root node returned by UiTestAutomationBridge.`: both on stdout, with
/// exit status 0), which is not a screen without words.
pub(crate) fn ui_dump(out: &str) -> Result<Vec<String>, String> {
    if !out.contains("<hierarchy")
        && let Some(error) = out.lines().map(str::trim).find(|l| l.starts_with("ERROR:"))
    {
        return Err(error.to_string());
    }
    Ok(ui_texts(out))
}

/// The `text` and `content-desc` attributes of a `uiautomator dump`, in order, non-empty,
/// entities decoded.
pub(crate) fn ui_texts(xml: &str) -> Vec<String> {
    let mut out = Vec::new();
    for attr in [" text=\"", " content-desc=\""] {
        let mut rest = xml;
        while let Some(at) = rest.find(attr) {
            rest = &rest[at + attr.len()..];
            let Some(end) = rest.find('"') else { break };
            let value = unescape(&rest[..end]);
            if !value.trim().is_empty() {
                out.push((xml.len() - rest.len(), value));
            }
            rest = &rest[end..];
        }
    }
    out.sort_by_key(|(at, _)| *at);
    let mut texts: Vec<String> = Vec::new();
    for (_, t) in out {
        if !texts.contains(&t) {
            texts.push(t);
        }
    }
    texts
}

/// One node of a `uiautomator dump`: its words (`text`, then `content-desc`) and its centre.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UiNode {
    pub words: String,
    pub center: (u32, u32),
    /// The node takes taps (a button).
    pub clickable: bool,
}

/// The nodes of a `uiautomator dump` that carry words and bounds, in order.
pub(crate) fn ui_nodes(xml: &str) -> Vec<UiNode> {
    let attr = |node: &str, name: &str| -> Option<String> {
        let at = node.find(&format!(" {name}=\""))? + name.len() + 3;
        let end = node[at..].find('"')?;
        Some(unescape(&node[at..at + end]))
    };
    xml.split("<node")
        .skip(1)
        .filter_map(|node| {
            let node = node.split('>').next()?;
            let words = [attr(node, "text"), attr(node, "content-desc")]
                .into_iter()
                .flatten()
                .filter(|w| !w.trim().is_empty())
                .collect::<Vec<_>>()
                .join(" ");
            // bounds="[x0,y0][x1,y1]"
            let b = attr(node, "bounds")?;
            let n: Vec<u32> = b
                .split(|c: char| !c.is_ascii_digit())
                .filter(|t| !t.is_empty())
                .filter_map(|t| t.parse().ok())
                .collect();
            let &[x0, y0, x1, y1] = n.as_slice() else {
                return None;
            };
            (!words.is_empty() && x1 > x0 && y1 > y0).then(|| UiNode {
                words,
                center: ((x0 + x1) / 2, (y0 + y1) / 2),
                clickable: attr(node, "clickable").as_deref() == Some("true"),
            })
        })
        .collect()
}

fn unescape(s: &str) -> String {
    s.replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_of_a_ui_dump() {
        let xml = "<hierarchy><node index=\"0\" text=\"Hata: 1/3\" content-desc=\"\" bounds=\"[0,0][100,50]\"><node text=\"\" \
            content-desc=\"Undo\" bounds=\"[900,10][1000,60]\" /></node></hierarchy>";
        let nodes = ui_nodes(xml);
        assert_eq!(
            nodes,
            vec![
                UiNode {
                    words: "Hata: 1/3".into(),
                    center: (50, 25),
                    clickable: false
                },
                UiNode {
                    words: "Undo".into(),
                    center: (950, 35),
                    clickable: false
                }
            ]
        );
    }

    #[test]
    fn texts_of_a_ui_dump() {
        let xml = "<?xml version='1.0' ?><hierarchy rotation=\"0\"><node index=\"0\" text=\"\" \
            content-desc=\"\"><node index=\"0\" text=\"Level 5 complete\" content-desc=\"\" /><node text=\"Tom &amp; Jerry &quot;x&quot;\" \
            content-desc=\"Close\" /><node text=\"Level 5 complete\" content-desc=\"\" /></node></hierarchy>";
        assert_eq!(
            ui_texts(xml),
            vec!["Level 5 complete", "Tom & Jerry \"x\"", "Close"]
        );
    }

    /// Real `uiautomator dump` outputs: a dump, or the error that replaced it.
    #[test]
    fn real_ui_dumps_and_their_errors() {
        let outputs = crate::real_outputs::with_truth("uiautomator");
        for (file, text, truth) in &outputs {
            let dump = ui_dump(text);
            match truth.as_str().unwrap() {
                "ok" => assert!(dump.is_ok_and(|t| !t.is_empty()), "{file}"),
                "idle-error" => assert_eq!(dump, Err("ERROR: could not get idle state.".into())),
                "null-root" => assert!(dump.is_err_and(|e| e.contains("null root node")), "{file}"),
                other => panic!("{file}: truth {other}"),
            }
        }
        assert!(outputs.len() >= 3);
    }
}
