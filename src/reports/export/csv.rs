//! CSV: UTF-8 with a BOM (so Excel reads it as UTF-8), RFC 4180 through the `csv` crate,
//! human headers, no totals line (the file is for importing), and text cells that a
//! spreadsheet would run as a formula made inert with a leading `'`.

use std::{borrow::Cow, io::Write};

use super::{Cell, Column, Rows};

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// `'` before a text that starts like a formula (`=`, `+`, `-`, `@`, tab, CR).
pub fn inert(text: &str) -> Cow<'_, str> {
    match text.as_bytes().first() {
        Some(b'=' | b'+' | b'-' | b'@' | b'\t' | b'\r') => format!("'{text}").into(),
        _ => text.into(),
    }
}

/// A cell as CSV text, any other than text formatted into `buf` (one buffer for the whole
/// file, not a string per cell); only free text can smuggle a formula (numbers are ours).
pub fn field<'a>(cell: &'a Cell, minutes_offset: i32, buf: &'a mut String) -> Cow<'a, str> {
    match cell {
        Cell::Text(t) => inert(t),
        other => {
            buf.clear();
            other.write_display(buf, minutes_offset);
            Cow::Borrowed(buf)
        }
    }
}

fn writer<W: Write>(out: W) -> csv::Writer<W> {
    csv::WriterBuilder::new().terminator(csv::Terminator::CRLF).from_writer(out)
}

/// The header line with the BOM: what the client gets at once, before any row is read.
pub fn head(columns: &[Column]) -> Vec<u8> {
    let mut w = writer(Vec::new());
    let _ = w.write_record(columns.iter().map(|c| inert(&c.header).into_owned()));
    let mut out = BOM.to_vec();
    out.extend(w.into_inner().unwrap_or_default());
    out
}

/// The whole file into `out` on a blocking thread: the header goes out at once, before
/// any row is read, then the rows in chunks.
pub fn write(
    columns: &[Column],
    rows: Rows,
    minutes_offset: i32,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    out.write_all(&head(columns))?;
    out.flush()?;
    let mut w = writer(out);
    let mut buf = String::new();
    rows.for_each(|row| {
        for cell in row.iter() {
            w.write_field(field(cell, minutes_offset, &mut buf).as_bytes())?;
        }
        Ok(w.write_record(None::<&[u8]>)?)
    })?;
    w.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reports::export::Kind;

    #[test]
    fn formulas_are_made_inert() {
        for bad in ["=1+1", "+1", "-2", "@SUM(A1)", "\tx", "\rx"] {
            assert!(inert(bad).starts_with('\''), "{bad:?}");
        }
        assert_eq!(inert("Ana"), "Ana");
        assert_eq!(inert(""), "");
        // Numbers are written by us, a negative amount stays a number.
        assert_eq!(field(&Cell::Money(-150), 0, &mut String::new()), "-1.50");
        assert_eq!(field(&Cell::Text("-1.50".into()), 0, &mut String::new()), "'-1.50");
    }

    #[test]
    fn head_has_bom_and_quoted_headers() {
        let cols =
            [Column::new("a", "Payee, name", Kind::Text), Column::new("b", "Amount", Kind::Money)];
        assert_eq!(head(&cols), b"\xEF\xBB\xBF\"Payee, name\",Amount\r\n");
    }
}
