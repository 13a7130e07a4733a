//! What the words on a screen that is not the board say about the game: the app's completion,
//! its game over or an alert that refused a digit ([`classify`], in the languages real apps use
//! most), and a mistake counter ([`mistake_counter`]). The phone reads the words
//! (`uiautomator dump`); what they mean for a run is decided here.

/// A mistake counter among a screen's words: `Mistakes: 1/3` (any language: a count over a
/// small limit, preferring a text that also says "mistake" or "error" in a language we know).
/// Returns (mistakes so far, limit, the text).
pub(crate) fn mistake_counter(texts: &[String]) -> Option<(u32, u32, String)> {
    const WORDS: [&str; 12] = [
        "mistake", "error", "hata", "ошиб", "fehler", "erreur", "errore", "erro", "fout", "błęd",
        "错", "ミス",
    ];
    let counters: Vec<(u32, u32, &String)> = texts
        .iter()
        .filter_map(|t| {
            let (a, b) = t.split_once('/')?;
            let m: String = a
                .trim_end()
                .chars()
                .rev()
                .take_while(char::is_ascii_digit)
                .collect();
            let n: String = b
                .trim_start()
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            let m: u32 = m.chars().rev().collect::<String>().parse().ok()?;
            let n: u32 = n.parse().ok()?;
            (n > 0 && n <= 20 && m <= n).then_some((m, n, t))
        })
        .collect();
    let named = counters.iter().find(|(_, _, t)| {
        let t = t.to_lowercase();
        WORDS.iter().any(|w| t.contains(w))
    });
    named
        .or(counters.first())
        .map(|&(m, n, t)| (m, n, t.clone()))
}

/// What the words on a screen say about the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Completed,
    GameOver,
    /// The app refused a digit (an alert that only its button closes).
    Refused,
    Neither,
}

/// Words of apps' game-over screens, in the languages real apps use most (lower case; a
/// screen in another language is told by what changed on it, see `perform`).
const GAME_OVER: &[&str] = &[
    "game over",
    "gameover",
    "you lost",
    "game lost",
    "failed",
    "out of lives",
    "no lives left",
    "no more lives",
    "too many mistakes",
    "mistakes limit",
    // Turkish, Russian, German, Spanish, French, Portuguese, Italian, Polish.
    "başarisiz",
    "oyun bitti",
    "kaybettiniz",
    "игра окончена",
    "вы проиграли",
    "поражение",
    "spiel vorbei",
    "verloren",
    "fin del juego",
    "juego terminado",
    "has perdido",
    "partie terminée",
    "vous avez perdu",
    "fim de jogo",
    "você perdeu",
    "hai perso",
    "koniec gry",
    "ゲームオーバー",
    "游戏结束",
];
/// Words of apps' completion screens.
const COMPLETED: &[&str] = &[
    "complete",
    "completed",
    "congratulations",
    "congrats",
    "well done",
    "solved",
    "you win",
    "you won",
    "victory",
    "excellent",
    "great job",
    "level cleared",
    "puzzle cleared",
    "bravo",
    "başarili",
    "tebrikler",
    "победа",
    "поздравляем",
    "пройден",
    "gelöst",
    "glückwunsch",
    "gewonnen",
    "felicidades",
    "resuelto",
    "félicitations",
    "parabéns",
    "complimenti",
    "gratulacje",
    "おめでとう",
    "恭喜",
];

/// Words of apps' alerts that refuse a digit (one that breaks a rule).
const REFUSED: &[&str] = &[
    "invalid move",
    "not allowed",
    "geçersiz hamle",
    "неверный ход",
    "ungültiger zug",
    "movimiento inválido",
    "coup invalide",
    "jogada inválida",
    "mossa non valida",
];

/// Classifies a screen by its words (whole words, any case; `ı` read as `i`, so Turkish
/// capitals match); game over wins, since a game-over screen may also say how much of the
/// puzzle was "completed".
pub(crate) fn classify(texts: &[String]) -> Verdict {
    let all: String = texts
        .iter()
        .map(|t| {
            t.to_lowercase()
                .chars()
                .map(|c| match c {
                    'ı' => 'i',
                    c if c.is_alphanumeric() => c,
                    _ => ' ',
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join(" | ");
    let words = format!(" {} ", all.split_whitespace().collect::<Vec<_>>().join(" "));
    // Scripts without spaces between words match anywhere.
    let has = |phrase: &&str| {
        if phrase.chars().any(|c| c as u32 >= 0x3000) {
            words.contains(*phrase)
        } else {
            words.contains(&format!(" {phrase} "))
        }
    };
    if GAME_OVER.iter().any(has) {
        Verdict::GameOver
    } else if COMPLETED.iter().any(has) {
        Verdict::Completed
    } else if REFUSED.iter().any(has) {
        Verdict::Refused
    } else {
        Verdict::Neither
    }
}

/// `"Rate this app", "Enjoying Sudoku? Tell us!"` (at most `n` texts), or `no text` when none.
pub fn quote(texts: &[String], n: usize) -> String {
    if texts.is_empty() {
        return "no text".into();
    }
    let mut s: Vec<String> = texts.iter().take(n).map(|t| format!("{t:?}")).collect();
    if texts.len() > n {
        s.push("...".into());
    }
    s.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mistake_counters_among_a_screens_words() {
        let t = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            mistake_counter(&t(&["Level 5", "Hata: 1/3"])),
            Some((1, 3, "Hata: 1/3".into()))
        );
        assert_eq!(
            mistake_counter(&t(&["Hints 2/3", "Ошибки: 0 / 3"])),
            Some((0, 3, "Ошибки: 0 / 3".into())),
            "a counter that says mistakes wins"
        );
        assert_eq!(mistake_counter(&t(&["0/3"])).map(|c| c.1), Some(3));
        assert_eq!(mistake_counter(&t(&["Level 5/70", "12:30", "4/3"])), None);
    }

    #[test]
    fn words_tell_completion_from_game_over() {
        let t = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            classify(&t(&["Level 5 complete", "Well done!"])),
            Verdict::Completed
        );
        assert_eq!(
            classify(&t(&["Excellent!", "Mistakes 0/3"])),
            Verdict::Completed
        );
        assert_eq!(
            classify(&t(&["Game over", "You made 3 mistakes"])),
            Verdict::GameOver
        );
        assert_eq!(
            classify(&t(&["GAME OVER", "50% completed"])),
            Verdict::GameOver
        );
        assert_eq!(
            classify(&t(&["Rate this app", "Enjoying Sudoku? Tell us!"])),
            Verdict::Neither
        );
        assert_eq!(classify(&t(&["Incomplete", "Unsolved"])), Verdict::Neither);
        assert_eq!(
            classify(&t(&["BAŞARILI", "Bölüm 5 tamamlandı"])),
            Verdict::Completed
        );
        assert_eq!(classify(&t(&["BAŞARISIZ"])), Verdict::GameOver);
        assert_eq!(
            classify(&t(&["Игра окончена", "Ошибок: 3"])),
            Verdict::GameOver
        );
        assert_eq!(classify(&t(&["ПОБЕДА!"])), Verdict::Completed);
        assert_eq!(classify(&t(&["ゲームオーバー！"])), Verdict::GameOver);
        assert_eq!(classify(&t(&["Geçersiz hamle", "TAMAM"])), Verdict::Refused);
        assert_eq!(classify(&[]), Verdict::Neither);
        assert_eq!(quote(&t(&["a", "b", "c"]), 2), "\"a\", \"b\", ...");
    }
}
