//! Column widths from what the columns hold, and text wrapped to them: the pure part of
//! the PDF table, measured in points at a 1 pt font (every width scales with the size).

/// What one column asks for.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
pub struct Need {
    /// Values print whole on one line (dates, times, numbers); text wraps.
    pub whole: bool,
    /// The widest value, unwrapped (each line of a value of several lines).
    pub widest: f32,
    /// The widest single word of the values and the header (headers wrap at words).
    pub word: f32,
    /// The header on one line.
    pub header: f32,
}

impl Need {
    /// Takes a value's widest line and widest word into account.
    pub fn saw(&mut self, line: f32, word: f32) {
        self.widest = self.widest.max(line);
        self.word = self.word.max(word);
    }

    /// What the column takes when the page has room: values and header on one line.
    fn natural(&self) -> f32 {
        self.widest.max(self.header).max(self.word)
    }

    /// The least the column takes: whole values and their header's longest word; text
    /// its longest word within bounds (longer words break), or less when it is all short.
    fn least(&self) -> f32 {
        if self.whole {
            self.widest.max(self.word)
        } else {
            self.natural().min(self.word.clamp(TEXT_LEAST_EM.0, TEXT_LEAST_EM.1))
        }
    }
}

/// A text column keeps at least its longest word, within these (em).
const TEXT_LEAST_EM: (f32, f32) = (4.0, 14.0);

/// The body size and column widths for `needs` across `usable` points, each column with
/// `pad` points either side: the largest size from `sizes.0` down to `sizes.1` (in half
/// points) at which every column gets at least its least; the room left goes to the text
/// columns (toward their natural width, then beyond) so the table fills the page. Past the
/// smallest size, every column shrinks in proportion (whole values then print smaller).
pub fn widths(needs: &[Need], usable: f32, pad: f32, sizes: (f32, f32)) -> (f32, Vec<f32>) {
    let (mut size, smallest) = sizes;
    loop {
        let at = |w: f32| w * size + 2.0 * pad;
        let least: Vec<f32> = needs.iter().map(|n| at(n.least())).collect();
        let natural: Vec<f32> = needs.iter().map(|n| at(n.natural())).collect();
        let least_sum: f32 = least.iter().sum();
        if least_sum <= usable || size <= smallest {
            let natural_sum: f32 = natural.iter().sum();
            let mut widths = if natural_sum <= usable { natural.clone() } else { least.clone() };
            let room = usable - widths.iter().sum::<f32>();
            // Where the room goes: toward natural widths first, else over text, else all.
            let wants: Vec<f32> = if natural_sum > usable {
                natural.iter().zip(&least).map(|(n, l)| n - l).collect()
            } else if needs.iter().any(|n| !n.whole) {
                needs.iter().zip(&widths).map(|(n, w)| if n.whole { 0.0 } else { *w }).collect()
            } else {
                widths.clone()
            };
            let total: f32 = wants.iter().sum();
            if room >= 0.0 && total > 0.0 {
                for (w, want) in widths.iter_mut().zip(&wants) {
                    *w += room * want / total;
                }
            } else {
                let scale = usable / widths.iter().sum::<f32>().max(1.0);
                widths.iter_mut().for_each(|w| *w *= scale);
            }
            return (size, widths);
        }
        size = (size - 0.5).max(smallest);
    }
}

/// `text` in lines no wider than `width`: its own lines kept, words wrapped, a word wider
/// than the column broken between characters. `measure` gives a piece's width.
pub fn wrap(text: &str, width: f32, measure: impl Fn(&str) -> f32) -> Vec<String> {
    let space = measure(" ");
    let mut lines = Vec::new();
    for paragraph in text.trim().lines() {
        let mut line = String::new();
        let mut line_w = 0.0;
        for word in paragraph.split_whitespace() {
            let w = measure(word);
            if !line.is_empty() && line_w + space + w <= width {
                line.push(' ');
                line.push_str(word);
                line_w += space + w;
                continue;
            }
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            if w <= width {
                line.push_str(word);
                line_w = w;
                continue;
            }
            // Broken between characters; the last piece starts the next line.
            line_w = 0.0;
            for c in word.chars() {
                let cw = measure(c.encode_utf8(&mut [0; 4]));
                if !line.is_empty() && line_w + cw > width {
                    lines.push(std::mem::take(&mut line));
                    line_w = 0.0;
                }
                line.push(c);
                line_w += cw;
            }
        }
        if !line.is_empty() {
            lines.push(line);
        }
    }
    lines
}

/// The widest line and the widest word of `text`, by `measure`.
pub fn extent(text: &str, measure: impl Fn(&str) -> f32) -> (f32, f32) {
    let mut widest = 0.0f32;
    let mut word = 0.0f32;
    for line in text.lines() {
        widest = widest.max(measure(line.trim()));
        for w in line.split_whitespace() {
            word = word.max(measure(w));
        }
    }
    (widest, word)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every character one point wide at 1 pt.
    fn mono(s: &str) -> f32 {
        s.chars().count() as f32
    }

    #[test]
    fn words_wrap_and_long_words_break() {
        assert_eq!(
            wrap("4221 Main St, Sacramento CA", 12.0, mono),
            ["4221 Main", "St,", "Sacramento", "CA"]
        );
        assert_eq!(wrap("abcdefghij", 4.0, mono), ["abcd", "efgh", "ij"]);
        assert_eq!(wrap("one\ntwo three", 20.0, mono), ["one", "two three"]);
        assert!(wrap("  ", 5.0, mono).is_empty());
        for line in wrap("the quick brown fox jumps over the lazy dog", 9.0, mono) {
            assert!(mono(&line) <= 9.0, "{line}");
        }
    }

    fn text(widest: f32, word: f32, header: f32) -> Need {
        Need { whole: false, widest, word, header }
    }

    fn whole(widest: f32, header: f32) -> Need {
        Need { whole: true, widest, word: header, header }
    }

    #[test]
    fn roomy_tables_give_the_room_to_text() {
        let needs = [whole(5.0, 7.0), text(30.0, 8.0, 5.0), whole(9.0, 8.0)];
        let (size, w) = widths(&needs, 700.0, 2.0, (7.5, 4.0));
        assert_eq!(size, 7.5);
        assert!((w.iter().sum::<f32>() - 700.0).abs() < 0.01);
        assert!((w[0] - (7.0 * 7.5 + 4.0)).abs() < 0.01, "whole columns keep their need: {w:?}");
        assert!(w[1] > 30.0 * 7.5, "{w:?}");
    }

    #[test]
    fn crowded_tables_wrap_text_then_shrink() {
        // Natural widths do not fit at 7.5 pt: text goes toward its least, whole stays.
        let needs = [whole(10.0, 6.0), text(200.0, 6.0, 5.0), text(60.0, 12.0, 5.0)];
        let (size, w) = widths(&needs, 700.0, 2.0, (7.5, 4.0));
        assert_eq!(size, 7.5);
        assert!((w[0] - (10.0 * 7.5 + 4.0)).abs() < 0.01);
        assert!(w[1] >= 6.0 * 7.5 && w[2] >= 10.0 * 7.5, "{w:?}");
        assert!((w.iter().sum::<f32>() - 700.0).abs() < 0.01);
        // Whole columns that need more than the page at 7.5 pt: the size goes down.
        let many: Vec<Need> = (0..14).map(|_| whole(10.0, 4.0)).collect();
        let (size, w) = widths(&many, 700.0, 2.0, (7.5, 4.0));
        assert!((4.0..7.5).contains(&size));
        assert!(w.iter().all(|w| *w >= 10.0 * size + 4.0 - 0.01), "{size} {w:?}");
        // More than fits at the smallest size: everything in proportion, the page still holds.
        let too_many: Vec<Need> = (0..60).map(|_| whole(10.0, 4.0)).collect();
        let (size, w) = widths(&too_many, 700.0, 2.0, (7.5, 4.0));
        assert_eq!(size, 4.0);
        assert!((w.iter().sum::<f32>() - 700.0).abs() < 0.01);
    }
}
