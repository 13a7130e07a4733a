//! The keys around the keypad that are not digits: found as labels (an icon, a word, or both)
//! near the keypad, and classified by shape as erase / undo / redo / pencil / hint / other.
//!
//! A label is read two ways: as a word (its marks matched one by one against the letters of
//! the bundled fonts, the text compared with the words apps put on such keys, in several
//! languages: "Erase", "Clear", "Löschen", "Effacer", ...) and as an icon (its shape matched
//! against font symbols such as ⌫ ✕ ↶ ✎ and drawn trash cans, erasers and bulbs). A label
//! that is neither clearly a word nor clearly one icon stays unclassified: calibration then
//! asks the person rather than guessing.

use super::geometry::BoardGeometry;
use super::glyph::Glyph;
use super::gray::Gray;
use super::icons::{self, Tool};
use super::keypad::Keypad;
use super::label::hole_share;
use super::regions::{self, Limits, Region};
use std::collections::HashMap;

/// A key (its label) near the keypad that is not a digit.
#[derive(Debug, Clone)]
pub struct ToolKey {
    /// What it does, when the label was recognised.
    pub tool: Option<Tool>,
    /// Where to tap: the label's centre.
    pub center: (u32, u32),
    /// The label's box `[x0, y0, x1, y1)`.
    pub bbox: [u32; 4],
    /// How sure, 0..1.
    pub confidence: f32,
    /// What it was recognised as: `word "clear" 0.83`, `icon ⌫ 0.91`, or the best guess.
    pub evidence: String,
}

/// An icon score at least this high, ahead of other tools by [`ICON_MARGIN`], classifies a label.
const ICON_SCORE: f32 = 0.72;
const ICON_MARGIN: f32 = 0.06;

/// A label whose holes take at least this share of its box is closed: a ring, an O, a 0, a
/// square or a tag outline (a navigation bar's home circle and recents square, a ⌫). It is
/// compared only with the icons that close a hole in too: a ring is no C, an X or an arrow,
/// however alike their glyphs correlate (the home circle read as a C key at 0.73). An outline
/// may break open in a small or compressed screenshot, but no open shape closes into a ring, so
/// a label with no such hole is still compared with every icon.
const RING_HOLE: f32 = 0.2;

/// A word read this well, ahead of other tools' words by [`WORD_MARGIN`], classifies a label.
const WORD_SCORE: f32 = 0.6;
const WORD_MARGIN: f32 = 0.05;

/// Words on keys, by tool (lower case; a key may show more, e.g. "✕ Clear").
const WORDS: &[(Tool, &[&str])] = &[
    (
        Tool::Erase,
        &[
            "erase",
            "eraser",
            "delete",
            "clear",
            "remove",
            "löschen",
            "entfernen",
            "radieren",
            "effacer",
            "gomme",
            "supprimer",
            "borrar",
            "apagar",
            "limpar",
            "cancella",
            "elimina",
            "wissen",
            "usuń",
            "wyczyść",
            "temizle",
            "smazat",
            "törlés",
            "sterge",
            "очистить",
            "стереть",
            "удалить",
            "ластик",
        ],
    ),
    (
        Tool::Undo,
        &[
            "undo",
            "rückgängig",
            "zurück",
            "deshacer",
            "annuler",
            "annulla",
            "desfazer",
            "ongedaan",
            "cofnij",
            "geri",
            "отменить",
            "отмена",
        ],
    ),
    (
        Tool::Redo,
        &[
            "redo",
            "rehacer",
            "rétablir",
            "ripeti",
            "refazer",
            "повторить",
        ],
    ),
    (
        Tool::Pencil,
        &[
            "notes",
            "note",
            "pencil",
            "notizen",
            "notiz",
            "notas",
            "nota",
            "crayon",
            "matita",
            "lápiz",
            "notities",
            "notatki",
            "notlar",
            "заметки",
            "карандаш",
        ],
    ),
    (
        Tool::Hint,
        &[
            "hint",
            "hints",
            "clue",
            "clues",
            "tipp",
            "hinweis",
            "pista",
            "indice",
            "aiuto",
            "dica",
            "hinta",
            "podpowiedź",
            "ipucu",
            "подсказка",
        ],
    ),
    (
        Tool::Other,
        &[
            "game", "exit", "quit", "restart", "check", "solve", "menu", "pause", "settings",
            "mode", "input", "errors", "mistakes", "spiel",
        ],
    ),
];

/// Finds and classifies the labels near the keypad that are not its digits, inside `app_area`
/// when it is known (the screen without its system bars).
pub(crate) fn find_tools(
    gray: &Gray,
    board: &BoardGeometry,
    keypad: &Keypad,
    app_area: Option<[u32; 4]>,
) -> Vec<ToolKey> {
    let hk = keypad.glyph_height().max(4.0);
    let area = search_area(gray, keypad, app_area);
    let limits = Limits {
        min_h: ((hk * 0.15) as u32).max(4),
        max_h: (hk * 2.0) as u32,
        max_w: (hk * 3.0) as u32,
        min_area: 6,
    };
    let marks: Vec<Region> = regions::extract(gray, area, limits)
        .into_iter()
        .filter(|r| may_be_label(gray, board, keypad, r, hk))
        .collect();
    let bank = super::templates::TemplateBank::default_bank();
    let is_number = |group: &Vec<&Region>| {
        group.iter().all(|r| {
            regions::glyph(gray, &[r])
                .and_then(|g| bank.classify(&g))
                .is_some_and(|m| m.score >= 0.8)
        })
    };
    labels(&marks)
        .into_iter()
        // Numbers (counts under the keys, badges) are not keys.
        .filter(|group| !is_number(group))
        .map(|group| {
            let key = classify(gray, &group, hk);
            tracing::debug!(
                tool = ?key.tool,
                center = ?key.center,
                confidence = key.confidence,
                evidence = %key.evidence,
                "tool label"
            );
            key
        })
        .collect()
}

/// Where tool labels may be: the keypad's rows (its columns, for a keypad beside the board)
/// and three key pitches around, inside `app_area` when it is known.
fn search_area(gray: &Gray, keypad: &Keypad, app_area: Option<[u32; 4]>) -> [u32; 4] {
    let reach = keypad.pitch.max(keypad.row_pitch) * 3.0;
    let [kx0, ky0, kx1, ky1] = keypad.area().map(|v| v as f32);
    let (w, h) = (gray.width as f32, gray.height as f32);
    let area = if keypad.transposed {
        [(kx0 - reach).max(0.0), 0.0, (kx1 + reach).min(w), h]
    } else {
        [0.0, (ky0 - reach).max(0.0), w, (ky1 + reach).min(h)]
    }
    .map(|v| v as u32);
    match app_area {
        Some(a) => [
            area[0].max(a[0]),
            area[1].max(a[1]),
            area[2].min(a[2]),
            area[3].min(a[3]),
        ],
        None => area,
    }
}

/// Whether mark `r` may belong to a tool label (`hk`: the keypad's glyph height): outside the
/// board and the keys, with contrast (little is texture), not a sliver at the screen's edge (a
/// frame), not a filled box bigger than a digit (a key or button).
fn may_be_label(gray: &Gray, board: &BoardGeometry, keypad: &Keypad, r: &Region, hk: f32) -> bool {
    let (x, y) = r.center();
    let [bx0, by0, bx1, by1] = board.rect();
    let in_board = x >= bx0 && x <= bx1 && y >= by0 && y <= by1;
    let in_key = keypad.keys.iter().any(|k| {
        let a = keypad.key_area(k);
        x >= a[0] && x < a[2] && y >= a[1] && y < a[3]
    });
    let inside = r.bbox[0] > 0
        && r.bbox[1] > 0
        && r.bbox[2] < gray.width as u32
        && r.bbox[3] < gray.height as u32;
    let filled_box = r.fill() > 0.9 && r.width().min(r.height()) as f32 > hk * 1.3;
    !in_board && !in_key && r.levels >= 3 && r.width() >= 3 && inside && !filled_box
}

/// Groups marks into labels: marks level with each other and close together.
fn labels(marks: &[Region]) -> Vec<Vec<&Region>> {
    let n = marks.len();
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(p: &mut [usize], mut i: usize) -> usize {
        while p[i] != i {
            p[i] = p[p[i]];
            i = p[i];
        }
        i
    }
    for i in 0..n {
        for j in i + 1..n {
            let (a, b) = (&marks[i].bbox, &marks[j].bbox);
            let (ha, hb) = (marks[i].height() as f32, marks[j].height() as f32);
            let overlap_v = a[3].min(b[3]) as f32 - a[1].max(b[1]) as f32;
            let gap_h = a[0].max(b[0]) as f32 - a[2].min(b[2]) as f32;
            let level = overlap_v >= ha.min(hb) * 0.5;
            // Parts of one icon (a lid over a can, a bulb over its base, the two halves of an
            // eraser): boxes within a quarter of the larger part's size of each other.
            let size = marks[i]
                .width()
                .max(marks[i].height())
                .max(marks[j].width().max(marks[j].height()));
            let near = gap_h <= size as f32 * 0.25 && -overlap_v <= size as f32 * 0.25;
            if (level && gap_h <= ha.max(hb) * 0.6) || near {
                let (ri, rj) = (find(&mut parent, i), find(&mut parent, j));
                parent[ri.max(rj)] = ri.min(rj);
            }
        }
    }
    let mut groups: Vec<Vec<&Region>> = Vec::new();
    let mut index = vec![usize::MAX; n];
    for (i, mark) in marks.iter().enumerate().take(n) {
        let r = find(&mut parent, i);
        if index[r] == usize::MAX {
            index[r] = groups.len();
            groups.push(Vec::new());
        }
        groups[index[r]].push(mark);
    }
    groups
}

/// Bounding box of regions.
fn union(rs: &[&Region]) -> [u32; 4] {
    rs.iter().fold([u32::MAX, u32::MAX, 0, 0], |a, r| {
        [
            a[0].min(r.bbox[0]),
            a[1].min(r.bbox[1]),
            a[2].max(r.bbox[2]),
            a[3].max(r.bbox[3]),
        ]
    })
}

/// The marks of the label's ink: of the polarity whose pixels differ most from the colour
/// around the label (the holes of an outline icon have the colour around it), without the
/// parts of other marks (the same shape seen broken at another level).
fn dominant<'a>(gray: &Gray, group: &[&'a Region]) -> Vec<&'a Region> {
    let b = union(group);
    let pad = ((b[3] - b[1]) / 8).max(2);
    let (x0, y0) = (b[0].saturating_sub(pad), b[1].saturating_sub(pad));
    let x1 = (b[2] + pad).min(gray.width as u32);
    let y1 = (b[3] + pad).min(gray.height as u32);
    let at = |x: u32, y: u32| gray.data[y as usize * gray.width + x as usize] as f32;
    let mut ring: Vec<f32> = Vec::new();
    for y in y0..y1 {
        for x in x0..x1 {
            if x < b[0] || x >= b[2] || y < b[1] || y >= b[3] {
                ring.push(at(x, y));
            }
        }
    }
    ring.sort_by(f32::total_cmp);
    let around = ring.get(ring.len() / 2).copied().unwrap_or(128.0);
    let contrast = |dark: bool| -> f32 {
        let (mut sum, mut n) = (0.0, 0u32);
        for r in group.iter().filter(|r| r.dark == dark) {
            for &(y, a, e) in &r.runs {
                for x in a..e {
                    sum += at(x, y);
                    n += 1;
                }
            }
        }
        if n == 0 {
            return -1.0;
        }
        (sum / n as f32 - around).abs()
    };
    let dark = contrast(true) >= contrast(false);
    let same: Vec<&Region> = group.iter().copied().filter(|r| r.dark == dark).collect();
    same.iter()
        .copied()
        .filter(|a| !same.iter().any(|b| a.is_part_of(b)))
        .collect()
}

/// Whether marks have a trash can's outline: a lid (a bar as wide as the icon in its top
/// third, with a narrower handle or nothing just above it) over a body with straight sides.
fn trash_like(rs: &[&Region]) -> bool {
    let b = union(rs);
    let (w, h) = ((b[2] - b[0]) as usize, (b[3] - b[1]) as usize);
    if w < 4 || h < 6 {
        return false;
    }
    let mut lo = vec![usize::MAX; h];
    let mut hi = vec![0usize; h];
    for r in rs {
        for &(y, x0, x1) in &r.runs {
            let row = (y - b[1]) as usize;
            lo[row] = lo[row].min((x0 - b[0]) as usize);
            hi[row] = hi[row].max((x1 - b[0]) as usize);
        }
    }
    let extent: Vec<f32> = (0..h)
        .map(|y| {
            if lo[y] == usize::MAX {
                0.0
            } else {
                (hi[y] - lo[y]) as f32 / w as f32
            }
        })
        .collect();
    let Some(lid) = (0..(h * 35 / 100).max(1)).find(|&y| extent[y] >= 0.85) else {
        return false;
    };
    let above = lid.saturating_sub((h / 5).max(1))..lid;
    let handle_ok = above.clone().all(|y| extent[y] <= 0.7);
    let body = &extent[h / 2..(h * 9 / 10).max(h / 2 + 1)];
    let (bmin, bmax) = body
        .iter()
        .fold((f32::MAX, f32::MIN), |(a, b), &v| (a.min(v), b.max(v)));
    handle_ok && bmin >= 0.45 && bmax <= 0.97 && bmax - bmin <= 0.2
}

/// The share of the marks' joint box that their holes take ([`hole_share`]).
fn holes(marks: &[&Region]) -> f32 {
    let b = union(marks);
    let (w, h) = ((b[2] - b[0]) as usize, (b[3] - b[1]) as usize);
    let mut ink = vec![false; w * h];
    for r in marks {
        for &(y, x0, x1) in &r.runs {
            let row = (y - b[1]) as usize * w;
            ink[row + (x0 - b[0]) as usize..row + (x1 - b[0]) as usize].fill(true);
        }
    }
    hole_share(&ink, w, h)
}

/// Best icon per tool for a glyph: (tool, icon name, score), best first; for a `closed` label
/// (see [`RING_HOLE`]), only the icons that close a hole in.
fn icon_scores(g: &Glyph, closed: bool) -> Vec<(Tool, &'static str, f32)> {
    let mut best: Vec<(Tool, &'static str, f32)> = Vec::new();
    for icon in icons::icons().iter().filter(|i| !closed || i.hole > 0.0) {
        let s = g.ncc(&icon.glyph);
        match best.iter_mut().find(|b| b.0 == icon.tool) {
            Some(b) if b.2 >= s => {}
            Some(b) => *b = (icon.tool, icon.name.as_str(), s),
            None => best.push((icon.tool, icon.name.as_str(), s)),
        }
    }
    best.sort_by(|a, b| b.2.total_cmp(&a.2));
    best
}

/// The marks of the label's line of text, left to right, as letters: marks standing on a
/// common baseline, each with the small marks over it (the dot of an i, accents). Marks off
/// the line (an icon over the word) are left out.
fn letters_of<'a>(marks: &[&'a Region]) -> Vec<Vec<&'a Region>> {
    let median = |mut v: Vec<u32>| {
        v.sort_unstable();
        v.get(v.len() / 2).copied().unwrap_or(0) as f32
    };
    let h = median(marks.iter().map(|r| r.height()).collect()).max(1.0);
    let baseline = median(marks.iter().map(|r| r.bbox[3]).collect());
    let (line, rest): (Vec<&Region>, Vec<&Region>) = marks.iter().partition(|r| {
        (r.bbox[3] as f32 - baseline).abs() <= h * 0.5 && (r.height() as f32) <= h * 2.0
    });
    let mut letters: Vec<Vec<&Region>> = line.into_iter().map(|r| vec![r]).collect();
    letters.sort_by_key(|l| l[0].bbox[0]);
    for r in rest {
        if (r.height() as f32) > h * 0.6 {
            continue;
        }
        let cx = (r.bbox[0] + r.bbox[2]) / 2;
        if let Some(l) = letters.iter_mut().find(|l| {
            let b = l[0].bbox;
            cx >= b[0] && cx <= b[2] && r.bbox[3] <= b[1] + l[0].height() / 3
        }) {
            l.push(r);
        }
    }
    letters
}

/// How much a glyph looks like each letter: the best score over fonts, per letter.
fn letter_likeness(g: &Glyph) -> HashMap<char, f32> {
    let mut out = HashMap::new();
    for t in icons::letters() {
        let s = g.ncc(&t.glyph);
        let e = out.entry(t.ch).or_insert(f32::MIN);
        if s > *e {
            *e = s;
        }
    }
    out
}

/// Cost of a letter of the word that has no mark, or of a mark inside the word that is no letter.
const GAP: f32 = 0.9;
/// Cost of two letters of the word read as one wide mark (small or bold text runs together).
const PAIR: f32 = 0.7;

/// One letter-sized mark of a label: how much it looks like each letter, and whether it is
/// wide enough to be two letters run together.
struct Mark {
    likeness: HashMap<char, f32>,
    wide: bool,
}

/// How well `word` reads somewhere in the label's marks, 0..1: one minus the cost of the best
/// alignment (a letter costs one minus its likeness; a gap [`GAP`]; two letters in one wide
/// mark [`PAIR`]) per word letter.
fn spot(marks: &[Mark], word: &[char]) -> f32 {
    let (n, m) = (marks.len(), word.len());
    let like = |i: usize, j: usize| {
        marks[i]
            .likeness
            .get(&word[j])
            .copied()
            .unwrap_or(0.0)
            .clamp(0.0, 1.0)
    };
    // rows[j][i]: the cheapest alignment of word[..j] ending after mark i (any start).
    let mut rows: Vec<Vec<f32>> = vec![vec![0f32; n + 1]];
    for j in 1..=m {
        let mut cur = vec![j as f32 * GAP; n + 1];
        for i in 1..=n {
            let prev = &rows[j - 1];
            let mut c = (prev[i - 1] + 1.0 - like(i - 1, j - 1))
                .min(prev[i] + GAP)
                .min(cur[i - 1] + GAP);
            if j >= 2 && marks[i - 1].wide {
                c = c.min(rows[j - 2][i - 1] + PAIR);
            }
            cur[i] = c;
        }
        rows.push(cur);
    }
    let best = rows[m].iter().copied().fold(f32::MAX, f32::min);
    // Marks around the word (an icon beside it, more words) cost a little.
    1.0 - best / m as f32 - n.saturating_sub(m) as f32 * 0.02
}

/// The word of [`WORDS`] the label reads as best: (tool, word, score), and the best score of
/// a word of another tool.
fn read_label(gray: &Gray, marks: &[&Region]) -> Option<((Tool, &'static str, f32), f32)> {
    let letters = letters_of(marks);
    let mut widths: Vec<u32> = letters.iter().map(|l| union(l)[2] - union(l)[0]).collect();
    widths.sort_unstable();
    let typical = widths.get(widths.len() / 2).copied().unwrap_or(1) as f32;
    let likeness: Vec<Mark> = letters
        .iter()
        .filter_map(|l| {
            let b = union(l);
            Some(Mark {
                likeness: letter_likeness(&regions::glyph(gray, l)?),
                wide: (b[2] - b[0]) as f32 >= typical * 1.3,
            })
        })
        .collect();
    if likeness.len() < 2 {
        return None;
    }
    if tracing::enabled!(tracing::Level::TRACE) {
        let best: Vec<String> = likeness
            .iter()
            .filter_map(|l| {
                let b = l.likeness.iter().max_by(|a, b| a.1.total_cmp(b.1))?;
                Some(format!("{}{:.2}", b.0, b.1))
            })
            .collect();
        tracing::trace!(bbox = ?union(marks), letters = %best.join(" "), "label letters");
    }
    let mut scored: Vec<(Tool, &'static str, f32)> = Vec::new();
    for &(tool, words) in WORDS {
        for &w in words {
            let wc: Vec<char> = w.chars().map(icons::fold).collect();
            // Short words must be most of the label, not a piece of a longer text.
            if wc.len() < 4 && likeness.len() > wc.len() + 1 {
                continue;
            }
            scored.push((tool, w, spot(&likeness, &wc)));
        }
    }
    scored.sort_by(|a, b| b.2.total_cmp(&a.2));
    let best = *scored.first()?;
    let other = scored.iter().find(|s| s.0 != best.0).map_or(0.0, |s| s.2);
    Some((best, other))
}

/// Whether `marks` are text (`hk`: the keypad's glyph height): most of them letters side by
/// side on a line, three or more, none taller than a digit and a third.
fn is_word(marks: &[&Region], hk: f32) -> bool {
    let line = letters_of(marks);
    let on_line: usize = line.iter().map(|l| l.len()).sum();
    let side_by_side = line.windows(2).all(|w| {
        let (a, b) = (union(&w[0]), union(&w[1]));
        let overlap = a[2].min(b[2]) as i64 - a[0].max(b[0]) as i64;
        overlap * 5 <= (a[2] - a[0]).min(b[2] - b[0]) as i64
    });
    line.len() >= 3
        && side_by_side
        && on_line * 10 >= marks.len() * 7
        && marks.iter().all(|r| (r.height() as f32) < hk * 1.3)
}

/// Classifies one label.
fn classify(gray: &Gray, group: &[&Region], hk: f32) -> ToolKey {
    let marks = dominant(gray, group);
    let bbox = union(group);
    let center = ((bbox[0] + bbox[2]) / 2, (bbox[1] + bbox[3]) / 2);
    let key = |tool: Option<Tool>, confidence: f32, evidence: String| ToolKey {
        tool,
        center,
        bbox,
        confidence,
        evidence,
    };
    let unknown = |evidence: String| key(None, 0.0, evidence);
    if let Some(((tool, word, score), other)) = read_label(gray, &marks) {
        if score >= WORD_SCORE && score - other >= WORD_MARGIN {
            return key(Some(tool), score, format!("word \"{word}\" {score:.2}"));
        }
        if is_word(&marks, hk) {
            return unknown(format!("text, most like \"{word}\" {score:.2}"));
        }
    }
    let Some(g) = regions::glyph(gray, &marks) else {
        return unknown("no shape".into());
    };
    let hole = holes(&marks);
    let scores = icon_scores(&g, hole >= RING_HOLE);
    tracing::trace!(
        ?bbox,
        marks = marks.len(),
        hole,
        levels = ?marks.iter().map(|r| r.levels).collect::<Vec<u32>>(),
        scores = ?&scores[..scores.len().min(4)],
        "label shape"
    );
    let Some(&(tool, name, score)) = scores.first() else {
        return unknown("no icons".into());
    };
    // A shape of no key the player taps (a check mark, an app bar's back arrow) is a rival only
    // where it fits best: then the key is no tool; where it comes second, it leaves the tools'
    // margin as it was (a backspace key looks like a back arrow too).
    let runner = scores[1..]
        .iter()
        .find(|s| tool == Tool::Other || s.0 != Tool::Other)
        .map_or(-1.0, |s| s.2);
    if name.starts_with("trash can") && !trash_like(&marks) {
        return unknown(format!(
            "unclear: shaped like {name} ({score:.2}) but no lid over a can"
        ));
    }
    if score >= ICON_SCORE && score - runner >= ICON_MARGIN {
        key(Some(tool), score, format!("icon {name} {score:.2}"))
    } else {
        unknown(format!(
            "unclear: most like {} ({name} {score:.2}, next {runner:.2})",
            tool.name()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A grey ring 24 px across with a 3 px stroke on white, open on the right (a C) or not.
    fn ring(open: bool) -> Gray {
        let (w, h) = (40usize, 40usize);
        let data = (0..w * h)
            .map(|i| {
                let (dx, dy) = ((i % w) as f32 - 20.0, (i / w) as f32 - 20.0);
                let d = dx.hypot(dy);
                let gap = open && dx > 0.0 && dy.abs() < 6.0;
                if (9.0..12.0).contains(&d) && !gap {
                    60
                } else {
                    250
                }
            })
            .collect();
        Gray {
            width: w,
            height: h,
            data,
        }
    }

    #[test]
    fn a_ring_is_compared_only_with_icons_that_close_a_hole_in() {
        let limits = Limits {
            min_h: 8,
            max_h: 40,
            max_w: 40,
            min_area: 6,
        };
        for open in [false, true] {
            let gray = ring(open);
            let marks = regions::extract(&gray, [0, 0, 40, 40], limits);
            let mark: Vec<&Region> = marks.iter().filter(|r| r.dark).take(1).collect();
            assert_eq!(mark.len(), 1, "open {open}: {marks:?}");
            let hole = holes(&mark);
            let glyph = regions::glyph(&gray, &mark).unwrap();
            let scores = icon_scores(&glyph, hole >= RING_HOLE);
            let c = scores.iter().find(|s| s.1 == "C");
            if open {
                // A C: no hole, compared with every icon, the letter C among them.
                assert_eq!(hole, 0.0);
                assert!(c.is_some_and(|c| c.2 > 0.5), "{scores:?}");
            } else {
                // Its inside is a third of its box and more: a ring, compared with the icons
                // that close a hole in (⌫, outlines), never with a C or an X.
                assert!(hole >= 0.3, "{hole}");
                assert!(c.is_none(), "{scores:?}");
                let closed = |name: &str| {
                    icons::icons()
                        .iter()
                        .any(|i| i.name == name && i.hole > 0.0)
                };
                assert!(scores.iter().all(|s| closed(s.1)), "{scores:?}");
                assert!(!closed("C") && !closed("X"));
            }
        }
    }

    #[test]
    fn word_lists_have_no_short_words() {
        for (_, words) in WORDS {
            assert!(words.iter().all(|w| w.chars().count() >= 4), "{words:?}");
        }
    }

    #[test]
    fn words_are_spotted_inside_longer_text_with_a_slip() {
        // The marks of a clean reading of `text`; `W` is a wide mark.
        let likeness = |text: &str| -> Vec<Mark> {
            text.chars()
                .map(|c| Mark {
                    likeness: [(c, 0.95)].into_iter().collect(),
                    wide: c == 'W',
                })
                .collect()
        };
        let word = |w: &str| w.chars().collect::<Vec<char>>();
        assert!(spot(&likeness("xclear"), &word("clear")) > 0.85);
        assert!(spot(&likeness("ciear"), &word("clear")) > 0.7);
        assert!(spot(&likeness("erase"), &word("clear")) < 0.5);
        let errors = likeness("errors");
        assert!(spot(&errors, &word("erase")) < spot(&errors, &word("errors")));
        // "ra" run together into one wide mark.
        assert!(spot(&likeness("eWse"), &word("erase")) > 0.7);
    }
}
