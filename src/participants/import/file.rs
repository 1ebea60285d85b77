//! An uploaded spreadsheet read into text cells: CSV (UTF-8, with or without the byte-order
//! mark Excel writes) through the `csv` crate, XLSX through `calamine`. A formula is kept as
//! its text (`=1+2`), never evaluated. Limits are checked while reading, so a huge file is
//! refused before it is held in full.

use std::{collections::BTreeMap, io::Cursor};

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

/// What a workbook's parts may unpack to, together: a full import (10,000 rows of 50
/// cells) is a few tens of MB of XML; a zip bomb is refused before any of it is held.
pub const MAX_UNPACKED_BYTES: u64 = 64 * 1024 * 1024;
/// Parts in a workbook (a real one has a dozen or two).
const MAX_PARTS: usize = 1_000;

/// The largest shared-formula number (`<f t="shared" si="N">`) a sheet may use: calamine
/// sizes a table by it, so `si="4000000000"` alone would ask for hundreds of gigabytes. A
/// sheet the import takes has at most one group per cell.
const MAX_SHARED_FORMULA: u64 = (MAX_ROWS as u64 + 1) * MAX_COLUMNS as u64;

/// The largest number given to an `si` attribute in `xml` (u64::MAX for one of more than
/// 12 digits). An attribute cut at the end of `xml` is read whole in the next window, which
/// starts with this one's last `CARRY` bytes.
fn largest_shared_formula(xml: &[u8]) -> u64 {
    let mut largest = 0;
    let mut i = 0;
    while let Some(at) = xml[i..].windows(2).position(|w| w == b"si") {
        let start = i + at;
        i = start + 2;
        // An attribute: after a space or a namespace prefix, then `=`, a quote and digits.
        if start == 0 || !matches!(xml[start - 1], b' ' | b'\t' | b'\r' | b'\n' | b':') {
            continue;
        }
        let rest = &xml[i..];
        let mut j = rest.iter().take_while(|b| b.is_ascii_whitespace()).count();
        if rest.get(j) != Some(&b'=') {
            continue;
        }
        j += 1;
        j += rest[j..].iter().take_while(|b| b.is_ascii_whitespace()).count();
        if !matches!(rest.get(j), Some(b'"' | b'\'')) {
            continue;
        }
        j += 1;
        if rest.get(j) == Some(&b'+') {
            j += 1;
        }
        let digits = &rest[j..][..rest[j..].iter().take_while(|b| b.is_ascii_digit()).count()];
        if digits.len() > 12 {
            return u64::MAX;
        }
        let value = digits.iter().fold(0u64, |n, d| n * 10 + u64::from(d - b'0'));
        largest = largest.max(value);
    }
    largest
}

/// What a window keeps of the previous one: longer than any `si="+…"` with 12 digits.
const CARRY: usize = 64;

/// Reads a part through, counting its bytes and watching its shared-formula numbers.
fn measure_part(part: impl std::io::Read, limit: u64) -> std::io::Result<(u64, u64)> {
    let mut part = std::io::Read::take(part, limit + 1);
    let mut window = Vec::with_capacity(64 * 1024 + CARRY);
    let mut chunk = vec![0u8; 64 * 1024];
    let (mut read, mut largest) = (0u64, 0u64);
    loop {
        let n = std::io::Read::read(&mut part, &mut chunk)?;
        if n == 0 {
            return Ok((read, largest));
        }
        read += n as u64;
        let kept = window.len().saturating_sub(CARRY);
        window.drain(..kept);
        window.extend_from_slice(&chunk[..n]);
        largest = largest.max(largest_shared_formula(&window));
    }
}

/// Unpacks every part of the workbook into nothing, counting, so the parts calamine then
/// reads in full (the shared strings, the sheet) are known to be small, and no
/// shared-formula number makes calamine size a table past reason.
fn check_unpacked_size(bytes: &[u8]) -> Result<(), ApiError> {
    let unreadable =
        |e: zip::result::ZipError| bad(format!("is not a readable XLSX workbook ({e})"));
    let mut archive = zip::ZipArchive::new(Cursor::new(bytes)).map_err(unreadable)?;
    if archive.len() > MAX_PARTS {
        return Err(bad(format!(
            "holds {} parts; a workbook may hold at most {MAX_PARTS}",
            archive.len()
        )));
    }
    let too_big = || {
        bad(format!(
            "unpacks to more than {} MB; save it again without unused sheets and formatting",
            MAX_UNPACKED_BYTES / (1024 * 1024)
        ))
    };
    let mut left = MAX_UNPACKED_BYTES;
    for i in 0..archive.len() {
        let part = archive.by_index(i).map_err(unreadable)?;
        // The declared size can lie; what the part really unpacks to is counted below.
        if part.size() > left {
            return Err(too_big());
        }
        let (read, shared) = measure_part(part, left)
            .map_err(|e| bad(format!("is not a readable XLSX workbook ({e})")))?;
        if read > left {
            return Err(too_big());
        }
        if shared > MAX_SHARED_FORMULA {
            return Err(bad(format!(
                "numbers a shared formula past {MAX_SHARED_FORMULA}; a sheet of at most {MAX_ROWS} rows of {MAX_COLUMNS} cells has no more"
            )));
        }
        left -= read;
    }
    Ok(())
}

/// The first sheet, streamed cell by cell: no grid of the sheet's declared (or actual)
/// extent is ever built, so a sheet with one cell at A1 and one at XFD1048576 costs two
/// cells, and reading stops at the first cell past the column limit or the first row past
/// the row limit.
fn read_xlsx(bytes: &[u8], sheet: &mut Builder) -> Result<(), ApiError> {
    check_unpacked_size(bytes)?;
    let unreadable = |e: calamine::XlsxError| bad(format!("is not a readable XLSX workbook ({e})"));
    let mut book = Xlsx::new(Cursor::new(bytes)).map_err(unreadable)?;
    let name = book.sheet_names().first().cloned().ok_or_else(|| bad("has no sheet"))?;
    let mut cells = book.worksheet_cells_reader(&name).map_err(unreadable)?;
    // Row (0-based) -> its non-blank cells by column; at most MAX_ROWS + 1 rows of at
    // most MAX_COLUMNS cells.
    let mut rows: BTreeMap<u32, BTreeMap<u32, String>> = BTreeMap::new();
    while let Some(cell) = cells.next_cell_with_formula().map_err(unreadable)? {
        let (row, col) = cell.pos;
        let text = match cell.formula.filter(|f| !f.is_empty()) {
            Some(f) => format!("={f}"),
            None => cell_text(&Data::from(cell.value)),
        };
        if text.trim().is_empty() {
            continue;
        }
        if col as usize >= MAX_COLUMNS {
            return Err(bad(format!(
                "row {} has {} cells; a row may have at most {MAX_COLUMNS}",
                row as u64 + 1,
                col as u64 + 1
            )));
        }
        if !rows.contains_key(&row) && rows.len() > MAX_ROWS {
            return Err(bad(format!("has more than {MAX_ROWS} rows")));
        }
        rows.entry(row).or_default().insert(col, text);
    }
    for (row, by_column) in rows {
        // Cells are placed by their column: a sheet starting at C1 keeps A and B empty.
        let width = by_column.keys().next_back().map_or(0, |c| *c as usize + 1);
        let mut line = vec![String::new(); width];
        for (col, text) in by_column {
            line[col as usize] = text;
        }
        sheet.push(row as usize + 1, line)?;
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

    /// A workbook with text at each of `cells` (row, column), 0-based.
    fn xlsx_with(cells: &[(u32, u16)]) -> Vec<u8> {
        let mut book = rust_xlsxwriter::Workbook::new();
        let ws = book.add_worksheet();
        for (i, (r, c)) in cells.iter().enumerate() {
            ws.write_string(*r, *c, format!("cell{i}")).unwrap();
        }
        book.save_to_buffer().unwrap()
    }

    #[test]
    fn sheets_far_wider_or_longer_than_the_limits_are_refused_without_their_grid() {
        // A1 and XFD1048576: a grid of every cell between would be half a terabyte.
        let far = xlsx_with(&[(0, 0), (1_048_575, 16_383)]);
        assert!(far.len() < 8 * 1024, "{} bytes", far.len());
        assert_eq!(
            message(read(&far).unwrap_err()),
            "row 1048576 has 16384 cells; a row may have at most 50"
        );
        let wide = xlsx_with(&[(0, 0), (999, 16_383)]);
        assert_eq!(
            message(read(&wide).unwrap_err()),
            "row 1000 has 16384 cells; a row may have at most 50"
        );
        // Far down but narrow: two rows, the blank ones between cost nothing.
        let sparse = read(&xlsx_with(&[(0, 0), (1_048_575, 0)])).unwrap();
        assert_eq!(sparse.rows, [(1_048_576, vec!["cell1".to_owned()])]);
        let long: Vec<(u32, u16)> = (0..=MAX_ROWS as u32 + 1).map(|r| (r * 3, 0)).collect();
        assert_eq!(message(read(&xlsx_with(&long)).unwrap_err()), "has more than 10000 rows");
        let starts_at_c = read(&xlsx_with(&[(4, 2), (5, 2)])).unwrap();
        assert_eq!(starts_at_c.header, ["", "", "cell0"]);
        assert_eq!(starts_at_c.rows, [(6, vec![String::new(), String::new(), "cell1".into()])]);
    }

    #[test]
    fn shared_formula_numbers_are_read_wherever_they_are_written() {
        for (xml, largest) in [
            (&b"<f t=\"shared\" si=\"7\" ref=\"A1:A3\">1</f>"[..], 7),
            (b"<f si = '12' t='shared'/><f x:si=\"+30\"/>", 30),
            (b"<si><t>si=\"99999999\"</t></si>", 0),
            (b"<f\tsi=\"0000000000000000000001\"/>", u64::MAX),
            (b"<f si=\"", 0),
        ] {
            assert_eq!(largest_shared_formula(xml), largest, "{}", String::from_utf8_lossy(xml));
        }
        // Cut between two windows, the number is still read whole.
        let mut xml = vec![b' '; 64 * 1024 - 5];
        xml.extend_from_slice(b" si=\"4000000000\"");
        assert_eq!(measure_part(&xml[..], 1 << 30).unwrap(), (xml.len() as u64, 4_000_000_000));
    }

    /// A workbook written part by part: one sheet whose A1 is the shared formula `si`, B1 text.
    fn shared_formula_book(si: u64) -> Vec<u8> {
        use std::io::Write;
        let mut book = Cursor::new(Vec::new());
        let mut zip = zip::ZipWriter::new(&mut book);
        let options = zip::write::SimpleFileOptions::default();
        let ns = "xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\"";
        let rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
        for (name, text) in [
            ("[Content_Types].xml".to_owned(), "<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\"><Default Extension=\"xml\" ContentType=\"application/xml\"/></Types>".to_owned()),
            ("_rels/.rels".into(), format!("<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\"><Relationship Id=\"rId1\" Type=\"{rel}/officeDocument\" Target=\"xl/workbook.xml\"/></Relationships>")),
            ("xl/workbook.xml".into(), format!("<workbook {ns} xmlns:r=\"{rel}\"><sheets><sheet name=\"S\" sheetId=\"1\" r:id=\"rId1\"/></sheets></workbook>")),
            ("xl/_rels/workbook.xml.rels".into(), format!("<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\"><Relationship Id=\"rId1\" Type=\"{rel}/worksheet\" Target=\"worksheets/sheet1.xml\"/></Relationships>")),
            ("xl/worksheets/sheet1.xml".into(), format!("<worksheet {ns}><sheetData><row r=\"1\"><c r=\"A1\"><f t=\"shared\" si=\"{si}\" ref=\"A1\">1+1</f><v>2</v></c><c r=\"B1\" t=\"inlineStr\"><is><t>b</t></is></c></row><row r=\"2\"><c r=\"A2\" t=\"inlineStr\"><is><t>x</t></is></c></row></sheetData></worksheet>")),
        ] {
            zip.start_file(name, options).unwrap();
            zip.write_all(text.as_bytes()).unwrap();
        }
        zip.finish().unwrap();
        book.into_inner()
    }

    #[test]
    fn a_sheet_numbering_a_shared_formula_in_the_billions_is_refused_before_calamine_reads_it() {
        let fine = read(&shared_formula_book(3)).unwrap();
        assert_eq!(fine.header, ["=1+1", "b"]);
        let said = message(read(&shared_formula_book(4_000_000_000)).unwrap_err());
        assert!(said.starts_with("numbers a shared formula past 500050"), "{said}");
    }

    #[test]
    fn a_workbook_that_unpacks_past_the_limit_is_refused_before_it_is_read() {
        use std::io::Write;
        let mut out = Cursor::new(Vec::new());
        let mut zip = zip::ZipWriter::new(&mut out);
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        zip.start_file("xl/sharedStrings.xml", options).unwrap();
        let block = vec![b'a'; 1024 * 1024];
        for _ in 0..(MAX_UNPACKED_BYTES / block.len() as u64 + 1) {
            zip.write_all(&block).unwrap();
        }
        zip.finish().unwrap();
        let bomb = out.into_inner();
        assert!(bomb.len() < 1024 * 1024, "{} bytes", bomb.len());
        assert!(message(read(&bomb).unwrap_err()).starts_with("unpacks to more than 64 MB"));
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
