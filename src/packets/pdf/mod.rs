//! The packet as a PDF, written as it goes: portrait Letter pages of headings,
//! paragraphs and tables (in the reports' fonts, subset, with their wrapping), pages of
//! receipt pictures, and receipt PDFs' own pages copied in. Each part (a cover, a request)
//! starts on a new page; every page carries a footer naming its part and "Page X of Y".
//!
//! The file is tagged (`tree`): a section per part, its headings, paragraphs, tables and
//! figures in reading order; a copied receipt page is one figure with its alternate text.
//! Memory holds the current page, the current part's structure and a few ids per page:
//! a packet of hundreds of requests streams out in the same room as one.

mod import;
mod picture;
mod tree;

use std::io::Write;

use pdf_writer::{
    types::TabOrder, writers::DocumentInfo, Chunk, Content, Filter, Finish, Name, Rect, Ref, Str,
    TextStr,
};

use self::tree::{Node, Tree};
pub use self::{
    import::open,
    picture::{picture, Picture},
};
use crate::reports::export::pdf::{
    file::{self, File},
    font::{Face, Used, BOLD, REGULAR},
    layout,
};

/// Portrait Letter, in points.
const PAGE_W: f32 = 612.0;
const PAGE_H: f32 = 792.0;
const MARGIN: f32 = 48.0;
const USABLE: f32 = PAGE_W - 2.0 * MARGIN;
const TOP: f32 = PAGE_H - MARGIN;
const BOTTOM: f32 = MARGIN + 18.0;
const BODY: f32 = 9.5;
const H1: f32 = 15.0;
const H2: f32 = 11.5;
const FOOTER: f32 = 7.5;
const LEADING: f32 = 1.3;
const CELL_PAD: f32 = 3.0;
/// The label column of a field list.
const LABEL_W: f32 = 150.0;

/// A receipt that cannot be shown, and why (said on its page).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unshown(pub String);

/// A page written, for the footers and the page tree.
struct PageDone {
    id: Ref,
    footer: Ref,
    /// The part's name, which the footer prints.
    part: usize,
    /// The page's visible box (a copied page may have any).
    frame: [f32; 4],
    /// A copied page: its footer closes the wrapper around the original content.
    copied: bool,
}

/// The text page being laid out.
struct TextPage {
    id: Ref,
    content: Content,
    /// The top of what comes next.
    y: f32,
    /// What each marked-content id belongs to.
    marks: Vec<Node>,
    images: Vec<Ref>,
}

pub struct Packet<'a, W: Write> {
    file: File<&'a mut W>,
    regular: Used,
    bold: Used,
    fonts: [[Ref; 5]; 2],
    catalog: Ref,
    info: Ref,
    page_tree: Ref,
    tree: Tree,
    pages: Vec<PageDone>,
    /// Part names, for the footers.
    parts: Vec<String>,
    sect: Node,
    page: Option<TextPage>,
    title: String,
    author: String,
}

impl<'a, W: Write> Packet<'a, W> {
    pub fn new(out: &'a mut W, title: &str, author: &str) -> anyhow::Result<Self> {
        let mut file = File::new(out)?;
        let mut five = || {
            let first = file.ids(5).get();
            [0, 1, 2, 3, 4].map(|i| Ref::new(first + i))
        };
        let fonts = [five(), five()];
        let (catalog, info, page_tree) = (file.id(), file.id(), file.id());
        let tree = Tree::new(file.id(), file.id());
        Ok(Packet {
            file,
            regular: Used::new(&REGULAR),
            bold: Used::new(&BOLD),
            fonts,
            catalog,
            info,
            page_tree,
            tree,
            pages: Vec::new(),
            parts: Vec::new(),
            sect: 0,
            page: None,
            title: title.to_owned(),
            author: author.to_owned(),
        })
    }

    /// Starts a part (its footer names it `name`) on a new page.
    pub fn start_part(&mut self, name: &str) -> anyhow::Result<()> {
        self.end_page()?;
        self.tree.end_part(&mut self.file)?;
        self.parts.push(name.to_owned());
        self.sect = self.tree.start_part();
        Ok(())
    }

    pub fn heading(&mut self, level: u8, text: &str) -> anyhow::Result<()> {
        let (size, role) = if level <= 1 { (H1, "H1") } else { (H2, "H2") };
        let lines = self.wrap(text, USABLE, true, size);
        // Kept with what follows: room for the heading and a few lines more.
        let height = lines.len() as f32 * size * LEADING;
        self.room(height + 4.0 * BODY * LEADING)?;
        if self.page().y < TOP {
            self.page().y -= size * 0.6;
        }
        let node = self.tree.open(role, self.sect);
        for line in lines {
            self.tagged_line(node, true, size, MARGIN, &line)?;
        }
        self.page().y -= size * 0.3;
        Ok(())
    }

    pub fn paragraph(&mut self, text: &str) -> anyhow::Result<()> {
        let node = self.tree.open("P", self.sect);
        for line in self.wrap(text, USABLE, false, BODY) {
            self.room(BODY * LEADING)?;
            self.tagged_line(node, false, BODY, MARGIN, &line)?;
        }
        self.page().y -= BODY * 0.5;
        Ok(())
    }

    /// Labels and their values, a row each (a table of header cells and values).
    pub fn fields(&mut self, rows: &[(String, String)]) -> anyhow::Result<()> {
        let table = self.tree.open("Table", self.sect);
        let value_w = USABLE - LABEL_W;
        for (i, (label, value)) in rows.iter().enumerate() {
            let cells = vec![
                (self.wrap(label, LABEL_W - 2.0 * CELL_PAD, true, BODY), true, MARGIN, "TH"),
                (
                    self.wrap(value, value_w - 2.0 * CELL_PAD, false, BODY),
                    false,
                    MARGIN + LABEL_W,
                    "TD",
                ),
            ];
            self.row(table, cells, i % 2 == 1, Some("Row"))?;
        }
        self.page().y -= BODY * 0.6;
        Ok(())
    }

    /// A table with a header row (repeated, as decoration, on the pages it continues on);
    /// `widths` are the columns' shares of the page.
    pub fn table(
        &mut self,
        headers: &[&str],
        widths: &[f32],
        rows: &[Vec<String>],
    ) -> anyhow::Result<()> {
        let table = self.tree.open("Table", self.sect);
        let total: f32 = widths.iter().sum();
        let widths: Vec<f32> = widths.iter().map(|w| w / total * USABLE).collect();
        let layout = |me: &Self, texts: &[String], bold: bool| {
            let mut x = MARGIN;
            let tag = if bold { "TH" } else { "TD" };
            texts
                .iter()
                .zip(&widths)
                .map(|(t, w)| {
                    let cell = (me.wrap(t, w - 2.0 * CELL_PAD, bold, BODY), bold, x, tag);
                    x += w;
                    cell
                })
                .collect::<Vec<_>>()
        };
        let header: Vec<String> = headers.iter().map(|h| (*h).to_owned()).collect();
        self.room(3.0 * BODY * LEADING)?;
        let head = layout(self, &header, true);
        self.band_row(&head);
        self.row(table, head, false, Some("Column"))?;
        for (i, row) in rows.iter().enumerate() {
            let cells = layout(self, row, false);
            let before = self.pages.len();
            let height = Self::height(&cells);
            self.room(height)?;
            if self.pages.len() != before {
                // Continued on a new page: the header again, as a running header.
                let again = layout(self, &header, true);
                self.band_row(&again);
                self.draw_cells(&again);
            }
            self.row(table, cells, i % 2 == 1, None)?;
        }
        self.page().y -= BODY * 0.6;
        Ok(())
    }

    /// What follows starts on a page of its own.
    pub fn new_page(&mut self) -> anyhow::Result<()> {
        self.end_page()
    }

    /// A picture on a page of its own under its caption, scaled to fit.
    pub fn picture_page(&mut self, caption: &str, alt: &str, pic: Picture) -> anyhow::Result<()> {
        self.end_page()?;
        self.paragraph(caption)?;
        let image = self.file.id();
        let mut chunk = Chunk::new();
        let mut x = chunk.image_xobject(image, &pic.data);
        x.width(pic.width as i32).height(pic.height as i32).bits_per_component(8);
        if pic.gray {
            x.color_space().device_gray();
        } else {
            x.color_space().device_rgb();
        }
        x.filter(if pic.jpeg { Filter::DctDecode } else { Filter::FlateDecode });
        x.finish();
        self.file.object(image, &chunk)?;
        drop(pic.data);
        let room_h = self.page().y - BOTTOM - BODY;
        let (w, h) = (pic.width as f32, pic.height as f32);
        let scale = (USABLE / w).min(room_h / h);
        let (dw, dh) = (w * scale, h * scale);
        let (x, y) = (MARGIN + (USABLE - dw) / 2.0, self.page().y - BODY - dh);
        let node = self.tree.open_with("Figure", self.sect, Some(alt.to_owned()), None);
        let page = self.page();
        let name = format!("Im{}", page.images.len());
        page.images.push(image);
        let mcid = page.marks.len() as i32;
        page.marks.push(node);
        let id = page.id;
        let c = &mut page.content;
        c.begin_marked_content_with_properties(Name(b"Figure")).properties().identify(mcid);
        c.save_state();
        c.transform([dw, 0.0, 0.0, dh, x, y]);
        c.x_object(Name(name.as_bytes()));
        c.restore_state();
        c.end_marked_content();
        self.tree.mark(node, id, mcid);
        self.end_page()
    }

    /// Ends the packet: footers, fonts, page tree, structure, catalog.
    pub fn finish(mut self) -> anyhow::Result<()> {
        self.end_page()?;
        self.tree.end_part(&mut self.file)?;
        let n = self.pages.len();
        let pages = std::mem::take(&mut self.pages);
        for (i, page) in pages.iter().enumerate() {
            let mut footer = Content::new();
            let font = if page.copied { import::FOOTER_FONT } else { b"F1".as_slice() };
            footer.begin_marked_content(Name(b"Artifact"));
            footer.set_fill_gray(0.35);
            let right = format!("Page {} of {}", i + 1, n);
            let left = self.parts.get(page.part).cloned().unwrap_or_default();
            let [x0, y0, x1, _] = page.frame;
            // Narrow receipts (a till slip) get a smaller margin.
            let margin = MARGIN.min((x1 - x0) * 0.05);
            let rx = x1 - margin - REGULAR.measure(&right, FOOTER);
            for (x, text) in [(x0 + margin, left), (rx, right)] {
                footer.begin_text();
                footer.set_font(Name(font), FOOTER);
                footer.next_line(x, y0 + margin * 0.55);
                footer.show(Str(&self.regular.encode(&text)));
                footer.end_text();
            }
            footer.end_marked_content();
            let mut body = if page.copied { b"\nEMC\nQ\n".to_vec() } else { Vec::new() };
            body.extend_from_slice(&footer.finish());
            let mut chunk = Chunk::new();
            chunk.stream(page.footer, &body);
            self.file.object(page.footer, &chunk)?;
        }
        for (used, ids) in [(&self.regular, self.fonts[0]), (&self.bold, self.fonts[1])] {
            for (id, chunk) in ids.into_iter().zip(used.write(ids)?) {
                self.file.object(id, &chunk)?;
            }
        }
        let mut chunk = Chunk::new();
        chunk.pages(self.page_tree).kids(pages.iter().map(|p| p.id)).count(n as i32);
        self.file.object(self.page_tree, &chunk)?;
        let [root, document] = self.tree.objects();
        self.file.object(self.tree.root, &root)?;
        self.file.object(self.tree.document, &document)?;
        let catalog = file::tagged_catalog(self.catalog, self.page_tree, self.tree.root);
        self.file.object(self.catalog, &catalog)?;
        let mut chunk = Chunk::new();
        chunk
            .indirect(self.info)
            .start::<DocumentInfo>()
            .title(TextStr(&self.title))
            .author(TextStr(&self.author))
            .creator(TextStr("MentorPay"));
        self.file.object(self.info, &chunk)?;
        self.file.finish(self.catalog, self.info)?;
        Ok(())
    }

    // ---- pages ----

    fn page(&mut self) -> &mut TextPage {
        self.page.as_mut().expect("a page is started before anything is drawn")
    }

    /// Room for `height` more on this page, else a new one.
    fn room(&mut self, height: f32) -> anyhow::Result<()> {
        match &self.page {
            Some(p) if p.y - height >= BOTTOM || p.y >= TOP => Ok(()),
            Some(_) => {
                self.end_page()?;
                self.start_page();
                Ok(())
            }
            None => {
                self.start_page();
                Ok(())
            }
        }
    }

    fn start_page(&mut self) {
        self.page = Some(TextPage {
            id: self.file.id(),
            content: Content::new(),
            y: TOP,
            marks: Vec::new(),
            images: Vec::new(),
        });
    }

    /// Sends the text page out, if there is one.
    fn end_page(&mut self) -> anyhow::Result<()> {
        let Some(page) = self.page.take() else { return Ok(()) };
        let content = page.content.finish();
        let packed = miniz_oxide::deflate::compress_to_vec_zlib(&content, 6);
        let (content_id, footer) = (self.file.id(), self.file.id());
        let mut chunk = Chunk::new();
        chunk.stream(content_id, &packed).filter(Filter::FlateDecode);
        self.file.object(content_id, &chunk)?;
        let key = self.tree.page(page.marks);
        let mut chunk = Chunk::new();
        let mut p = chunk.page(page.id);
        p.media_box(Rect::new(0.0, 0.0, PAGE_W, PAGE_H))
            .parent(self.page_tree)
            .struct_parents(key)
            .tab_order(TabOrder::StructureOrder);
        p.insert(Name(b"Contents")).array().items([content_id, footer]);
        let mut resources = p.resources();
        resources.fonts().pair(Name(b"F1"), self.fonts[0][0]).pair(Name(b"F2"), self.fonts[1][0]);
        if !page.images.is_empty() {
            let mut x = resources.x_objects();
            for (i, id) in page.images.iter().enumerate() {
                x.pair(Name(format!("Im{i}").as_bytes()), *id);
            }
        }
        drop(resources);
        p.finish();
        self.file.object(page.id, &chunk)?;
        self.done(page.id, footer, [0.0, 0.0, PAGE_W, PAGE_H], false);
        Ok(())
    }

    fn done(&mut self, id: Ref, footer: Ref, frame: [f32; 4], copied: bool) {
        let part = self.parts.len().saturating_sub(1);
        self.pages.push(PageDone { id, footer, part, frame, copied });
    }

    // ---- drawing ----

    fn face(bold: bool) -> &'static Face {
        if bold {
            &BOLD
        } else {
            &REGULAR
        }
    }

    /// `text` (hidden characters left out) in lines no wider than `width`.
    fn wrap(&self, text: &str, width: f32, bold: bool, size: f32) -> Vec<String> {
        let text = crate::text::without_hidden(text);
        let lines = layout::wrap(&text, width, |t| Self::face(bold).measure(t, size));
        if lines.is_empty() {
            vec![String::new()]
        } else {
            lines
        }
    }

    fn show(&mut self, bold: bool, size: f32, x: f32, baseline: f32, text: &str) {
        let codes = if bold { self.bold.encode(text) } else { self.regular.encode(text) };
        let c = &mut self.page().content;
        c.begin_text();
        c.set_font(Name(if bold { b"F2" } else { b"F1" }), size);
        c.next_line(x, baseline);
        c.show(Str(&codes));
        c.end_text();
    }

    /// One line at the top of what is left, as content of `node`.
    fn tagged_line(
        &mut self,
        node: Node,
        bold: bool,
        size: f32,
        x: f32,
        text: &str,
    ) -> anyhow::Result<()> {
        self.room(size * LEADING)?;
        let baseline = self.page().y - size;
        self.marked(node, |me| me.show(bold, size, x, baseline, text));
        self.page().y -= size * LEADING;
        Ok(())
    }

    /// Draws with `draw` inside marked content that belongs to `node`.
    fn marked(&mut self, node: Node, draw: impl FnOnce(&mut Self)) {
        let page = self.page();
        let mcid = page.marks.len() as i32;
        page.marks.push(node);
        let id = page.id;
        let role = self.tree_role(node);
        self.page()
            .content
            .begin_marked_content_with_properties(Name(role))
            .properties()
            .identify(mcid);
        draw(self);
        self.page().content.end_marked_content();
        self.tree.mark(node, id, mcid);
    }

    fn tree_role(&self, node: Node) -> &'static [u8] {
        self.tree.role(node).as_bytes()
    }

    fn height(cells: &[(Vec<String>, bool, f32, &str)]) -> f32 {
        let lines = cells.iter().map(|c| c.0.len()).max().unwrap_or(1).max(1);
        lines as f32 * BODY * LEADING + 2.0 * CELL_PAD
    }

    /// A table row of `cells` (their lines, bold, left edge, tag), on a new page when it
    /// does not fit on this one; a row taller than a page keeps what fits.
    fn row(
        &mut self,
        table: Node,
        mut cells: Vec<(Vec<String>, bool, f32, &'static str)>,
        banded: bool,
        scope: Option<&'static str>,
    ) -> anyhow::Result<()> {
        let most = ((TOP - BOTTOM - 2.0 * CELL_PAD) / (BODY * LEADING)).floor() as usize;
        for cell in &mut cells {
            if cell.0.len() > most {
                cell.0.truncate(most);
                if let Some(last) = cell.0.last_mut() {
                    last.push('…');
                }
            }
        }
        let height = Self::height(&cells);
        self.room(height)?;
        if banded {
            let top = self.page().y;
            self.band(top, height, 0.95);
        }
        let tr = self.tree.open("TR", table);
        let top = self.page().y;
        for (lines, bold, x, tag) in cells {
            let role_scope = if tag == "TH" { scope } else { None };
            let cell = self.tree.open_with(tag, tr, None, role_scope);
            if lines.iter().all(String::is_empty) {
                continue;
            }
            self.marked(cell, |me| {
                for (j, line) in lines.iter().enumerate() {
                    let baseline = top - CELL_PAD - BODY - j as f32 * BODY * LEADING;
                    me.show(bold, BODY, x + CELL_PAD, baseline, line);
                }
            });
        }
        self.page().y = top - height;
        Ok(())
    }

    /// A header row's band behind `cells` (decoration).
    fn band_row(&mut self, cells: &[(Vec<String>, bool, f32, &str)]) {
        let top = self.page().y;
        self.band(top, Self::height(cells), 0.88);
    }

    /// `cells` drawn as a running header (an artifact), moving down past them.
    fn draw_cells(&mut self, cells: &[(Vec<String>, bool, f32, &str)]) {
        let top = self.page().y;
        let height = Self::height(cells);
        self.page().content.begin_marked_content(Name(b"Artifact"));
        for (lines, bold, x, _) in cells {
            for (j, line) in lines.iter().enumerate() {
                let baseline = top - CELL_PAD - BODY - j as f32 * BODY * LEADING;
                self.show(*bold, BODY, x + CELL_PAD, baseline, line);
            }
        }
        self.page().content.end_marked_content();
        self.page().y = top - height;
    }

    fn band(&mut self, top: f32, height: f32, gray: f32) {
        let c = &mut self.page().content;
        c.begin_marked_content(Name(b"Artifact"));
        c.set_fill_gray(gray);
        c.rect(MARGIN, top - height, USABLE, height);
        c.fill_nonzero();
        c.set_fill_gray(0.0);
        c.end_marked_content();
    }
}
