//! The shared export layer: a report declares its columns once and hands over a stream
//! of rows; this turns it into a streamed CSV, XLSX or PDF answer.
//!
//! ```ignore
//! let rows = Rows::from_query(db.clone(), select, |r| Ok(vec![Cell::int(r.try_get("", "id")?), ...]));
//! Ok(export::respond(format, meta, columns, rows, Some(totals)))
//! ```
//!
//! Every writer runs on a blocking thread and takes the rows there as they come, so
//! nothing ever holds the whole result: on SQLite a reader thread of the export's own
//! steps the statement (`db::sqlite_speed::reader`), elsewhere rows come through a bounded channel from the
//! task reading them.
//! CSV goes out in chunks as it is written; XLSX (constant-memory mode, rows go to a
//! temporary file) and PDF are streamed out once finished.

pub mod csv;
pub mod pdf;
pub mod xlsx;

use std::borrow::Cow;

use actix_web::{
    http::header::{self, ContentDisposition, DispositionParam, DispositionType},
    web::Bytes,
    HttpResponse,
};
use chrono::{DateTime, Datelike, Duration, NaiveDate, NaiveDateTime, Timelike, Utc};
use futures_util::StreamExt;
use sea_orm::{sea_query::SelectStatement, DatabaseConnection, QueryResult, StreamTrait};
use serde::Serialize;
use tokio::sync::mpsc;
use utoipa::ToSchema;

use crate::{
    db::sqlite_speed::reader::Read, error::ApiError, money::Money, reports::fields::DbRow,
};

/// What a column holds, which decides how every format writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Text,
    /// Integer cents; dollars with two decimals on the wire and in files.
    Money,
    Int,
    /// A decimal shown with two decimals (hours, miles, average days).
    Number,
    /// A percentage with one decimal (`45.5` = 45.5 %).
    Percent,
    Date,
    /// A moment: UTC in JSON, the caller's local time in files.
    Timestamp,
}

impl Kind {
    /// Right-aligned in tables.
    pub fn is_numeric(self) -> bool {
        matches!(self, Kind::Money | Kind::Int | Kind::Number | Kind::Percent)
    }
}

/// A closed set's codes with their labels (`Status::LABELLED`).
pub type Labels = &'static [(&'static str, &'static str)];

/// One column of a report: JSON key, human header, kind, and for a column of codes their
/// labels: the views send the code, files print the label, screens show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct Column {
    #[schema(value_type = String)]
    pub key: Cow<'static, str>,
    #[schema(value_type = String)]
    pub header: Cow<'static, str>,
    pub kind: Kind,
    #[serde(skip)]
    #[schema(ignore)]
    pub labels: Option<Labels>,
}

impl Column {
    pub const fn new(key: &'static str, header: &'static str, kind: Kind) -> Self {
        Self { key: Cow::Borrowed(key), header: Cow::Borrowed(header), kind, labels: None }
    }

    pub fn owned(key: String, header: String, kind: Kind) -> Self {
        Self { key: Cow::Owned(key), header: Cow::Owned(header), kind, labels: None }
    }

    /// A text column whose values are codes of a closed set.
    pub const fn labelled(key: &'static str, header: &'static str, labels: Labels) -> Self {
        Self {
            key: Cow::Borrowed(key),
            header: Cow::Borrowed(header),
            kind: Kind::Text,
            labels: Some(labels),
        }
    }
}

/// The label of `code`, if the set knows it.
pub fn label(labels: Labels, code: &str) -> Option<&'static str> {
    labels.iter().find(|(c, _)| *c == code).map(|(_, l)| *l)
}

/// One value of a row.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    Empty,
    Text(String),
    Money(i64),
    Int(i64),
    Number(f64),
    Percent(f64),
    Date(NaiveDate),
    Timestamp(DateTime<Utc>),
    /// A payment request (form code, id): its id in JSON (views link with it), "F2 #601" in
    /// files, as every screen names it.
    Request(&'static str, i64),
}

pub type Row = Vec<Cell>;

/// A row as a document shows it: text without invisible or direction-changing characters,
/// so a name or a description cannot be made to read as something else.
fn shown(mut row: Row) -> Row {
    for cell in &mut row {
        if let Cell::Text(text) = cell {
            if let std::borrow::Cow::Owned(clean) = crate::text::without_hidden(text) {
                *text = clean;
            }
        }
    }
    row
}

impl Cell {
    pub fn text(v: Option<impl Into<String>>) -> Cell {
        v.map_or(Cell::Empty, |s| Cell::Text(s.into()))
    }
    pub fn money(v: Option<i64>) -> Cell {
        v.map_or(Cell::Empty, Cell::Money)
    }
    pub fn int(v: Option<impl Into<i64>>) -> Cell {
        v.map_or(Cell::Empty, |n| Cell::Int(n.into()))
    }
    pub fn date(v: Option<NaiveDate>) -> Cell {
        v.map_or(Cell::Empty, Cell::Date)
    }
    pub fn timestamp(v: Option<DateTime<Utc>>) -> Cell {
        v.map_or(Cell::Empty, Cell::Timestamp)
    }
    pub fn number(v: Option<f64>) -> Cell {
        v.map_or(Cell::Empty, Cell::Number)
    }
    pub fn percent(v: Option<f64>) -> Cell {
        v.map_or(Cell::Empty, Cell::Percent)
    }
    /// The request `id` of the form `code` (a stored form type); its bare number for a code
    /// no form has.
    pub fn request(code: &str, id: impl Into<i64>) -> Cell {
        let id = id.into();
        crate::forms::FormType::parse(code)
            .map_or(Cell::Int(id), |form| Cell::Request(form.as_str(), id))
    }

    /// The text the files print (CSV, PDF): local time, dollars with two decimals.
    pub fn display(&self, minutes_offset: i32) -> String {
        let mut text = String::new();
        self.write_display(&mut text, minutes_offset);
        text
    }

    /// The text a reader reads (PDF): as [`Cell::display`], with money as `$174,080.55`.
    pub fn printed(&self, minutes_offset: i32) -> String {
        match self {
            Cell::Money(c) => Money(*c).dollars(),
            other => other.display(minutes_offset),
        }
    }

    /// [`Cell::display`] appended to `out`: the CSV writer reuses one buffer for every cell.
    pub fn write_display(&self, out: &mut String, minutes_offset: i32) {
        use std::fmt::Write;
        // Writing to a String cannot fail.
        let _ = match self {
            Cell::Empty => Ok(()),
            Cell::Text(s) => out.write_str(s),
            Cell::Money(c) => write!(out, "{}", Money(*c)),
            Cell::Int(n) => write!(out, "{n}"),
            Cell::Number(x) => write!(out, "{:.2}", round_to(*x, 100.0)),
            Cell::Percent(x) => write!(out, "{:.1}", round_to(*x, 10.0)),
            // Written out, not through a strftime pattern parsed again for every cell; the
            // same text as `crate::text::day` and `crate::text::moment` (a test holds them equal).
            Cell::Date(d) => write_day(out, *d),
            Cell::Timestamp(t) => {
                let t = local(*t, minutes_offset);
                let _ = write_day(out, t.date());
                let (pm, hour) = t.hour12();
                write!(out, ", {}:{:02} {}", hour, t.minute(), if pm { "PM" } else { "AM" })
            }
            Cell::Request(form, id) => write!(out, "{form} #{id}"),
        };
    }
}

/// "Nov 3, 2025" (`crate::text::day`).
fn write_day(out: &mut String, d: NaiveDate) -> std::fmt::Result {
    use std::fmt::Write;
    const MONTHS: [&str; 12] =
        ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    write!(out, "{} {}, {}", MONTHS[d.month0() as usize], d.day(), d.year())
}

fn round_to(x: f64, scale: f64) -> f64 {
    (x * scale).round() / scale
}

/// Local wall time of `t` for a browser whose `getTimezoneOffset()` is `minutes_offset`.
pub fn local(t: DateTime<Utc>, minutes_offset: i32) -> NaiveDateTime {
    t.naive_utc() - Duration::minutes(minutes_offset as i64)
}

/// The JSON value of the views: UTC timestamps, money as an exact decimal number.
impl Serialize for Cell {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Cell::Empty => s.serialize_none(),
            Cell::Text(t) => s.serialize_str(t),
            Cell::Money(c) => Money(*c).serialize(s),
            Cell::Int(n) | Cell::Request(_, n) => s.serialize_i64(*n),
            Cell::Number(x) if x.is_finite() => s.serialize_f64(round_to(*x, 100.0)),
            Cell::Percent(x) if x.is_finite() => s.serialize_f64(round_to(*x, 10.0)),
            Cell::Number(_) | Cell::Percent(_) => s.serialize_none(),
            Cell::Date(d) => s.collect_str(&d.format("%Y-%m-%d")),
            Cell::Timestamp(t) => {
                s.serialize_str(&t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
            }
        }
    }
}

/// A row as the JSON views send it: `{columnKey: value, ...}` in column order, plus any
/// extra fields a report adds (ids for links).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Record(pub Vec<(Cow<'static, str>, Cell)>);

impl Record {
    pub fn of(columns: &[Column], row: Row) -> Record {
        Record(columns.iter().map(|c| c.key.clone()).zip(row).collect())
    }

    pub fn with(mut self, key: &'static str, value: Cell) -> Record {
        self.0.push((Cow::Borrowed(key), value));
        self
    }
}

impl Serialize for Record {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k.as_ref(), v)?;
        }
        map.end()
    }
}

impl utoipa::PartialSchema for Record {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        // Any keys (the report's columns), so generated clients read it as a string map.
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::Type::Object)
            .additional_properties(Some(utoipa::openapi::schema::AdditionalProperties::FreeForm(
                true,
            )))
            .description(Some(
                "One row: the report's column keys (docs/reports-api.md) with their values",
            ))
            .into()
    }
}

impl utoipa::ToSchema for Record {}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Csv,
    Xlsx,
    Pdf,
}

/// The OpenAPI schema of a format parameter (`#[param(value_type = Format, inline)]`):
/// the values as documented; any case parses.
impl utoipa::PartialSchema for Format {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        crate::web::string_enum(["Csv", "Xlsx", "Pdf"])
    }
}

impl utoipa::ToSchema for Format {}

impl Format {
    /// Whether the file ends with a totals line. A CSV file has none (it is for importing):
    /// summing first would only delay its first byte by a scan of every row.
    pub fn has_totals(self) -> bool {
        self != Format::Csv
    }

    /// `Csv`, `Xlsx` or `Pdf`, any case.
    pub fn parse(text: &str) -> Option<Format> {
        match text.trim().to_ascii_lowercase().as_str() {
            "csv" => Some(Format::Csv),
            "xlsx" => Some(Format::Xlsx),
            "pdf" => Some(Format::Pdf),
            _ => None,
        }
    }

    /// A 400 naming `field` unless `text` is a format.
    pub fn require(field: &str, text: Option<&str>) -> Result<Format, ApiError> {
        match text {
            None => Err(ApiError::bad_field(field, "is required (Csv, Xlsx or Pdf)")),
            Some(t) => Format::parse(t)
                .ok_or_else(|| ApiError::bad_field(field, "must be Csv, Xlsx or Pdf")),
        }
    }

    pub fn extension(self) -> &'static str {
        match self {
            Format::Csv => "csv",
            Format::Xlsx => "xlsx",
            Format::Pdf => "pdf",
        }
    }

    pub fn content_type(self) -> &'static str {
        match self {
            Format::Csv => "text/csv; charset=utf-8",
            Format::Xlsx => "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            Format::Pdf => "application/pdf",
        }
    }
}

/// What the files say about themselves.
#[derive(Debug, Clone)]
pub struct Meta {
    /// File name before the date: `mentor-program-reimbursements`.
    pub file_stem: String,
    pub title: String,
    /// The filters used, as (label, value) in words: ("Mentor program", "North Bay").
    pub filters: Vec<(String, String)>,
    pub generated_by: String,
    pub generated_at: DateTime<Utc>,
    /// The caller's `getTimezoneOffset()`.
    pub minutes_offset: i32,
}

impl Meta {
    /// `<stem>-<local YYYY-MM-DD>.<ext>`
    pub fn file_name(&self, format: Format) -> String {
        let day = local(self.generated_at, self.minutes_offset).date();
        format!("{}-{}.{}", self.file_stem, day.format("%Y-%m-%d"), format.extension())
    }

    pub fn generated_line(&self) -> String {
        format!(
            "Generated {} by {}",
            crate::text::moment(local(self.generated_at, self.minutes_offset)),
            self.generated_by
        )
    }

    pub fn filters_line(&self) -> String {
        if self.filters.is_empty() {
            return "Filters: none".to_owned();
        }
        let parts: Vec<String> = self.filters.iter().map(|(k, v)| format!("{k}: {v}")).collect();
        format!("Filters: {}", parts.join("; "))
    }
}

/// What a file (XLSX, PDF) shows besides its rows: the title block, the header row and the
/// totals row it carries.
#[derive(Clone, Copy)]
pub struct Frame<'a> {
    pub meta: &'a Meta,
    pub columns: &'a [Column],
    pub totals: Option<&'a [Cell]>,
}

impl<'a> Frame<'a> {
    /// No totals row when every cell of it is empty (a report without sums), rather than a
    /// row that only says "Total".
    pub fn new(meta: &'a Meta, columns: &'a [Column], totals: Option<&'a [Cell]>) -> Self {
        let totals = totals.filter(|t| t.iter().any(|c| *c != Cell::Empty));
        Frame { meta, columns, totals }
    }
}

/// Rows read on; at most this many wait in the channel (backpressure on the reader).
const ROW_BUFFER: usize = 512;
/// Rows a SQLite reader, and its mapping, hand over at a time.
const BATCH: usize = 256;

/// A report's rows on their way to a writer, which reads them on its blocking thread;
/// codes of labelled columns are handed over as their labels.
pub struct Rows(Source, Vec<Option<Labels>>);

/// A report's mapping of a result row to its cells.
type MapRow = dyn FnMut(&DbRow) -> Result<Row, ApiError> + Send;

enum Source {
    /// Rows from elsewhere: a bounded channel from the task reading them.
    Channel(mpsc::Receiver<Result<Row, ApiError>>),
    /// A SQLite statement, read and mapped on threads of the export's own (`for_each`).
    Sqlite(Read, Box<MapRow>),
}

impl Rows {
    /// Rows already in memory (the aggregate reports: a few hundred at most).
    pub fn from_vec(rows: Vec<Row>) -> Rows {
        let (tx, rx) = mpsc::channel(rows.len().max(1));
        for row in rows {
            // Cannot fail: the channel holds them all and the receiver is alive.
            let _ = tx.try_send(Ok(row));
        }
        Rows(Source::Channel(rx), Vec::new())
    }

    /// Rows a task of the caller's sends (bounded: the task waits while the writer is behind),
    /// for rows that need more than one statement to make.
    pub fn channel() -> (mpsc::Sender<Result<Row, ApiError>>, Rows) {
        let (tx, rx) = mpsc::channel(ROW_BUFFER);
        (tx, Rows(Source::Channel(rx), Vec::new()))
    }

    /// Streams a statement from the database (one read, never the whole result in memory),
    /// turning each result row into a report row with `map`: on SQLite `by_id` by the
    /// export's own reader (`Read`), which names the id columns of `names` (column, the
    /// table's `id, name`); elsewhere `joined`, the same rows with those names joined,
    /// through sea-orm.
    pub fn from_select<F>(
        db: DatabaseConnection,
        by_id: SelectStatement,
        names: Vec<(&str, SelectStatement)>,
        joined: SelectStatement,
        mut map: F,
    ) -> Rows
    where
        F: FnMut(&DbRow) -> Result<Row, ApiError> + Send + 'static,
    {
        match Read::new(&db, &by_id, &names) {
            Some(read) => Rows(Source::Sqlite(read, Box::new(map)), Vec::new()),
            None => Self::from_query(db, joined, move |r| map(&DbRow::Orm(r))),
        }
    }

    /// Streams `select` through sea-orm, turning each result row into a report row with `map`.
    pub fn from_query<F>(db: DatabaseConnection, select: SelectStatement, mut map: F) -> Rows
    where
        F: FnMut(&QueryResult) -> Result<Row, ApiError> + 'static,
    {
        let (tx, rx) = mpsc::channel(ROW_BUFFER);
        actix_web::rt::spawn(async move {
            let mut stream = match db.stream(&select).await {
                Ok(s) => s,
                Err(e) => {
                    let _ = tx.send(Err(e.into())).await;
                    return;
                }
            };
            while let Some(next) = stream.next().await {
                let row = next.map_err(ApiError::from).and_then(|r| map(&r));
                let failed = row.is_err();
                // The receiver is gone when the client went away: stop reading.
                if tx.send(row).await.is_err() || failed {
                    return;
                }
            }
        });
        Rows(Source::Channel(rx), Vec::new())
    }

    /// Prints the codes of `columns` with labels as their labels.
    pub fn labelled(mut self, columns: &[Column]) -> Self {
        self.1 = columns.iter().map(|c| c.labels).collect();
        self
    }

    /// Hands every row, in order, to `each` on this (blocking) thread; the first error
    /// (reading, or from `each`: the client went away) stops the reading.
    pub fn for_each(self, mut each: impl FnMut(Row) -> anyhow::Result<()>) -> anyhow::Result<()> {
        let labels = self.1;
        // Every format's rows pass here: codes become their labels, and free text loses its
        // hidden characters (crate::text).
        let mut each = move |mut row: Row| {
            for (cell, labels) in row.iter_mut().zip(&labels) {
                if let (Cell::Text(code), Some(labels)) = (&*cell, labels) {
                    if let Some(l) = label(labels, code) {
                        *cell = Cell::Text(l.to_owned());
                    }
                }
            }
            each(shown(row))
        };
        let failed = |e: ApiError| anyhow::anyhow!("{e}");
        match self.0 {
            Source::Channel(mut rx) => {
                while let Some(row) = rx.blocking_recv() {
                    each(row.map_err(failed)?)?;
                }
                Ok(())
            }
            Source::Sqlite(read, mut map) => {
                read.for_each(BATCH, |b, i| map(&DbRow::Sqlite(b, i)).map_err(failed), &mut each)
            }
        }
    }
}

type Chunk = Result<Bytes, std::io::Error>;

/// `std::io::Write` into the response body, in chunks, from a blocking thread.
pub struct BodyWriter {
    tx: mpsc::Sender<Chunk>,
    buf: Vec<u8>,
}

const CHUNK: usize = 64 * 1024;

impl std::io::Write for BodyWriter {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.buf.extend_from_slice(data);
        if self.buf.len() >= CHUNK {
            self.flush()?;
        }
        Ok(data.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        let chunk = Bytes::from(std::mem::take(&mut self.buf));
        self.tx.blocking_send(Ok(chunk)).map_err(|_| {
            std::io::Error::new(std::io::ErrorKind::BrokenPipe, "the client went away")
        })
    }
}

fn body_of(rx: mpsc::Receiver<Chunk>) -> impl futures_util::Stream<Item = Chunk> + 'static {
    futures_util::stream::unfold(rx, |mut rx| async move { rx.recv().await.map(|c| (c, rx)) })
}

/// Runs a writer on a blocking thread; its output is the response body.
fn on_blocking_thread<F>(write: F) -> mpsc::Receiver<Chunk>
where
    F: FnOnce(&mut BodyWriter) -> anyhow::Result<()> + Send + 'static,
{
    let (tx, rx) = mpsc::channel(4);
    tokio::task::spawn_blocking(move || {
        let mut out = BodyWriter { tx: tx.clone(), buf: Vec::with_capacity(CHUNK) };
        let done =
            write(&mut out).and_then(|()| std::io::Write::flush(&mut out).map_err(Into::into));
        match done {
            Ok(()) => {}
            // A download cancelled or a tab closed: nothing went wrong on our side.
            Err(_) if tx.is_closed() => tracing::info!("export stopped: the client went away"),
            Err(e) => {
                // The status line is gone already: cut the body so the download fails visibly.
                tracing::error!(error = %e, "export failed");
                let _ = tx.blocking_send(Err(std::io::Error::other("export failed")));
            }
        }
        crate::memory::give_back();
    });
    rx
}

/// The export answer: the file, streamed, with its download name.
pub fn respond(
    format: Format,
    meta: Meta,
    columns: Vec<Column>,
    rows: Rows,
    totals: Option<Row>,
) -> HttpResponse {
    let rows = rows.labelled(&columns);
    let file_name = meta.file_name(format);
    let mut response = HttpResponse::Ok();
    response.content_type(format.content_type()).insert_header(ContentDisposition {
        disposition: DispositionType::Attachment,
        parameters: vec![DispositionParam::Filename(file_name)],
    });
    match format {
        Format::Csv => response.streaming(body_of(on_blocking_thread(move |out| {
            csv::write(&columns, rows, meta.minutes_offset, out)
        }))),
        Format::Xlsx => {
            // Already a zip: compressing it again only costs time.
            response.insert_header((header::CONTENT_ENCODING, "identity"));
            response.streaming(body_of(on_blocking_thread(move |out| {
                xlsx::write(Frame::new(&meta, &columns, totals.as_deref()), rows, out)
            })))
        }
        Format::Pdf => {
            // Its streams are compressed already; a second pass would hold an encoder's
            // window per download for little gain.
            response.insert_header((header::CONTENT_ENCODING, "identity"));
            response.streaming(body_of(on_blocking_thread(move |out| {
                pdf::write(Frame::new(&meta, &columns, totals.as_deref()), rows, out)
            })))
        }
    }
}

/// A PDF made by `write` on a blocking thread as it goes (the packets), streamed as the
/// answer under `file_name`.
pub fn respond_pdf<F>(file_name: String, write: F) -> HttpResponse
where
    F: FnOnce(&mut BodyWriter) -> anyhow::Result<()> + Send + 'static,
{
    HttpResponse::Ok()
        .content_type(Format::Pdf.content_type())
        .insert_header(ContentDisposition {
            disposition: DispositionType::Attachment,
            parameters: vec![DispositionParam::Filename(file_name)],
        })
        .insert_header((header::CONTENT_ENCODING, "identity"))
        .streaming(body_of(on_blocking_thread(write)))
}

#[cfg(test)]
impl Meta {
    /// The participants report, by Ann Admin at 03:30 UTC on 2026-11-24, asked from California.
    pub fn example() -> Meta {
        use chrono::TimeZone;
        Meta {
            file_stem: "participants".into(),
            title: "Participants".into(),
            filters: vec![],
            generated_by: "Ann Admin".into(),
            generated_at: Utc.with_ymd_and_hms(2026, 11, 24, 3, 30, 0).unwrap(),
            minutes_offset: 480,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn formats_parse_in_any_case() {
        assert_eq!(Format::parse("CSV"), Some(Format::Csv));
        assert_eq!(Format::parse("xlsx"), Some(Format::Xlsx));
        assert_eq!(Format::parse("Pdf"), Some(Format::Pdf));
        assert_eq!(Format::parse("doc"), None);
        assert!(Format::require("ReportFormat", None).is_err());
    }

    #[test]
    fn file_names_carry_the_local_date() {
        // 03:30 UTC on the 24th is still the 23rd in California (offset 480).
        let meta = Meta::example();
        assert_eq!(meta.file_name(Format::Csv), "participants-2026-11-23.csv");
        assert_eq!(meta.generated_line(), "Generated Nov 23, 2026, 7:30 PM by Ann Admin");
        assert_eq!(
            Meta { minutes_offset: 0, ..meta }.file_name(Format::Pdf),
            "participants-2026-11-24.pdf"
        );
    }

    #[test]
    fn cells_print_by_kind() {
        let t = Utc.with_ymd_and_hms(2026, 1, 2, 8, 5, 0).unwrap();
        assert_eq!(Cell::Money(123450).display(0), "1234.50");
        assert_eq!(Cell::Money(-5).display(0), "-0.05");
        assert_eq!(Cell::Timestamp(t).display(480), "Jan 2, 2026, 12:05 AM");
        assert_eq!(Cell::Request("F2", 601).display(0), "F2 #601");
        assert_eq!(Cell::request("F2", 601), Cell::Request("F2", 601));
        assert_eq!(serde_json::to_string(&Cell::Request("F2", 601)).unwrap(), "601");
        // Files print days and moments as every screen does.
        for (day, hour) in [((2026, 1, 2), 0), ((2025, 11, 30), 12), ((2026, 12, 9), 23)] {
            let d = NaiveDate::from_ymd_opt(day.0, day.1, day.2).unwrap();
            let at = d.and_hms_opt(hour, 7, 0).unwrap();
            assert_eq!(Cell::Date(d).display(0), crate::text::day(d));
            assert_eq!(Cell::Timestamp(at.and_utc()).display(0), crate::text::moment(at));
        }
        assert_eq!(Cell::Percent(45.46).display(0), "45.5");
        let cols = [
            Column::new("at", "At", Kind::Timestamp),
            Column::new("amount", "Amount", Kind::Money),
            Column::new("none", "None", Kind::Text),
        ];
        let record =
            Record::of(&cols, vec![Cell::Timestamp(t), Cell::Money(100_000_000_005), Cell::Empty])
                .with("id", Cell::Int(7));
        assert_eq!(
            serde_json::to_string(&record).unwrap(),
            r#"{"at":"2026-01-02T08:05:00Z","amount":1000000000.05,"none":null,"id":7}"#
        );
    }
}
