//! CSV: UTF-8 with a BOM (so Excel reads it as UTF-8), RFC 4180 through the `csv` crate,
//! human headers, no totals line (the file is for importing), and text cells that a
//! spreadsheet would run as a formula made inert with a leading `'`.

use actix_web::web::Bytes;
use futures_util::Stream;

use super::{Cell, Column, Rows};

const BOM: &[u8] = b"\xEF\xBB\xBF";
/// Bytes gathered before a chunk goes out.
const CHUNK: usize = 64 * 1024;

/// `'` before a text that starts like a formula (`=`, `+`, `-`, `@`, tab, CR).
pub fn inert(text: &str) -> std::borrow::Cow<'_, str> {
    match text.as_bytes().first() {
        Some(b'=' | b'+' | b'-' | b'@' | b'\t' | b'\r') => format!("'{text}").into(),
        _ => text.into(),
    }
}

/// A cell as CSV text; only free text can smuggle a formula (numbers are ours).
pub fn field(cell: &Cell, minutes_offset: i32) -> String {
    match cell {
        Cell::Text(t) => inert(t).into_owned(),
        other => other.display(minutes_offset),
    }
}

fn writer() -> csv::Writer<Vec<u8>> {
    csv::WriterBuilder::new().terminator(csv::Terminator::CRLF).from_writer(Vec::with_capacity(CHUNK + 4096))
}

/// The header line with the BOM: what the client gets at once, before any row is read.
pub fn head(columns: &[Column]) -> Vec<u8> {
    let mut w = writer();
    let _ = w.write_record(columns.iter().map(|c| inert(&c.header).into_owned()));
    let mut out = BOM.to_vec();
    out.extend(w.into_inner().unwrap_or_default());
    out
}

struct State {
    rows: Rows,
    columns: usize,
    minutes_offset: i32,
    head: Option<Vec<u8>>,
    done: bool,
}

/// The response body: the header at once, then rows in chunks as they arrive.
pub fn stream(columns: Vec<Column>, rows: Rows, minutes_offset: i32) -> impl Stream<Item = Result<Bytes, actix_web::Error>> + 'static {
    let state = State { head: Some(head(&columns)), columns: columns.len(), rows, minutes_offset, done: false };
    futures_util::stream::unfold(state, |mut st| async move {
        if let Some(head) = st.head.take() {
            return Some((Ok(Bytes::from(head)), st));
        }
        if st.done {
            return None;
        }
        let mut w = writer();
        let mut record = Vec::with_capacity(st.columns);
        while w.get_ref().len() < CHUNK {
            match st.rows.next().await {
                None => {
                    st.done = true;
                    break;
                }
                Some(Err(e)) => {
                    tracing::error!(error = %e, "CSV export failed");
                    st.done = true;
                    return Some((Err(actix_web::error::ErrorInternalServerError("export failed")), st));
                }
                Some(Ok(row)) => {
                    record.clear();
                    record.extend(row.iter().map(|c| field(c, st.minutes_offset)));
                    if let Err(e) = w.write_record(&record) {
                        st.done = true;
                        return Some((Err(actix_web::error::ErrorInternalServerError(e)), st));
                    }
                }
            }
        }
        let bytes = w.into_inner().unwrap_or_default();
        if bytes.is_empty() {
            return None;
        }
        Some((Ok(Bytes::from(bytes)), st))
    })
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
        assert_eq!(field(&Cell::Money(-150), 0), "-1.50");
        assert_eq!(field(&Cell::Text("-1.50".into()), 0), "'-1.50");
    }

    #[test]
    fn head_has_bom_and_quoted_headers() {
        let cols = [Column::new("a", "Payee, name", Kind::Text), Column::new("b", "Amount", Kind::Money)];
        assert_eq!(head(&cols), b"\xEF\xBB\xBF\"Payee, name\",Amount\r\n");
    }
}
