//! XLSX through `rust_xlsxwriter` in constant-memory mode (each row goes to a temporary
//! file as it is written): one sheet, typed cells, currency and date formats, frozen
//! header, autofilter, widths by kind, a bold totals row. The finished workbook is saved
//! to a temporary file and copied into the response.

use std::io::Write;

use rust_xlsxwriter::{Format as CellFormat, Workbook, Worksheet};

use super::{local, round_to, Cell, Column, Frame, Kind, Rows};

const MONEY: &str = "$#,##0.00";
/// The one way days and moments read (`crate::text::day`, `crate::text::moment`), as typed
/// cells a spreadsheet can still sort and filter.
const DATE: &str = "mmm d, yyyy";
const TIMESTAMP: &str = "mmm d, yyyy, h:mm AM/PM";

struct Formats {
    general: CellFormat,
    header: CellFormat,
    money: CellFormat,
    date: CellFormat,
    timestamp: CellFormat,
    number: CellFormat,
    percent: CellFormat,
    wrap: CellFormat,
    total_label: CellFormat,
    total_money: CellFormat,
    total_number: CellFormat,
    total_percent: CellFormat,
}

impl Formats {
    fn new() -> Self {
        let bold = || CellFormat::new().set_bold();
        Formats {
            // Named, not the default format: rust_xlsxwriter stores that as none at all, and
            // the cell would show its column's.
            general: CellFormat::new().set_num_format("General"),
            header: bold()
                .set_background_color("#DCE9F3")
                .set_border_bottom(rust_xlsxwriter::FormatBorder::Thin),
            money: CellFormat::new().set_num_format(MONEY),
            date: CellFormat::new().set_num_format(DATE),
            timestamp: CellFormat::new().set_num_format(TIMESTAMP),
            number: CellFormat::new().set_num_format("0.00"),
            percent: CellFormat::new().set_num_format("0.0\"%\""),
            wrap: CellFormat::new().set_text_wrap(),
            total_label: bold().set_border_top(rust_xlsxwriter::FormatBorder::Thin),
            total_money: bold()
                .set_num_format(MONEY)
                .set_border_top(rust_xlsxwriter::FormatBorder::Thin),
            total_number: bold()
                .set_num_format("0.00")
                .set_border_top(rust_xlsxwriter::FormatBorder::Thin),
            total_percent: bold()
                .set_num_format("0.0\"%\"")
                .set_border_top(rust_xlsxwriter::FormatBorder::Thin),
        }
    }
}

/// Characters by kind: wide enough for the values, never narrower than the header.
fn width(column: &Column) -> f64 {
    let by_kind: f64 = match column.kind {
        Kind::Text => 22.0,
        Kind::Money => 14.0,
        Kind::Int | Kind::Number | Kind::Percent => 10.0,
        Kind::Date => 13.0,
        Kind::Timestamp => 21.0,
    };
    by_kind.max(column.header.chars().count() as f64 + 3.0)
}

/// Excel's longest sheet name.
const SHEET_NAME_MAX: usize = 31;

/// The sheet's name from the report's title: none of `[]:*?/\`, at most 31 characters,
/// cut after a whole word (only a single word longer than that is cut inside).
fn sheet_name(title: &str) -> String {
    let clean: String = title.chars().filter(|c| !"[]:*?/\\".contains(*c)).collect();
    let mut name = String::new();
    for word in clean.split_whitespace() {
        let with = name.chars().count() + usize::from(!name.is_empty()) + word.chars().count();
        if with > SHEET_NAME_MAX {
            break;
        }
        if !name.is_empty() {
            name.push(' ');
        }
        name.push_str(word);
    }
    if name.is_empty() {
        name = clean.trim().chars().take(SHEET_NAME_MAX).collect();
    }
    if name.is_empty() {
        "Report".to_owned()
    } else {
        name
    }
}

impl Formats {
    /// The number format of a column of `kind`, set on the column (`write`), so that its
    /// cells go without one: rust_xlsxwriter hashes a cell's whole format to find it, a
    /// tenth of a large export's writing.
    fn of_column(&self, kind: Kind) -> Option<&CellFormat> {
        match kind {
            Kind::Money => Some(&self.money),
            Kind::Number => Some(&self.number),
            Kind::Percent => Some(&self.percent),
            Kind::Date => Some(&self.date),
            Kind::Timestamp => Some(&self.timestamp),
            Kind::Int | Kind::Text => None,
        }
    }
}

/// A cell of a column of `column` kind; one of another kind brings its own format, or
/// Excel's general one.
fn write_cell(
    ws: &mut Worksheet,
    f: &Formats,
    (row, col, column): (u32, u16, Kind),
    cell: &Cell,
    minutes_offset: i32,
) -> Result<(), rust_xlsxwriter::XlsxError> {
    let own = |kind: Kind| match (f.of_column(kind), f.of_column(column)) {
        (None, None) => None,
        _ if kind == column => None,
        (mine, _) => Some(mine.unwrap_or(&f.general)),
    };
    let number = |ws: &mut Worksheet, x: f64, kind: Kind| match own(kind) {
        Some(format) => ws.write_number_with_format(row, col, x, format).map(|_| ()),
        None => ws.write_number(row, col, x).map(|_| ()),
    };
    match cell {
        Cell::Empty => Ok(()),
        Cell::Text(t) if t.contains('\n') => {
            ws.write_string_with_format(row, col, t, &f.wrap).map(|_| ())
        }
        Cell::Text(t) => ws.write_string(row, col, t).map(|_| ()),
        Cell::Money(c) => number(ws, *c as f64 / 100.0, Kind::Money),
        Cell::Int(n) => number(ws, *n as f64, Kind::Int),
        Cell::Request(..) => ws.write_string(row, col, cell.display(0)).map(|_| ()),
        // Stored as shown (two decimals, a percentage one), so a sum in the sheet adds
        // what the reader sees.
        Cell::Number(x) => number(ws, round_to(*x, 100.0), Kind::Number),
        Cell::Percent(x) => number(ws, round_to(*x, 10.0), Kind::Percent),
        Cell::Date(d) => match own(Kind::Date) {
            Some(format) => ws.write_datetime_with_format(row, col, d, format).map(|_| ()),
            None => ws.write_datetime(row, col, d).map(|_| ()),
        },
        Cell::Timestamp(t) => match own(Kind::Timestamp) {
            Some(format) => ws
                .write_datetime_with_format(row, col, local(*t, minutes_offset), format)
                .map(|_| ()),
            None => ws.write_datetime(row, col, local(*t, minutes_offset)).map(|_| ()),
        },
    }
}

fn write_total(
    ws: &mut Worksheet,
    f: &Formats,
    row: u32,
    col: u16,
    cell: &Cell,
) -> Result<(), rust_xlsxwriter::XlsxError> {
    match cell {
        Cell::Money(c) => {
            ws.write_number_with_format(row, col, *c as f64 / 100.0, &f.total_money).map(|_| ())
        }
        Cell::Int(n) => {
            ws.write_number_with_format(row, col, *n as f64, &f.total_label).map(|_| ())
        }
        Cell::Number(x) => {
            ws.write_number_with_format(row, col, round_to(*x, 100.0), &f.total_number).map(|_| ())
        }
        Cell::Percent(x) => {
            ws.write_number_with_format(row, col, round_to(*x, 10.0), &f.total_percent).map(|_| ())
        }
        Cell::Text(t) => ws.write_string_with_format(row, col, t, &f.total_label).map(|_| ()),
        _ => ws.write_blank(row, col, &f.total_label).map(|_| ()),
    }
}

/// Writes the workbook of `rows` into `out` (runs on a blocking thread).
pub fn write(frame: Frame, rows: Rows, out: &mut impl Write) -> anyhow::Result<()> {
    let Frame { meta, columns, totals } = frame;
    let f = Formats::new();
    let mut workbook = Workbook::new();
    // Deflate level 3, Excel 365's own, not the default 6: compressing was a third of a large
    // export's time; 100,334 rows save in 1.55 s instead of 1.83 s, the file 12 % larger.
    workbook.set_zip_compression_level(3);
    let ws = workbook.add_worksheet_with_constant_memory()?;
    ws.set_name(sheet_name(&meta.title))?;
    let last_col = columns.len().saturating_sub(1) as u16;
    for (i, c) in columns.iter().enumerate() {
        ws.set_column_width(i as u16, width(c))?;
        if let Some(format) = f.of_column(c.kind) {
            ws.set_column_format(i as u16, format)?;
        }
        ws.write_string_with_format(0, i as u16, c.header.as_ref(), &f.header)?;
    }
    ws.set_freeze_panes(1, 0)?;
    let mut r: u32 = 0;
    rows.for_each(|row| {
        r += 1;
        for (i, (cell, column)) in row.iter().zip(columns).enumerate() {
            write_cell(ws, &f, (r, i as u16, column.kind), cell, meta.minutes_offset)?;
        }
        Ok(())
    })?;
    ws.autofilter(0, 0, r.max(1), last_col)?;
    if let Some(totals) = totals {
        let t = r + 1;
        for i in 0..columns.len() {
            let cell = totals.get(i).unwrap_or(&Cell::Empty);
            let cell =
                if i == 0 && *cell == Cell::Empty { &Cell::Text("Total".into()) } else { cell };
            write_total(ws, &f, t, i as u16, cell)?;
        }
    }
    let file = tempfile::NamedTempFile::new()?;
    workbook.save(file.path())?;
    let mut saved = std::fs::File::open(file.path())?;
    std::io::copy(&mut saved, out)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use calamine::{Data, Reader};
    use chrono::NaiveDate;

    use super::*;
    use crate::reports::export::Meta;

    /// Cells take their column's number format, and one of another kind keeps its own.
    #[test]
    fn cells_read_back_by_their_kind() {
        let columns = [
            Column::new("amount", "Amount", Kind::Money),
            Column::new("day", "Day", Kind::Date),
            Column::new("note", "Note", Kind::Text),
        ];
        let day = NaiveDate::from_ymd_opt(2026, 1, 2).unwrap();
        let rows = vec![
            vec![Cell::Money(12345), Cell::Date(day), Cell::Text("a".into())],
            // Odd rows: a count in the money and date columns, a date in the text column, a number in the date column.
            vec![Cell::Int(7), Cell::Int(2), Cell::Date(day)],
            vec![Cell::Empty, Cell::Number(1.5), Cell::Empty],
        ];
        let mut out = Vec::new();
        write(Frame::new(&Meta::example(), &columns, None), Rows::from_vec(rows), &mut out)
            .unwrap();
        let mut book = calamine::Xlsx::new(std::io::Cursor::new(out)).unwrap();
        let sheet = book.worksheet_range("Participants").unwrap();
        let is_date = |r: u32, c: u32| matches!(sheet.get_value((r, c)), Some(Data::DateTime(_)));
        assert_eq!(sheet.get_value((1, 0)), Some(&Data::Float(123.45)));
        assert!(is_date(1, 1), "{:?}", sheet.get_value((1, 1)));
        assert_eq!(sheet.get_value((2, 0)), Some(&Data::Float(7.0)));
        assert!(
            !is_date(2, 1),
            "a count in a date column is not a date: {:?}",
            sheet.get_value((2, 1))
        );
        assert!(
            !is_date(3, 1),
            "a number in a date column is not a date: {:?}",
            sheet.get_value((3, 1))
        );
        assert!(is_date(2, 2), "a date in a text column is a date: {:?}", sheet.get_value((2, 2)));
        assert_eq!(sheet.get_value((3, 1)), Some(&Data::Float(1.5)));
    }

    /// Numbers as shown (two decimals, percentages one), and totals only when there are.
    #[test]
    fn numbers_round_as_shown_and_empty_totals_are_left_out() {
        let columns =
            [Column::new("form", "Form", Kind::Text), Column::new("days", "Days", Kind::Number)];
        let rows = vec![vec![Cell::Text("F1".into()), Cell::Number(6.473_684)]];
        let write_with = |totals: Vec<Cell>| {
            let mut out = Vec::new();
            let rows = Rows::from_vec(rows.clone());
            write(Frame::new(&Meta::example(), &columns, Some(&totals)), rows, &mut out).unwrap();
            let mut book = calamine::Xlsx::new(std::io::Cursor::new(out)).unwrap();
            book.worksheet_range("Participants").unwrap()
        };
        let sheet = write_with(vec![Cell::Empty, Cell::Number(6.476)]);
        assert_eq!(sheet.get_value((1, 1)), Some(&Data::Float(6.47)));
        assert_eq!(sheet.get_value((2, 0)), Some(&Data::String("Total".into())));
        assert_eq!(sheet.get_value((2, 1)), Some(&Data::Float(6.48)));
        let sheet = write_with(vec![Cell::Empty, Cell::Empty]);
        assert_eq!(sheet.height(), 2, "header and the row, no empty totals row");
    }

    #[test]
    fn sheet_names_end_at_a_word() {
        assert_eq!(sheet_name("F2 Expense reimbursement request"), "F2 Expense reimbursement");
        assert_eq!(sheet_name("Participants"), "Participants");
        assert_eq!(sheet_name("a/b: c?"), "ab c");
        assert_eq!(
            sheet_name("Supercalifragilisticexpialidocious-report"),
            "Supercalifragilisticexpialidoci"
        );
        assert_eq!(sheet_name("[]"), "Report");
        for title in
            ["Mentor program reimbursements by fiscal year and fund", "x".repeat(40).as_str()]
        {
            assert!(sheet_name(title).chars().count() <= SHEET_NAME_MAX);
        }
    }
}
