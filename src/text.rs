//! Characters a name, an e-mail address or a code must not hold: ones that are invisible or
//! change the direction the text around them is shown in. `Ann\u{202E}gpj.exe` shows as
//! "Annexe.jpg"; a zero-width space makes two names that look the same differ. Free text
//! (descriptions, reasons) keeps them, as some scripts need them, and exports drop them.

use std::borrow::Cow;

/// Is `c` invisible or a direction control?
pub fn is_hidden(c: char) -> bool {
    matches!(
        c,
        // Arabic letter mark; left-to-right and right-to-left marks.
        '\u{061C}' | '\u{200E}' | '\u{200F}'
        // Embeddings, overrides and their end; isolates and their end.
        | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
        // Zero-width space, non-joiner, joiner; word joiner and invisible operators.
        | '\u{200B}'..='\u{200D}' | '\u{2060}'..='\u{2064}'
        // Byte-order mark (zero-width no-break space), Mongolian vowel separator, soft hyphen.
        | '\u{FEFF}' | '\u{180E}' | '\u{00AD}'
        // Hangul fillers: blank letters that make a name look empty.
        | '\u{115F}' | '\u{1160}' | '\u{3164}' | '\u{FFA0}'
    )
}

/// The first hidden character of `text`, named for the caller (`U+202E`).
pub fn first_hidden(text: &str) -> Option<String> {
    text.chars().find(|c| is_hidden(*c)).map(|c| format!("U+{:04X}", c as u32))
}

/// `text` without its hidden characters, as exports show free text.
pub fn without_hidden(text: &str) -> Cow<'_, str> {
    if text.chars().any(is_hidden) {
        Cow::Owned(text.chars().filter(|c| !is_hidden(*c)).collect())
    } else {
        Cow::Borrowed(text)
    }
}

// How people read a day, a moment, a request and a coded item: one function each, here and in
// frontend/src/components/dates.ts and frontend/src/lib/labels.ts, so every screen, file,
// packet and message says them alike.

/// A calendar day as every screen and file shows it ("Nov 3, 2025"), never mistaken between
/// month-first and day-first.
pub fn day(d: chrono::NaiveDate) -> String {
    d.format("%b %-d, %Y").to_string()
}

/// A moment in the reader's wall time, as every screen and file shows it ("Nov 3, 2025, 2:05 PM").
pub fn moment(t: chrono::NaiveDateTime) -> String {
    t.format("%b %-d, %Y, %-I:%M %p").to_string()
}

/// A whole number as people read it, in groups of three ("249,933").
pub fn count(n: impl Into<u64>) -> String {
    let whole = n.into().to_string();
    let mut grouped = String::with_capacity(whole.len() + whole.len() / 3);
    for (i, digit) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    grouped
}

/// A payment request as people name it: its form and number ("F2 #601").
pub fn request_ref(form: &str, id: i64) -> String {
    format!("{form} #{id}")
}

/// A reference item with its code first ("5310 Travel and mileage"); the name alone when it has
/// no code.
pub fn coded(code: Option<&str>, name: &str) -> String {
    match code.map(str::trim).filter(|c| !c.is_empty()) {
        Some(code) => format!("{code} {name}"),
        None => name.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn direction_controls_and_invisible_characters_are_found() {
        assert_eq!(first_hidden("Ann\u{202E}gpj.exe").as_deref(), Some("U+202E"));
        assert_eq!(first_hidden("Ana\u{200B}").as_deref(), Some("U+200B"));
        assert_eq!(first_hidden("\u{2067}Bob\u{2069}").as_deref(), Some("U+2067"));
        assert_eq!(first_hidden("\u{FEFF}x").as_deref(), Some("U+FEFF"));
        for plain in ["José Núñez", "O'Brien-Smith", "李小龍", "محمد", "a@b.org"] {
            assert_eq!(first_hidden(plain), None, "{plain}");
        }
    }

    #[test]
    fn people_read_days_moments_requests_and_codes_one_way() {
        let d = chrono::NaiveDate::from_ymd_opt(2025, 11, 3).unwrap();
        assert_eq!(day(d), "Nov 3, 2025");
        assert_eq!(moment(d.and_hms_opt(14, 5, 0).unwrap()), "Nov 3, 2025, 2:05 PM");
        assert_eq!(moment(d.and_hms_opt(0, 0, 0).unwrap()), "Nov 3, 2025, 12:00 AM");
        assert_eq!(request_ref("F2", 601), "F2 #601");
        assert_eq!(coded(Some("5310"), "Travel and mileage"), "5310 Travel and mileage");
        assert_eq!(coded(None, "Travel"), "Travel");
        assert_eq!(coded(Some(" "), "Travel"), "Travel");
    }

    #[test]
    fn exports_drop_them() {
        assert_eq!(without_hidden("Ann\u{202E}gpj.exe"), "Anngpj.exe");
        assert!(matches!(without_hidden("plain"), Cow::Borrowed("plain")));
    }
}
