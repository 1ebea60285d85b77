//! An uploaded spreadsheet read into text cells: CSV (UTF-8, with or without the byte-order
//! mark Excel writes) through the `csv` crate, XLSX through `calamine`. A formula is kept as
//! its text (`=1+2`), never evaluated. Limits are checked while reading, so a huge file is
//! refused before it is held in full.

use std::io::Cursor;

use calamine::{Data, DataType, Reader, Xlsx};

use crate::error::ApiError;

/// The largest file accepted.
pub const MAX_BYTES: usize = 10 * 1024 * 1024;
/// Data rows (the header not counted).
pub const MAX_ROWS: usize = 10_000;
/// Cells in the header or in any row: far above the known columns, far below a hostile row.
pub const MAX_COLUMNS: usize = 50;

/// The sheet: the header's cells, and each data row with its number as a spreadsheet shows
/// it (the header is row 1). Rows with every cell blank are left out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sheet {
    pub header: Vec<String>,
    pub rows: Vec<(usize, Vec<String>)>,
}

/// The upload had the documented shape; what it holds breaks the import's rules: 422.
fn bad(message: impl Into<String>) -> ApiError {
    ApiError::rule("file", message)
}

/// Which reader a file needs, from its first bytes (the name and the declared type are
/// the sender's guess).
fn is_xlsx(bytes: &[u8]) -> bool {
    bytes.starts_with(b"PK\x03\x04")
}

pub fn read(bytes: &[u8]) -> Result<Sheet, ApiError> {
    if bytes.len() > MAX_BYTES {
        return Err(ApiError::PayloadTooLarge(format!(
            "file: must be at most {} MB.",
            MAX_BYTES / (1024 * 1024)
        )));
    }
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(bad("is empty"));
    }
    let mut sheet = Builder::default();
    if is_xlsx(bytes) {
        read_xlsx(bytes, &mut sheet)?;
    } else {
        read_csv(bytes, &mut sheet)?;
    }
    sheet.finish()
}

#[derive(Default)]
struct Builder {
    header: Option<Vec<String>>,
    rows: Vec<(usize, Vec<String>)>,
}

impl Builder {
    /// One row as read: an error once the row limit is passed, so reading stops there.
    fn push(&mut self, number: usize, cells: Vec<String>) -> Result<(), ApiError> {
        if cells.len() > MAX_COLUMNS && cells[MAX_COLUMNS..].iter().any(|c| !c.trim().is_empty()) {
            return Err(bad(format!(
                "row {number} has {} cells; a row may have at most {MAX_COLUMNS}",
                cells.len()
            )));
        }
        if cells.iter().all(|c| c.trim().is_empty()) {
            return Ok(());
        }
        let mut cells = cells;
        cells.truncate(MAX_COLUMNS);
        match &self.header {
            None => self.header = Some(cells.into_iter().map(|c| c.trim().to_owned()).collect()),
            Some(_) => {
                if self.rows.len() == MAX_ROWS {
                    return Err(bad(format!("has more than {MAX_ROWS} rows")));
                }
                self.rows.push((number, cells));
            }
        }
        Ok(())
    }

    fn finish(self) -> Result<Sheet, ApiError> {
        let header = self.header.ok_or_else(|| bad("is empty"))?;
        if self.rows.is_empty() {
            return Err(bad("has a header but no rows"));
        }
        let width = header.len();
        for (number, cells) in &self.rows {
            let extra = cells.iter().skip(width).any(|c| !c.trim().is_empty());
            if extra {
                return Err(bad(format!(
                    "row {number} has {} cells; the header has {width}",
                    cells.len()
                )));
            }
        }
        let rows = self
            .rows
            .into_iter()
            .map(|(n, mut cells)| {
                cells.resize(width, String::new());
                (n, cells)
            })
            .collect();
        Ok(Sheet { header, rows })
    }
}

fn read_csv(bytes: &[u8], sheet: &mut Builder) -> Result<(), ApiError> {
    let text = std::str::from_utf8(bytes)
        .map_err(|_| bad("must be a CSV file in UTF-8 or an XLSX workbook"))?;
    if text.contains('\0') {
        return Err(bad("must be a CSV file in UTF-8 or an XLSX workbook"));
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut reader =
        csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(text.as_bytes());
    let mut record = csv::StringRecord::new();
    // Rows are numbered as a spreadsheet shows them: one per record, even when a quoted
    // cell spans lines.
    for number in 1.. {
        match reader.read_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {
                sheet.push(number, record.iter().map(str::to_owned).collect())?;
            }
            Err(e) => return Err(bad(format!("is not a readable CSV file ({e})"))),
        }
    }
    Ok(())
}

fn read_xlsx(bytes: &[u8], sheet: &mut Builder) -> Result<(), ApiError> {
    let unreadable = |e: calamine::XlsxError| bad(format!("is not a readable XLSX workbook ({e})"));
    let mut book = Xlsx::new(Cursor::new(bytes)).map_err(unreadable)?;
    let name = book.sheet_names().first().cloned().ok_or_else(|| bad("has no sheet"))?;
    let values = book.worksheet_range(&name).map_err(unreadable)?;
    let formulas = book.worksheet_formula(&name).map_err(unreadable)?;
    let Some((top, left)) = values.start() else {
        return Err(bad("is empty"));
    };
    let (height, width) = values.get_size();
    if left as usize + width > MAX_COLUMNS + 1 && height > 0 {
        // A sheet this wide holds a row far past the known columns; named by its first row.
        let first_wide = (0..height)
            .find(|r| {
                (MAX_COLUMNS.saturating_sub(left as usize)..width)
                    .any(|c| values.get((*r, c)).is_some_and(|d| !d.is_empty()))
            })
            .unwrap_or(0);
        return Err(bad(format!(
            "row {} has {} cells; a row may have at most {MAX_COLUMNS}",
            top as usize + first_wide + 1,
            left as usize + width
        )));
    }
    for r in 0..height {
        let row = top + r as u32;
        // Cells are placed by their column: a sheet starting at C1 keeps A and B empty.
        let mut cells = vec![String::new(); left as usize];
        for c in 0..width {
            let col = left + c as u32;
            let formula = formulas.get_value((row, col)).filter(|f| !f.is_empty());
            cells.push(match formula {
                Some(f) => format!("={f}"),
                None => values.get((r, c)).map(cell_text).unwrap_or_default(),
            });
        }
        sheet.push(row as usize + 1, cells)?;
    }
    Ok(())
}

/// A cell as the text a person typed: whole numbers without ".0", dates as `YYYY-MM-DD`.
fn cell_text(d: &Data) -> String {
    match d {
        Data::Empty => String::new(),
        Data::String(s) => s.clone(),
        Data::Int(i) => i.to_string(),
        Data::Float(f) if f.fract() == 0.0 && f.abs() < 1e15 => format!("{}", *f as i64),
        Data::Float(f) => f.to_string(),
        Data::Bool(b) => if *b { "TRUE" } else { "FALSE" }.to_owned(),
        Data::DateTime(_) | Data::DateTimeIso(_) => d
            .as_date()
            .map(|day| day.format("%Y-%m-%d").to_string())
            .unwrap_or_else(|| d.to_string()),
        Data::DurationIso(s) => s.clone(),
        Data::Error(e) => format!("#{e:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn csv(text: &str) -> Result<Sheet, ApiError> {
        read(text.as_bytes())
    }

    fn message(e: ApiError) -> String {
        match e {
            ApiError::Unprocessable { errors, .. } => errors["file"][0].clone(),
            other => format!("{other:?}"),
        }
    }

    #[test]
    fn csv_with_or_without_the_byte_order_mark() {
        let plain = csv("firstName,email\nAna,ana@example.org\n").unwrap();
        let bom = csv("\u{feff}firstName,email\r\nAna,ana@example.org\r\n").unwrap();
        assert_eq!(plain, bom);
        assert_eq!(plain.header, ["firstName", "email"]);
        assert_eq!(plain.rows, [(2, vec!["Ana".to_owned(), "ana@example.org".to_owned()])]);
    }

    #[test]
    fn quoted_cells_short_rows_blank_rows_and_formulas_as_text() {
        let s = csv("a,b,c\n\"x, \"\"y\"\"\",=1+2\n,,\n\"two\nlines\",b,c\n").unwrap();
        assert_eq!(s.rows[0], (2, vec!["x, \"y\"".into(), "=1+2".into(), String::new()]));
        assert_eq!(
            s.rows[1].0, 4,
            "the blank row keeps its number, a cell over two lines is one row"
        );
        assert_eq!(s.rows[1].1[0], "two\nlines");
    }

    #[test]
    fn bad_files_are_named() {
        assert_eq!(message(csv("").unwrap_err()), "is empty");
        assert_eq!(message(csv(" \n\r\n").unwrap_err()), "is empty");
        assert_eq!(message(csv("a,b\n").unwrap_err()), "has a header but no rows");
        assert!(message(read(b"%PDF-1.7\xff\xfe").unwrap_err()).contains("CSV file in UTF-8"));
        assert!(message(read(b"PK\x03\x04garbage").unwrap_err()).contains("not a readable XLSX"));
        assert_eq!(
            message(csv("a,b\n1,2,3\n").unwrap_err()),
            "row 2 has 3 cells; the header has 2"
        );
        let wide = format!("a,b\n{}\n", vec!["x"; 500].join(","));
        assert_eq!(
            message(csv(&wide).unwrap_err()),
            "row 2 has 500 cells; a row may have at most 50"
        );
        let many = format!("a\n{}", "x\n".repeat(MAX_ROWS + 1));
        assert_eq!(message(csv(&many).unwrap_err()), "has more than 10000 rows");
        let enough = format!("a\n{}", "x\n".repeat(MAX_ROWS));
        assert_eq!(csv(&enough).unwrap().rows.len(), MAX_ROWS);
        let huge = vec![b'a'; MAX_BYTES + 1];
        assert!(matches!(read(&huge).unwrap_err(), ApiError::PayloadTooLarge(_)));
    }

    #[test]
    fn xlsx_cells_read_as_typed_and_formulas_as_their_text() {
        let mut book = rust_xlsxwriter::Workbook::new();
        let ws = book.add_worksheet();
        ws.write_string(0, 0, "firstName").unwrap();
        ws.write_string(0, 1, "districtId").unwrap();
        ws.write_string(0, 2, "startDate").unwrap();
        ws.write_string(1, 0, "Ana").unwrap();
        ws.write_number(1, 1, 7.0).unwrap();
        let day = rust_xlsxwriter::ExcelDateTime::from_ymd(2026, 7, 1).unwrap();
        let format = rust_xlsxwriter::Format::new().set_num_format("yyyy-mm-dd");
        ws.write_datetime_with_format(1, 2, &day, &format).unwrap();
        ws.write_formula(2, 0, "=1+2").unwrap();
        let bytes = book.save_to_buffer().unwrap();
        let s = read(&bytes).unwrap();
        assert_eq!(s.header, ["firstName", "districtId", "startDate"]);
        assert_eq!(s.rows[0], (2, vec!["Ana".into(), "7".into(), "2026-07-01".into()]));
        assert_eq!(s.rows[1], (3, vec!["=1+2".into(), String::new(), String::new()]));
    }
}
