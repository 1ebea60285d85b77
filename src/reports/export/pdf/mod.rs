//! PDF through `pdf-writer` (docs/decisions-reports.md): landscape Letter; the title, the
//! filters used, when (caller's local time) and by whom; a table whose header row repeats
//! on every page, a totals row, "Page X of Y".
//!
//! Nothing is cut: column widths follow what the first rows and the headers hold
//! (`layout`), text wraps within its column and the row grows; dates, times and numbers
//! print whole on one line, money as `$174,080.55`. The fonts (`font`) are subset to the
//! glyphs used. The file is tagged (`tags`): language, title, and a structure tree of the
//! table in reading order. Pages go out as they are laid out (`file`): memory holds one
//! page and a few ids per page, whatever the number of rows.

// The file frame, the fonts and the wrapping serve the other documents too (packets).
pub mod file;
pub mod font;
pub mod layout;
pub mod tags;

use std::io::Write;

use pdf_writer::{
    types::TabOrder, writers::DocumentInfo, Chunk, Content, Filter, Finish, Name, Rect, Ref, Str,
    TextStr,
};

use self::{
    file::File,
    font::{Face, Used, BOLD, REGULAR},
    layout::Need,
    tags::{Block, Tags},
};
use super::{Cell, Column, Frame, Kind, Meta, Row, Rows};

/// Landscape Letter, in points.
const PAGE_W: f32 = 792.0;
const PAGE_H: f32 = 612.0;
const MARGIN: f32 = 30.0;
const USABLE: f32 = PAGE_W - 2.0 * MARGIN;
const TITLE_SIZE: f32 = 13.0;
const META_SIZE: f32 = 7.5;
const FOOTER_SIZE: f32 = 7.0;
/// Room left and right of a cell's text, and above and below its lines.
const CELL_PAD: f32 = 2.5;
const CELL_VPAD: f32 = 1.5;
/// Line height, and the first baseline below a line's top, per point of size.
const LEADING: f32 = 1.2;
const BASELINE: f32 = 0.95;
/// The body size: from the first down to the second as columns crowd the page.
const SIZES: (f32, f32) = (7.5, 4.0);
/// Rows measured for the column widths before the first page goes out.
const SAMPLE: usize = 300;
/// The lowest a row may reach: the footer lives below.
const BOTTOM: f32 = MARGIN + FOOTER_SIZE * 2.0;

/// Writes the PDF of `rows` into `out` as it goes (runs on a blocking thread).
pub fn write(frame: Frame, rows: Rows, out: &mut impl Write) -> anyhow::Result<()> {
    let mut doc = Doc::new(frame, out)?;
    rows.for_each(|row| doc.push(row))?;
    doc.finish()
}

/// The widths, once measured, and what they make of the header row.
struct Table {
    size: f32,
    widths: Vec<f32>,
    header: Vec<Vec<String>>,
}

/// Where the current page stands.
struct Page {
    content: Content,
    /// The top of the next row.
    y: f32,
    blocks: Vec<Block>,
    next_mcid: i32,
    rows: usize,
}

struct Doc<'a, W: Write> {
    meta: &'a Meta,
    columns: &'a [Column],
    totals: Option<&'a [Cell]>,
    file: File<&'a mut W>,
    regular: Used,
    bold: Used,
    /// The Type0 fonts the pages name F1 and F2, each with its four further objects.
    font_ids: [[Ref; 5]; 2],
    catalog: Ref,
    info: Ref,
    page_tree: Ref,
    tags: Tags,
    /// Each page and its footer (written last, when the count is known).
    pages: Vec<(Ref, Ref)>,
    sample: Vec<Row>,
    table: Option<Table>,
    page: Page,
}

impl<'a, W: Write> Doc<'a, W> {
    fn new(frame: Frame<'a>, out: &'a mut W) -> anyhow::Result<Self> {
        let Frame { meta, columns, totals } = frame;
        let mut file = File::new(out)?;
        let mut five = || {
            let first = file.ids(5).get();
            [0, 1, 2, 3, 4].map(|i| Ref::new(first + i))
        };
        let font_ids = [five(), five()];
        let (catalog, info, page_tree) = (file.id(), file.id(), file.id());
        let tags = Tags::new(file.id(), file.id(), file.id());
        Ok(Doc {
            meta,
            columns,
            totals,
            file,
            regular: Used::new(&REGULAR),
            bold: Used::new(&BOLD),
            font_ids,
            catalog,
            info,
            page_tree,
            tags,
            pages: Vec::new(),
            sample: Vec::with_capacity(SAMPLE),
            table: None,
            page: Page { content: Content::new(), y: 0.0, blocks: vec![], next_mcid: 0, rows: 0 },
        })
    }

    fn push(&mut self, row: Row) -> anyhow::Result<()> {
        if self.table.is_none() {
            self.sample.push(row);
            if self.sample.len() == SAMPLE {
                self.lay_out()?;
            }
            return Ok(());
        }
        self.row(&row, false)
    }

    /// Measures the sample (and the totals), fixes the widths, starts the first page and
    /// prints the sampled rows.
    fn lay_out(&mut self) -> anyhow::Result<()> {
        let offset = self.meta.minutes_offset;
        let mut needs: Vec<Need> = self
            .columns
            .iter()
            .map(|c| {
                let (header, word) = layout::extent(&c.header, |t| BOLD.measure(t, 1.0));
                Need { whole: c.kind != Kind::Text, widest: 0.0, word, header }
            })
            .collect();
        let see = |need: &mut Need, cell: &Cell, face: &Face| {
            let text = cell.printed(offset);
            let (line, word) = layout::extent(&text, |t| face.measure(t, 1.0));
            if need.whole {
                need.saw(face.measure(text.trim(), 1.0), 0.0);
            } else {
                need.saw(line, word);
            }
        };
        for row in &self.sample {
            for (need, cell) in needs.iter_mut().zip(row) {
                see(need, cell, &REGULAR);
            }
        }
        for (need, cell) in needs.iter_mut().zip(self.totals.unwrap_or_default()) {
            see(need, cell, &BOLD);
        }
        let (size, widths) = layout::widths(&needs, USABLE, CELL_PAD, SIZES);
        let header = self
            .columns
            .iter()
            .zip(&widths)
            .map(|(c, w)| layout::wrap(&c.header, w - 2.0 * CELL_PAD, |t| BOLD.measure(t, size)))
            .collect();
        self.table = Some(Table { size, widths, header });
        self.start_page()?;
        for row in std::mem::take(&mut self.sample) {
            self.row(&row, false)?;
        }
        Ok(())
    }

    fn table(&self) -> &Table {
        self.table.as_ref().expect("laid out before the first page")
    }

    fn mcid(&mut self) -> i32 {
        self.page.next_mcid += 1;
        self.page.next_mcid - 1
    }

    /// Text at a baseline, in F1 (regular) or F2 (bold).
    fn text(&mut self, bold: bool, size: f32, x: f32, y: f32, text: &str) {
        let codes = if bold { self.bold.encode(text) } else { self.regular.encode(text) };
        let c = &mut self.page.content;
        c.begin_text();
        c.set_font(Name(if bold { b"F2" } else { b"F1" }), size);
        c.next_line(x, y);
        c.show(Str(&codes));
        c.end_text();
    }

    /// Title, filters, who and when, then the header row: tagged on the first page,
    /// artifacts (a running header) on the others.
    fn start_page(&mut self) -> anyhow::Result<()> {
        let first = self.pages.is_empty();
        self.page =
            Page { content: Content::new(), y: 0.0, blocks: Vec::new(), next_mcid: 0, rows: 0 };
        let mut y = PAGE_H - MARGIN - TITLE_SIZE;
        let filters =
            layout::wrap(&self.meta.filters_line(), USABLE, |t| REGULAR.measure(t, META_SIZE));
        let lines: Vec<(bool, f32, Vec<String>)> = vec![
            (true, TITLE_SIZE, vec![self.meta.title.clone()]),
            (false, META_SIZE, filters),
            (false, META_SIZE, vec![self.meta.generated_line()]),
        ];
        for (i, (bold, size, texts)) in lines.into_iter().enumerate() {
            if i == 0 {
                self.begin(first, Block::Heading);
            } else {
                self.begin(first, Block::Paragraph);
            }
            for (j, line) in texts.iter().enumerate() {
                if j > 0 {
                    y -= size * LEADING;
                }
                self.text(bold, size, MARGIN, y, line);
            }
            self.page.content.end_marked_content();
            y -= if i == 0 { META_SIZE * 1.8 } else { META_SIZE * LEADING };
        }
        self.page.y = y - META_SIZE * 0.6;
        self.header_row(first);
        Ok(())
    }

    /// Opens the marked content of a tagged block (`block` given its id) on the first
    /// page, or an artifact on later ones.
    fn begin(&mut self, tagged: bool, block: fn(i32) -> Block) {
        if tagged {
            let mcid = self.mcid();
            let block = block(mcid);
            let name: &[u8] = if matches!(block, Block::Heading(_)) { b"H1" } else { b"P" };
            self.page.blocks.push(block);
            self.page
                .content
                .begin_marked_content_with_properties(Name(name))
                .properties()
                .identify(mcid);
        } else {
            self.page.content.begin_marked_content(Name(b"Artifact"));
        }
    }

    fn header_row(&mut self, tagged: bool) {
        let t = self.table();
        let (size, lines) = (t.size, t.header.iter().map(Vec::len).max().unwrap_or(1).max(1));
        let height = lines as f32 * size * LEADING + 2.0 * CELL_VPAD;
        let top = self.page.y;
        self.band(top, height, (0.86, 0.91, 0.95));
        if !tagged {
            self.page.content.begin_marked_content(Name(b"Artifact"));
        }
        let header = self.table().header.clone();
        let cells: Vec<(Vec<String>, f32)> = header.into_iter().map(|l| (l, size)).collect();
        let marks = self.cells(top, true, tagged.then_some(b"TH"), cells);
        if tagged {
            self.page.blocks.push(Block::Row { header: true, cells: marks });
        } else {
            self.page.content.end_marked_content();
        }
        self.page.y = top - height;
    }

    /// A filled band behind a row (an artifact: decoration, not content).
    fn band(&mut self, top: f32, height: f32, (r, g, b): (f32, f32, f32)) {
        let c = &mut self.page.content;
        c.begin_marked_content(Name(b"Artifact"));
        c.set_fill_rgb(r, g, b);
        c.rect(MARGIN, top - height, USABLE, height);
        c.fill_nonzero();
        c.set_fill_gray(0.0);
        c.end_marked_content();
    }

    /// Draws one row's cells from `top` (each its lines at a size), numbers right-aligned;
    /// tagged (`tag`: TH or TD) each in its own marked content. The cells' marked-content ids.
    fn cells(
        &mut self,
        top: f32,
        bold: bool,
        tag: Option<&'static [u8; 2]>,
        cells: Vec<(Vec<String>, f32)>,
    ) -> Vec<Option<i32>> {
        let widths = self.table().widths.clone();
        let line_h = self.table().size * LEADING;
        let mut x = MARGIN;
        let mut marks = Vec::with_capacity(cells.len());
        for (i, (lines, size)) in cells.into_iter().enumerate() {
            let w = widths.get(i).copied().unwrap_or(0.0);
            let right = self.columns.get(i).is_some_and(|c| c.kind.is_numeric());
            if lines.is_empty() {
                marks.push(None);
                x += w;
                continue;
            }
            let mcid = tag.map(|name| {
                let m = self.mcid();
                self.page
                    .content
                    .begin_marked_content_with_properties(Name(name))
                    .properties()
                    .identify(m);
                m
            });
            marks.push(mcid);
            let face: &Face = if bold { &BOLD } else { &REGULAR };
            for (j, line) in lines.iter().enumerate() {
                let y = top - CELL_VPAD - self.table().size * BASELINE - j as f32 * line_h;
                let tx =
                    if right { x + w - CELL_PAD - face.measure(line, size) } else { x + CELL_PAD };
                self.text(bold, size, tx, y, line);
            }
            if tag.is_some() {
                self.page.content.end_marked_content();
            }
            x += w;
        }
        marks
    }

    /// A cell's lines: text wrapped to its column; whole values on one line, smaller when
    /// wider than the column.
    fn lay_cell(&self, i: usize, text: &str, face: &Face) -> (Vec<String>, f32) {
        let t = self.table();
        let room = t.widths.get(i).copied().unwrap_or(0.0) - 2.0 * CELL_PAD;
        let whole = self.columns.get(i).is_some_and(|c| c.kind != Kind::Text);
        let text = text.trim();
        if text.is_empty() {
            return (Vec::new(), t.size);
        }
        if whole {
            let width = face.measure(text, t.size);
            let size = if width > room && width > 0.0 { t.size * room / width } else { t.size };
            return (vec![text.to_owned()], size);
        }
        (layout::wrap(text, room, |s| face.measure(s, t.size)), t.size)
    }

    /// A data row (`total`: the bold totals row under a rule), on a new page when it does
    /// not fit on this one.
    fn row(&mut self, row: &[Cell], total: bool) -> anyhow::Result<()> {
        let offset = self.meta.minutes_offset;
        let face: &Face = if total { &BOLD } else { &REGULAR };
        let mut cells: Vec<(Vec<String>, f32)> = (0..self.columns.len())
            .map(|i| {
                let text = match row.get(i) {
                    Some(Cell::Empty) | None if total && i == 0 => "Total".to_owned(),
                    Some(cell) => cell.printed(offset),
                    None => String::new(),
                };
                self.lay_cell(i, &text, face)
            })
            .collect();
        let size = self.table().size;
        let line_h = size * LEADING;
        let lines = |cells: &[(Vec<String>, f32)]| {
            cells.iter().map(|c| c.0.len()).max().unwrap_or(1).max(1)
        };
        let mut height = lines(&cells) as f32 * line_h + 2.0 * CELL_VPAD;
        if self.page.y - height < BOTTOM && self.page.rows > 0 {
            self.finish_page()?;
            self.start_page()?;
        }
        // Taller than a whole page (thousands of characters in a narrow column): what fits.
        let room = self.page.y - BOTTOM;
        if height > room {
            let keep = (((room - 2.0 * CELL_VPAD) / line_h).floor() as usize).max(1);
            for (lines, _) in &mut cells {
                if lines.len() > keep {
                    lines.truncate(keep);
                    if let Some(last) = lines.last_mut() {
                        last.push('…');
                    }
                }
            }
            height = lines(&cells) as f32 * line_h + 2.0 * CELL_VPAD;
        }
        let top = self.page.y;
        if total {
            let c = &mut self.page.content;
            c.begin_marked_content(Name(b"Artifact"));
            c.set_line_width(0.6);
            c.move_to(MARGIN, top);
            c.line_to(PAGE_W - MARGIN, top);
            c.stroke();
            c.end_marked_content();
        } else if self.page.rows % 2 == 1 {
            self.band(top, height, (0.95, 0.95, 0.95));
        }
        self.page.rows += 1;
        let marks = self.cells(top, total, Some(b"TD"), cells);
        self.page.blocks.push(Block::Row { header: false, cells: marks });
        self.page.y = top - height;
        Ok(())
    }

    fn empty_note(&mut self) {
        let y = self.page.y - CELL_VPAD - self.table().size * BASELINE;
        let size = self.table().size;
        self.begin(true, Block::Paragraph);
        self.text(false, size, MARGIN + CELL_PAD, y, "No rows match these filters.");
        self.page.content.end_marked_content();
        self.page.y -= size * LEADING + 2.0 * CELL_VPAD;
    }

    /// Sends the page out: its content, the page, its structure elements.
    fn finish_page(&mut self) -> anyhow::Result<()> {
        let content = std::mem::replace(&mut self.page.content, Content::new()).finish();
        let packed = miniz_oxide::deflate::compress_to_vec_zlib(&content, 6);
        let (content_id, page_id, footer_id) = (self.file.id(), self.file.id(), self.file.id());
        let mut chunk = Chunk::new();
        chunk.stream(content_id, &packed).filter(Filter::FlateDecode);
        self.file.object(content_id, &chunk)?;
        let mut chunk = Chunk::new();
        let mut page = chunk.page(page_id);
        page.media_box(Rect::new(0.0, 0.0, PAGE_W, PAGE_H))
            .parent(self.page_tree)
            .struct_parents(self.pages.len() as i32)
            .tab_order(TabOrder::StructureOrder);
        page.insert(Name(b"Contents")).array().items([content_id, footer_id]);
        page.resources()
            .fonts()
            .pair(Name(b"F1"), self.font_ids[0][0])
            .pair(Name(b"F2"), self.font_ids[1][0]);
        page.finish();
        self.file.object(page_id, &chunk)?;
        let blocks = std::mem::take(&mut self.page.blocks);
        let stream = self.file.id();
        let first = self.file.ids(Tags::ids(&blocks));
        let bodies = self.tags.page(page_id, first, &blocks);
        self.file.packed(stream, first, &bodies)?;
        self.pages.push((page_id, footer_id));
        Ok(())
    }

    /// The rest of the file: footers, fonts, page tree, structure, catalog.
    fn finish(mut self) -> anyhow::Result<()> {
        let any = self.table.is_some() || !self.sample.is_empty();
        if self.table.is_none() {
            self.lay_out()?;
        }
        if !any {
            self.empty_note();
        }
        if let Some(t) = self.totals {
            self.row(t, true)?;
        }
        self.finish_page()?;
        let n = self.pages.len();
        for (i, (_, footer_id)) in self.pages.clone().into_iter().enumerate() {
            let mut footer = Content::new();
            footer.begin_marked_content(Name(b"Artifact"));
            footer.set_fill_gray(0.3);
            let label = format!("Page {} of {}", i + 1, n);
            let x = PAGE_W - MARGIN - REGULAR.measure(&label, FOOTER_SIZE);
            let left = format!("{} · {}", self.meta.title, self.meta.generated_line());
            for (x, text) in [(x, label), (MARGIN, left)] {
                footer.begin_text();
                footer.set_font(Name(b"F1"), FOOTER_SIZE);
                footer.next_line(x, MARGIN * 0.6);
                footer.show(Str(&self.regular.encode(&text)));
                footer.end_text();
            }
            footer.end_marked_content();
            let mut chunk = Chunk::new();
            chunk.stream(footer_id, &footer.finish());
            self.file.object(footer_id, &chunk)?;
        }
        for (used, ids) in [(&self.regular, self.font_ids[0]), (&self.bold, self.font_ids[1])] {
            for (id, chunk) in ids.into_iter().zip(used.write(ids)?) {
                self.file.object(id, &chunk)?;
            }
        }
        let mut chunk = Chunk::new();
        chunk.pages(self.page_tree).kids(self.pages.iter().map(|p| p.0)).count(n as i32);
        self.file.object(self.page_tree, &chunk)?;
        let [root, document, table] = self.tags.objects();
        self.file.object(self.tags.root, &root)?;
        self.file.object(self.tags.document, &document)?;
        self.file.object(self.tags.table, &table)?;
        let catalog = file::tagged_catalog(self.catalog, self.page_tree, self.tags.root);
        self.file.object(self.catalog, &catalog)?;
        let mut chunk = Chunk::new();
        chunk
            .indirect(self.info)
            .start::<DocumentInfo>()
            .title(TextStr(&self.meta.title))
            .author(TextStr(&self.meta.generated_by))
            .creator(TextStr("MentorPay"));
        self.file.object(self.info, &chunk)?;
        self.file.finish(self.catalog, self.info)?;
        Ok(())
    }
}

// The integration tests' reader of PDFs, so both check a file the same way.
#[cfg(test)]
#[path = "../../../../tests/integration/common/poppler.rs"]
mod poppler;

#[cfg(test)]
mod tests {
    use super::poppler::{info, poppler};
    use super::*;

    fn columns() -> Vec<Column> {
        vec![
            Column::new("requestId", "Request", Kind::Int),
            Column::new("payee", "Payee", Kind::Text),
            Column::new("payeeAddress", "Payee address", Kind::Text),
            Column::new("approvedAt", "Approved on", Kind::Date),
            Column::new("amount", "Amount", Kind::Money),
        ]
    }

    const ADDRESS: &str = "4221 Main Street, Suite 1200, Sacramento, CA 95814-2217 (deliveries at the loading dock behind the county building)";

    fn row(i: i64) -> Row {
        vec![
            Cell::Int(i),
            Cell::Text(format!("Payee Ünal Ωmega {i}")),
            Cell::Text(ADDRESS.into()),
            Cell::Date(chrono::NaiveDate::from_ymd_opt(2026, 3, 1).unwrap()),
            Cell::Money(17_408_055),
        ]
    }

    fn pdf(rows: Vec<Row>, totals: Option<&[Cell]>) -> Vec<u8> {
        let mut out = Vec::new();
        write(Frame::new(&Meta::example(), &columns(), totals), Rows::from_vec(rows), &mut out)
            .unwrap();
        out
    }

    #[test]
    fn a_one_page_report_cuts_nothing_prints_dollars_and_is_small() {
        let total = [Cell::Empty, Cell::Empty, Cell::Empty, Cell::Empty, Cell::Money(52_224_165)];
        let bytes = pdf((1..=3).map(row).collect(), Some(&total));
        assert!(bytes.len() < 100_000, "{} bytes", bytes.len());
        assert_eq!(info(&bytes, "Pages"), "1");
        let text = poppler(&bytes, "pdftotext", &[]);
        assert!(!text.contains('…'), "nothing is cut:\n{text}");
        let words: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(words.contains("Payee Ünal Ωmega 3"), "any character DejaVu has: {words}");
        for word in ADDRESS.split_whitespace() {
            assert!(text.contains(word), "{word} wraps whole into the cell:\n{text}");
        }
        assert!(text.contains("$174,080.55") && text.contains("$522,241.65"), "{text}");
        assert!(text.contains("Total") && text.contains("Page 1 of 1"), "{text}");
    }

    #[test]
    fn the_table_is_tagged_in_reading_order() {
        let total = [Cell::Empty, Cell::Empty, Cell::Empty, Cell::Empty, Cell::Money(100)];
        let bytes = pdf(vec![row(7)], Some(&total));
        assert_eq!(info(&bytes, "Tagged"), "yes");
        assert_eq!(info(&bytes, "Title"), "Participants");
        let tree = poppler(&bytes, "pdfinfo", &["-struct-text"]);
        let order: Vec<&str> = tree
            .split_whitespace()
            .map(|w| w.trim_end_matches(':'))
            .filter(|w| {
                ["Document", "H1", "P", "Table", "THead", "TBody", "TR", "TH", "TD"].contains(w)
            })
            .collect();
        let mut expected = vec!["Document", "H1", "P", "P", "Table", "THead", "TR"];
        expected.extend(["TH"; 5]);
        expected.extend(["TBody", "TR"]);
        expected.extend(["TD"; 5]);
        expected.push("TR");
        expected.extend(["TD"; 5]);
        assert_eq!(order, expected, "{tree}");
        let request = tree.find("\"7\"").expect("the request id is a cell's text");
        let amount = tree.find("\"$174,080.55\"").expect("the amount is a cell's text");
        assert!(request < amount, "{tree}");
    }

    #[test]
    fn many_rows_go_out_page_by_page() {
        let bytes = pdf((1..=2_000).map(row).collect(), None);
        let pages: usize = info(&bytes, "Pages").parse().unwrap();
        assert!(pages > 40, "{pages} pages");
        let last = poppler(&bytes, "pdftotext", &["-f", &pages.to_string()]);
        assert!(
            last.contains(&format!("Page {pages} of {pages}")) && last.contains("2000"),
            "{last}"
        );
        assert!(last.contains("Payee address"), "the header row repeats on every page:\n{last}");
        let empty = pdf(vec![], None);
        assert!(poppler(&empty, "pdftotext", &[]).contains("No rows match these filters."));
    }
}
