//! PDF through `pdf-writer` (docs/decisions-reports.md): landscape Letter, the DejaVu Sans
//! Condensed TrueType fonts shipped in the binary and embedded in every file, title, the
//! filters used, when (caller's local time) and by whom, a header row repeated on every
//! page, a totals row, "Page X of Y".
//!
//! The fonts are simple TrueType fonts with WinAnsiEncoding: every Latin-1 character (and
//! the typographic quotes and dashes) prints; anything else prints as `?`. Pages are laid
//! out as they come (each page's content compressed at once); the footers, which need the
//! page count, are small second content streams written at the end.

use std::{io::Write, sync::LazyLock};

use pdf_writer::{types::FontFlags, Content, Filter, Finish, Name, Pdf, Rect, Ref, Str, TextStr};

use super::{Cell, Column, Kind, Meta, Rows};

static REGULAR_TTF: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSansCondensed.ttf");
static BOLD_TTF: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSansCondensed-Bold.ttf");

/// Landscape Letter, in points.
const PAGE_W: f32 = 792.0;
const PAGE_H: f32 = 612.0;
const MARGIN: f32 = 30.0;
const TITLE_SIZE: f32 = 13.0;
const META_SIZE: f32 = 7.5;
const FOOTER_SIZE: f32 = 7.0;
const CELL_PAD: f32 = 2.5;

/// Widths (1/1000 em) of WinAnsi codes, and the descriptor figures, read from a TTF once.
struct Font {
    name: &'static str,
    data: &'static [u8],
    widths: [f32; 256],
    ascent: f32,
    descent: f32,
    cap_height: f32,
    bbox: [f32; 4],
    /// The font file, zlib-compressed once per process.
    compressed: Vec<u8>,
}

impl Font {
    fn load(name: &'static str, data: &'static [u8]) -> Font {
        let face = ttf_parser::Face::parse(data, 0).expect("the shipped font parses");
        let scale = 1000.0 / face.units_per_em() as f32;
        let space = face.glyph_index(' ').and_then(|g| face.glyph_hor_advance(g)).unwrap_or(0)
            as f32
            * scale;
        let mut widths = [space; 256];
        for (code, w) in widths.iter_mut().enumerate().skip(32) {
            if let Some(c) = decode(code as u8) {
                if let Some(adv) = face.glyph_index(c).and_then(|g| face.glyph_hor_advance(g)) {
                    *w = adv as f32 * scale;
                }
            }
        }
        let b = face.global_bounding_box();
        Font {
            name,
            data,
            widths,
            ascent: face.ascender() as f32 * scale,
            descent: face.descender() as f32 * scale,
            cap_height: face.capital_height().unwrap_or(face.ascender()) as f32 * scale,
            bbox: [
                b.x_min as f32 * scale,
                b.y_min as f32 * scale,
                b.x_max as f32 * scale,
                b.y_max as f32 * scale,
            ],
            compressed: miniz_oxide::deflate::compress_to_vec_zlib(data, 6),
        }
    }

    /// Width in points of WinAnsi bytes at `size`.
    fn measure(&self, bytes: &[u8], size: f32) -> f32 {
        bytes.iter().map(|b| self.widths[*b as usize]).sum::<f32>() * size / 1000.0
    }
}

static REGULAR: LazyLock<Font> = LazyLock::new(|| Font::load("DejaVuSansCondensed", REGULAR_TTF));
static BOLD: LazyLock<Font> = LazyLock::new(|| Font::load("DejaVuSansCondensed-Bold", BOLD_TTF));

/// WinAnsiEncoding's 0x80..0x9F, the codes where it differs from Latin-1.
const CP1252_HIGH: [Option<char>; 32] = [
    Some('€'),
    None,
    Some('‚'),
    Some('ƒ'),
    Some('„'),
    Some('…'),
    Some('†'),
    Some('‡'),
    Some('ˆ'),
    Some('‰'),
    Some('Š'),
    Some('‹'),
    Some('Œ'),
    None,
    Some('Ž'),
    None,
    None,
    Some('‘'),
    Some('’'),
    Some('“'),
    Some('”'),
    Some('•'),
    Some('–'),
    Some('—'),
    Some('˜'),
    Some('™'),
    Some('š'),
    Some('›'),
    Some('œ'),
    None,
    Some('ž'),
    Some('Ÿ'),
];

fn decode(code: u8) -> Option<char> {
    match code {
        0x20..=0x7E | 0xA0..=0xFF => Some(code as char),
        0x80..=0x9F => CP1252_HIGH[(code - 0x80) as usize],
        _ => None,
    }
}

fn encode_char(c: char) -> u8 {
    match c as u32 {
        0x20..=0x7E | 0xA0..=0xFF => c as u8,
        _ => CP1252_HIGH.iter().position(|x| *x == Some(c)).map_or(b'?', |i| 0x80 + i as u8),
    }
}

/// Text as WinAnsi bytes; line breaks (list cells) become "; ".
pub fn encode(text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    for c in text.trim().chars() {
        match c {
            '\n' => out.extend_from_slice(b"; "),
            '\r' => {}
            '\t' => out.push(b' '),
            c => out.push(encode_char(c)),
        }
    }
    out
}

/// `bytes` cut to fit `width` points, with an ellipsis when cut.
fn fit(font: &Font, mut bytes: Vec<u8>, size: f32, width: f32) -> Vec<u8> {
    if font.measure(&bytes, size) <= width {
        return bytes;
    }
    let ellipsis = font.widths[0x85] * size / 1000.0;
    while !bytes.is_empty() && font.measure(&bytes, size) + ellipsis > width {
        bytes.pop();
    }
    bytes.push(0x85);
    bytes
}

/// The body font size to start from: smaller when many columns share the page.
fn body_size(columns: usize) -> f32 {
    match columns {
        0..=12 => 7.5,
        13..=16 => 6.5,
        17..=22 => 5.5,
        _ => 4.8,
    }
}

/// The smallest body size the layout goes down to before it stops shrinking.
const MIN_SIZE: f32 = 4.0;
/// What a text column keeps at least, in em, before the font shrinks instead.
const TEXT_MIN_EM: f32 = 7.0;

/// The widest value a column of `kind` prints, as it prints (`Cell::display`): dates and
/// times have one shape, and DejaVu's digits are all one width, so a sample measures them
/// all. Money and counts are measured up to a million dollars (or the column's total when
/// wider); a rarer wider value is drawn smaller rather than cut (`Writer::cells`). None for
/// text, which may be cut.
fn value_sample(kind: Kind) -> Option<&'static str> {
    match kind {
        Kind::Text => None,
        Kind::Date => Some("2026-12-28"),
        Kind::Timestamp => Some("2026-12-28 23:59"),
        Kind::Money => Some("-999999.99"),
        Kind::Int => Some("9999999"),
        Kind::Number => Some("-99999.99"),
        Kind::Percent => Some("100.0"),
    }
}

/// Body font size and column widths. Dates, times and numbers get the width their widest
/// value needs first (and their header when there is room); text columns share the rest
/// and are the only ones cut. When the rest leaves text columns less than
/// `TEXT_MIN_EM` each, the font shrinks (the page is already landscape). Widths fill the page.
fn layout(columns: &[Column], totals: Option<&[Cell]>, minutes_offset: i32) -> (f32, Vec<f32>) {
    let usable = PAGE_W - 2.0 * MARGIN;
    let mut size = body_size(columns.len());
    loop {
        let header: Vec<f32> = columns
            .iter()
            .map(|c| BOLD.measure(&encode(&c.header), size) + 2.0 * CELL_PAD)
            .collect();
        // The width a column's values need, None for text.
        let need: Vec<Option<f32>> = columns
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let sample = REGULAR.measure(&encode(value_sample(c.kind)?), size);
                let total = totals
                    .and_then(|t| t.get(i))
                    .map_or(0.0, |t| BOLD.measure(&encode(&t.display(minutes_offset)), size));
                Some(sample.max(total) + 2.0 * CELL_PAD)
            })
            .collect();
        let texts = need.iter().filter(|n| n.is_none()).count() as f32;
        let text_min = TEXT_MIN_EM * size;
        for whole_headers in [true, false] {
            let fixed: Vec<Option<f32>> = need
                .iter()
                .zip(&header)
                .map(|(n, h)| n.map(|v| if whole_headers { v.max(*h) } else { v }))
                .collect();
            let rest = usable - fixed.iter().flatten().sum::<f32>();
            if rest >= texts * text_min || (!whole_headers && size <= MIN_SIZE) {
                return (size, share_out(&fixed, &header, rest, size, usable));
            }
        }
        size = (size - 0.5).max(MIN_SIZE);
    }
}

/// Widths: `fixed` as given; text columns a fair share of `rest` (each up to what its
/// header or a usual text wants); what is left spread over every column, to fill the page.
fn share_out(fixed: &[Option<f32>], header: &[f32], rest: f32, size: f32, usable: f32) -> Vec<f32> {
    let text_want = |i: usize| header[i].max(3.0 * size * 4.2);
    let want_sum: f32 = (0..fixed.len()).filter(|i| fixed[*i].is_none()).map(text_want).sum();
    let rest = rest.max(0.0);
    let mut widths: Vec<f32> = fixed
        .iter()
        .enumerate()
        .map(|(i, f)| match f {
            Some(w) => *w,
            // Less room than the text columns want: shared in proportion to their wants.
            None if want_sum > rest => rest * text_want(i) / want_sum,
            None => text_want(i),
        })
        .collect();
    let sum: f32 = widths.iter().sum();
    // Fill the page (or, past the smallest font, fit it): every column in proportion.
    let scale = usable / sum.max(1.0);
    for w in &mut widths {
        *w *= scale;
    }
    widths
}

struct Writer<'a> {
    meta: &'a Meta,
    columns: &'a [Column],
    widths: Vec<f32>,
    size: f32,
    row_h: f32,
    pages: Vec<Vec<u8>>,
    page: Content,
    y: f32,
    rows_on_page: usize,
}

impl<'a> Writer<'a> {
    fn new(meta: &'a Meta, columns: &'a [Column], totals: Option<&[Cell]>) -> Self {
        let (size, widths) = layout(columns, totals, meta.minutes_offset);
        let mut w = Writer {
            meta,
            columns,
            widths,
            size,
            row_h: size * 1.45,
            pages: Vec::new(),
            page: Content::new(),
            y: 0.0,
            rows_on_page: 0,
        };
        w.start_page();
        w
    }

    fn text(&mut self, font: &[u8], size: f32, x: f32, y: f32, bytes: &[u8]) {
        self.page.begin_text();
        self.page.set_font(Name(font), size);
        self.page.next_line(x, y);
        self.page.show(Str(bytes));
        self.page.end_text();
    }

    fn start_page(&mut self) {
        self.page = Content::new();
        self.page.set_fill_gray(0.0);
        let mut y = PAGE_H - MARGIN - TITLE_SIZE;
        self.text(b"F2", TITLE_SIZE, MARGIN, y, &encode(&self.meta.title));
        y -= META_SIZE * 1.6;
        let filters =
            fit(&REGULAR, encode(&self.meta.filters_line()), META_SIZE, PAGE_W - 2.0 * MARGIN);
        self.text(b"F1", META_SIZE, MARGIN, y, &filters);
        y -= META_SIZE * 1.4;
        self.text(b"F1", META_SIZE, MARGIN, y, &encode(&self.meta.generated_line()));
        y -= META_SIZE * 1.2 + self.row_h;
        // Header row on a tinted band.
        self.page.set_fill_rgb(0.86, 0.91, 0.95);
        self.page.rect(MARGIN, y - self.size * 0.45, PAGE_W - 2.0 * MARGIN, self.row_h);
        self.page.fill_nonzero();
        self.page.set_fill_gray(0.0);
        let headers: Vec<(Vec<u8>, bool)> =
            self.columns.iter().map(|c| (encode(&c.header), c.kind.is_numeric())).collect();
        self.cells(b"F2", y, headers, |_| false);
        self.y = y - self.row_h;
        self.rows_on_page = 0;
    }

    /// One line of cells at baseline `y`: numbers right-aligned; text cut to its column,
    /// dates, times and numbers never (one wider than its column prints smaller).
    fn cells(
        &mut self,
        font_name: &[u8],
        y: f32,
        cells: Vec<(Vec<u8>, bool)>,
        whole: impl Fn(usize) -> bool,
    ) {
        let font: &Font = if font_name == b"F2" { &BOLD } else { &REGULAR };
        let mut x = MARGIN;
        for (i, (bytes, right)) in cells.into_iter().enumerate() {
            let w = self.widths.get(i).copied().unwrap_or(0.0);
            let room = (w - 2.0 * CELL_PAD).max(0.0);
            let (bytes, size) = if whole(i) {
                let width = font.measure(&bytes, self.size);
                let size =
                    if width > room && width > 0.0 { self.size * room / width } else { self.size };
                (bytes, size)
            } else {
                (fit(font, bytes, self.size, room), self.size)
            };
            let tx =
                if right { x + w - CELL_PAD - font.measure(&bytes, size) } else { x + CELL_PAD };
            if !bytes.is_empty() {
                self.text(font_name, size, tx, y, &bytes);
            }
            x += w;
        }
    }

    /// Whether column `i`'s values print whole (all but text).
    fn whole(columns: &[Column]) -> impl Fn(usize) -> bool + '_ {
        |i| columns.get(i).is_some_and(|c| c.kind != Kind::Text)
    }

    fn finish_page(&mut self) {
        let content = std::mem::replace(&mut self.page, Content::new()).finish();
        self.pages.push(miniz_oxide::deflate::compress_to_vec_zlib(&content, 6));
    }

    fn room_for_row(&mut self) {
        if self.y < MARGIN + FOOTER_SIZE * 2.5 {
            self.finish_page();
            self.start_page();
        }
    }

    fn row(&mut self, row: &[Cell]) {
        self.room_for_row();
        if self.rows_on_page % 2 == 1 {
            self.page.set_fill_gray(0.95);
            self.page.rect(MARGIN, self.y - self.size * 0.45, PAGE_W - 2.0 * MARGIN, self.row_h);
            self.page.fill_nonzero();
            self.page.set_fill_gray(0.0);
        }
        let offset = self.meta.minutes_offset;
        let cells = self
            .columns
            .iter()
            .enumerate()
            .map(|(i, c)| {
                (
                    encode(&row.get(i).map(|v| v.display(offset)).unwrap_or_default()),
                    c.kind.is_numeric(),
                )
            })
            .collect();
        let y = self.y;
        let columns = self.columns;
        self.cells(b"F1", y, cells, Self::whole(columns));
        self.y -= self.row_h;
        self.rows_on_page += 1;
    }

    fn totals(&mut self, totals: &[Cell]) {
        self.room_for_row();
        let top = self.y + self.row_h - self.size * 0.45;
        self.page.set_line_width(0.6);
        self.page.move_to(MARGIN, top);
        self.page.line_to(PAGE_W - MARGIN, top);
        self.page.stroke();
        let offset = self.meta.minutes_offset;
        let cells = self
            .columns
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let text = match totals.get(i) {
                    Some(Cell::Empty) | None if i == 0 => "Total".to_owned(),
                    Some(v) => v.display(offset),
                    None => String::new(),
                };
                (encode(&text), c.kind.is_numeric())
            })
            .collect();
        let y = self.y;
        let columns = self.columns;
        self.cells(b"F2", y, cells, |i| i > 0 && Self::whole(columns)(i));
        self.y -= self.row_h;
    }

    fn empty_note(&mut self) {
        let y = self.y;
        self.text(b"F1", self.size, MARGIN + CELL_PAD, y, b"No rows match these filters.");
        self.y -= self.row_h;
    }
}

fn write_font(pdf: &mut Pdf, font: &Font, font_id: Ref, descriptor_id: Ref, file_id: Ref) {
    let mut dict = pdf.indirect(font_id).dict();
    dict.pair(Name(b"Type"), Name(b"Font"));
    dict.pair(Name(b"Subtype"), Name(b"TrueType"));
    dict.pair(Name(b"BaseFont"), Name(font.name.as_bytes()));
    dict.pair(Name(b"FirstChar"), 32);
    dict.pair(Name(b"LastChar"), 255);
    dict.insert(Name(b"Widths")).array().items(font.widths[32..].iter().copied());
    dict.pair(Name(b"Encoding"), Name(b"WinAnsiEncoding"));
    dict.pair(Name(b"FontDescriptor"), descriptor_id);
    dict.finish();
    pdf.font_descriptor(descriptor_id)
        .name(Name(font.name.as_bytes()))
        .flags(FontFlags::NON_SYMBOLIC)
        .bbox(Rect::new(font.bbox[0], font.bbox[1], font.bbox[2], font.bbox[3]))
        .italic_angle(0.0)
        .ascent(font.ascent)
        .descent(font.descent)
        .cap_height(font.cap_height)
        .stem_v(80.0)
        .font_file2(file_id);
    pdf.stream(file_id, &font.compressed)
        .filter(Filter::FlateDecode)
        .pair(Name(b"Length1"), font.data.len() as i32);
}

/// Writes the whole PDF of `rows` into `out` (runs on a blocking thread).
pub fn write(
    meta: &Meta,
    columns: &[Column],
    rows: Rows,
    totals: Option<&[Cell]>,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let mut w = Writer::new(meta, columns, totals);
    let mut count = 0usize;
    rows.for_each(|row| {
        w.row(&row);
        count += 1;
        Ok(())
    })?;
    if count == 0 {
        w.empty_note();
    }
    if let Some(t) = totals {
        w.totals(t);
    }
    w.finish_page();

    let pages = std::mem::take(&mut w.pages);
    let n = pages.len();
    let mut pdf = Pdf::new();
    let mut next = Ref::new(1);
    let mut id = || next.bump();
    let (catalog, tree, info) = (id(), id(), id());
    let fonts = [(id(), id(), id()), (id(), id(), id())];
    let page_ids: Vec<(Ref, Ref, Ref)> = (0..n).map(|_| (id(), id(), id())).collect();
    pdf.catalog(catalog).pages(tree);
    pdf.pages(tree).kids(page_ids.iter().map(|p| p.0)).count(n as i32);
    for (i, (body, (page_id, body_id, footer_id))) in
        pages.into_iter().zip(page_ids.iter().copied()).enumerate()
    {
        let mut page = pdf.page(page_id);
        page.media_box(Rect::new(0.0, 0.0, PAGE_W, PAGE_H));
        page.parent(tree);
        page.insert(Name(b"Contents")).array().items([body_id, footer_id]);
        page.resources().fonts().pair(Name(b"F1"), fonts[0].0).pair(Name(b"F2"), fonts[1].0);
        page.finish();
        pdf.stream(body_id, &body).filter(Filter::FlateDecode);
        let mut footer = Content::new();
        let label = format!("Page {} of {}", i + 1, n);
        let bytes = encode(&label);
        let x = PAGE_W - MARGIN - REGULAR.measure(&bytes, FOOTER_SIZE);
        footer.set_fill_gray(0.3);
        footer.begin_text();
        footer.set_font(Name(b"F1"), FOOTER_SIZE);
        footer.next_line(x, MARGIN * 0.6);
        footer.show(Str(&bytes));
        footer.end_text();
        footer.begin_text();
        footer.set_font(Name(b"F1"), FOOTER_SIZE);
        footer.next_line(MARGIN, MARGIN * 0.6);
        footer.show(Str(&encode(&format!("{} · {}", meta.title, meta.generated_line()))));
        footer.end_text();
        pdf.stream(footer_id, &footer.finish());
    }
    write_font(&mut pdf, &REGULAR, fonts[0].0, fonts[0].1, fonts[0].2);
    write_font(&mut pdf, &BOLD, fonts[1].0, fonts[1].1, fonts[1].2);
    pdf.document_info(info)
        .title(TextStr(&meta.title))
        .author(TextStr(&meta.generated_by))
        .creator(TextStr("MentorPay"));
    out.write_all(&pdf.finish())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_encodes_to_win_ansi() {
        assert_eq!(encode("Café – “ok” €5"), b"Caf\xE9 \x96 \x93ok\x94 \x805".to_vec());
        assert_eq!(encode("a\nb"), b"a; b".to_vec());
        assert_eq!(encode("日本"), b"??".to_vec());
        for code in 0x20u8..=0xFF {
            if let Some(c) = decode(code) {
                assert_eq!(encode_char(c), code, "{c:?}");
            }
        }
    }

    #[test]
    fn long_text_is_cut_with_an_ellipsis() {
        let cut = fit(&REGULAR, encode("A rather long description of a workshop"), 7.5, 40.0);
        assert_eq!(cut.last(), Some(&0x85));
        assert!(REGULAR.measure(&cut, 7.5) <= 40.0);
        assert_eq!(fit(&REGULAR, b"Ok".to_vec(), 7.5, 40.0), b"Ok".to_vec());
    }

    #[test]
    fn columns_fill_the_page_width() {
        let cols = [
            Column::new("a", "Request", Kind::Int),
            Column::new("b", "Payee", Kind::Text),
            Column::new("c", "Approved", Kind::Money),
        ];
        let (size, widths) = layout(&cols, None, 0);
        assert_eq!(size, 7.5);
        let sum: f32 = widths.iter().sum();
        assert!((sum - (PAGE_W - 2.0 * MARGIN)).abs() < 0.5, "{sum}");
        assert!(widths[1] > widths[0]);
    }

    /// Every report's columns (each form's export with its details, the participants
    /// export with every column): dates, times and money fit whole at the chosen size.
    #[test]
    fn dates_and_money_always_get_their_width() {
        use crate::{forms::FormType, reports};
        let mut tables: Vec<Vec<Column>> = reports::all().into_iter().map(|(_, c)| c).collect();
        for form in FormType::ALL {
            let mut columns = reports::by_type::common_columns();
            columns.extend(reports::details::columns(form));
            tables.push(columns);
        }
        let widest = tables.iter().map(Vec::len).max().unwrap();
        assert!(widest >= 20, "the widest export has {widest} columns");
        for columns in &tables {
            let totals: Vec<Cell> =
                columns
                    .iter()
                    .map(|c| {
                        if c.kind == Kind::Money {
                            Cell::Money(12_345_678_900)
                        } else {
                            Cell::Empty
                        }
                    })
                    .collect();
            let (size, widths) = layout(columns, Some(&totals), 0);
            assert!(size >= MIN_SIZE);
            let sum: f32 = widths.iter().sum();
            assert!((sum - (PAGE_W - 2.0 * MARGIN)).abs() < 0.5, "{sum}");
            for ((c, w), t) in columns.iter().zip(&widths).zip(&totals) {
                let room = w - 2.0 * CELL_PAD + 0.01;
                if let Some(sample) = value_sample(c.kind) {
                    assert!(
                        REGULAR.measure(&encode(sample), size) <= room,
                        "{} ({:?}) at {size}: {w}",
                        c.header,
                        c.kind
                    );
                    assert!(
                        BOLD.measure(&encode(&t.display(0)), size) <= room,
                        "{} total",
                        c.header
                    );
                } else {
                    assert!(
                        *w >= TEXT_MIN_EM * size * 0.99,
                        "{}: text keeps {w} at {size}",
                        c.header
                    );
                }
            }
        }
        // Dozens of date columns: the font goes down to its floor and the widths still fit the page.
        let many: Vec<Column> = (0..40)
            .map(|i| Column::owned(format!("d{i}"), format!("Day {i}"), Kind::Date))
            .collect();
        let (size, widths) = layout(&many, None, 0);
        assert_eq!(size, MIN_SIZE);
        assert!((widths.iter().sum::<f32>() - (PAGE_W - 2.0 * MARGIN)).abs() < 0.5);
    }
}
