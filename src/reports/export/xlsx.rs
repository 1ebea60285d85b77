//! XLSX through `rust_xlsxwriter` in constant-memory mode (each row goes to a temporary
//! file as it is written): one sheet, typed cells, currency and date formats, frozen
//! header, autofilter, widths by kind, a bold totals row. The finished workbook is saved
//! to a temporary file and copied into the response.

use std::io::Write;

use rust_xlsxwriter::{Format as CellFormat, Workbook, Worksheet};

use super::{local, Cell, Column, Kind, Meta, Rows};

const MONEY: &str = "$#,##0.00";
const DATE: &str = "yyyy-mm-dd";
const TIMESTAMP: &str = "yyyy-mm-dd hh:mm";

struct Formats {
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
            header: bold().set_background_color("#DCE9F3").set_border_bottom(rust_xlsxwriter::FormatBorder::Thin),
            money: CellFormat::new().set_num_format(MONEY),
            date: CellFormat::new().set_num_format(DATE),
            timestamp: CellFormat::new().set_num_format(TIMESTAMP),
            number: CellFormat::new().set_num_format("0.00"),
            percent: CellFormat::new().set_num_format("0.0\"%\""),
            wrap: CellFormat::new().set_text_wrap(),
            total_label: bold().set_border_top(rust_xlsxwriter::FormatBorder::Thin),
            total_money: bold().set_num_format(MONEY).set_border_top(rust_xlsxwriter::FormatBorder::Thin),
            total_number: bold().set_num_format("0.00").set_border_top(rust_xlsxwriter::FormatBorder::Thin),
            total_percent: bold().set_num_format("0.0\"%\"").set_border_top(rust_xlsxwriter::FormatBorder::Thin),
        }
    }
}

/// Characters by kind: wide enough for the values, never narrower than the header.
fn width(column: &Column) -> f64 {
    let by_kind: f64 = match column.kind {
        Kind::Text => 22.0,
        Kind::Money => 14.0,
        Kind::Int | Kind::Number | Kind::Percent => 10.0,
        Kind::Date => 12.0,
        Kind::Timestamp => 17.0,
    };
    by_kind.max(column.header.chars().count() as f64 + 3.0)
}

/// Sheet names: at most 31 characters, none of `[]:*?/\`.
fn sheet_name(title: &str) -> String {
    let clean: String = title.chars().filter(|c| !"[]:*?/\\".contains(*c)).take(31).collect();
    if clean.trim().is_empty() { "Report".to_owned() } else { clean }
}

fn write_cell(ws: &mut Worksheet, f: &Formats, row: u32, col: u16, cell: &Cell, minutes_offset: i32) -> Result<(), rust_xlsxwriter::XlsxError> {
    match cell {
        Cell::Empty => {}
        Cell::Text(t) if t.contains('\n') => {
            ws.write_string_with_format(row, col, t, &f.wrap)?;
        }
        Cell::Text(t) => {
            ws.write_string(row, col, t)?;
        }
        Cell::Money(c) => {
            ws.write_number_with_format(row, col, *c as f64 / 100.0, &f.money)?;
        }
        Cell::Int(n) => {
            ws.write_number(row, col, *n as f64)?;
        }
        Cell::Number(x) => {
            ws.write_number_with_format(row, col, *x, &f.number)?;
        }
        Cell::Percent(x) => {
            ws.write_number_with_format(row, col, *x, &f.percent)?;
        }
        Cell::Date(d) => {
            ws.write_datetime_with_format(row, col, d, &f.date)?;
        }
        Cell::Timestamp(t) => {
            ws.write_datetime_with_format(row, col, local(*t, minutes_offset), &f.timestamp)?;
        }
    }
    Ok(())
}

fn write_total(ws: &mut Worksheet, f: &Formats, row: u32, col: u16, cell: &Cell) -> Result<(), rust_xlsxwriter::XlsxError> {
    match cell {
        Cell::Money(c) => ws.write_number_with_format(row, col, *c as f64 / 100.0, &f.total_money).map(|_| ()),
        Cell::Int(n) => ws.write_number_with_format(row, col, *n as f64, &f.total_label).map(|_| ()),
        Cell::Number(x) => ws.write_number_with_format(row, col, *x, &f.total_number).map(|_| ()),
        Cell::Percent(x) => ws.write_number_with_format(row, col, *x, &f.total_percent).map(|_| ()),
        Cell::Text(t) => ws.write_string_with_format(row, col, t, &f.total_label).map(|_| ()),
        _ => ws.write_blank(row, col, &f.total_label).map(|_| ()),
    }
}

/// Writes the workbook of `rows` into `out` (runs on a blocking thread).
pub fn write(meta: &Meta, columns: &[Column], rows: Rows, totals: Option<&[Cell]>, out: &mut impl Write) -> anyhow::Result<()> {
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
        ws.write_string_with_format(0, i as u16, c.header.as_ref(), &f.header)?;
    }
    ws.set_freeze_panes(1, 0)?;
    let mut r: u32 = 0;
    rows.for_each(|row| {
        r += 1;
        for (i, cell) in row.iter().enumerate() {
            write_cell(ws, &f, r, i as u16, cell, meta.minutes_offset)?;
        }
        Ok(())
    })?;
    ws.autofilter(0, 0, r.max(1), last_col)?;
    if let Some(totals) = totals {
        let t = r + 1;
        for i in 0..columns.len() {
            let cell = totals.get(i).unwrap_or(&Cell::Empty);
            let cell = if i == 0 && *cell == Cell::Empty { &Cell::Text("Total".into()) } else { cell };
            write_total(ws, &f, t, i as u16, cell)?;
        }
    }
    let file = tempfile::NamedTempFile::new()?;
    workbook.save(file.path())?;
    let mut saved = std::fs::File::open(file.path())?;
    std::io::copy(&mut saved, out)?;
    Ok(())
}
