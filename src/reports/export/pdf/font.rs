//! The two faces the PDFs print in (DejaVu Sans Condensed, regular and bold, shipped in the
//! binary), how wide text prints in them, and per document the glyphs it used: only those
//! are embedded, subset by `subsetter`, as CID fonts (Identity-H) with a ToUnicode map so
//! that text copies, searches and extracts as the characters it shows.

use std::sync::LazyLock;

use pdf_writer::{
    types::{CidFontType, FontFlags, SystemInfo, UnicodeCmap},
    Chunk, Filter, Name, Rect, Ref, Str,
};
use subsetter::GlyphRemapper;

static REGULAR_TTF: &[u8] = include_bytes!("../../../../assets/fonts/DejaVuSansCondensed.ttf");
static BOLD_TTF: &[u8] = include_bytes!("../../../../assets/fonts/DejaVuSansCondensed-Bold.ttf");

pub static REGULAR: LazyLock<Face> =
    LazyLock::new(|| Face::load("DejaVuSansCondensed", REGULAR_TTF));
pub static BOLD: LazyLock<Face> =
    LazyLock::new(|| Face::load("DejaVuSansCondensed-Bold", BOLD_TTF));

/// A face: its glyph lookup and widths (1/1000 em), and the descriptor's figures.
pub struct Face {
    name: &'static str,
    data: &'static [u8],
    face: ttf_parser::Face<'static>,
    scale: f32,
    /// Glyph and width of the ASCII characters, looked up once: most of what prints.
    ascii: [(u16, f32); 128],
    /// What a character the face lacks prints as.
    missing: (u16, f32),
    ascent: f32,
    descent: f32,
    cap_height: f32,
    bbox: [f32; 4],
}

impl Face {
    fn load(name: &'static str, data: &'static [u8]) -> Face {
        let face = ttf_parser::Face::parse(data, 0).expect("the shipped font parses");
        let scale = 1000.0 / face.units_per_em() as f32;
        let lookup = |c: char| {
            let g = face.glyph_index(c)?;
            Some((g.0, face.glyph_hor_advance(g).unwrap_or(0) as f32 * scale))
        };
        let missing = lookup('?').unwrap_or((0, 500.0));
        let mut ascii = [missing; 128];
        for (code, slot) in ascii.iter_mut().enumerate().skip(32) {
            *slot = lookup(code as u8 as char).unwrap_or(missing);
        }
        let b = face.global_bounding_box();
        Face {
            name,
            data,
            scale,
            ascii,
            missing,
            ascent: face.ascender() as f32 * scale,
            descent: face.descender() as f32 * scale,
            cap_height: face.capital_height().unwrap_or(face.ascender()) as f32 * scale,
            bbox: [
                b.x_min as f32 * scale,
                b.y_min as f32 * scale,
                b.x_max as f32 * scale,
                b.y_max as f32 * scale,
            ],
            face,
        }
    }

    /// The glyph of `c` and its width; a character the face lacks prints as `?`.
    pub fn glyph(&self, c: char) -> (u16, f32) {
        if (c as u32) < 128 {
            return self.ascii[c as usize];
        }
        match self.face.glyph_index(c) {
            Some(g) => (g.0, self.face.glyph_hor_advance(g).unwrap_or(0) as f32 * self.scale),
            None => self.missing,
        }
    }

    /// Width of `text` in points at `size`.
    pub fn measure(&self, text: &str, size: f32) -> f32 {
        text.chars().map(|c| self.glyph(c).1).sum::<f32>() * size / 1000.0
    }
}

/// The glyphs one document used of one face, numbered as they will be in its subset.
pub struct Used {
    face: &'static Face,
    remapper: GlyphRemapper,
    /// By new glyph id: width, and the character it shows (for ToUnicode).
    glyphs: Vec<(f32, char)>,
}

impl Used {
    pub fn new(face: &'static Face) -> Used {
        Used { face, remapper: GlyphRemapper::new(), glyphs: vec![(0.0, '\u{FFFD}')] }
    }

    /// `text` as the two-byte codes (new glyph ids) a content stream shows.
    pub fn encode(&mut self, text: &str) -> Vec<u8> {
        let mut out = Vec::with_capacity(text.len() * 2);
        for c in text.chars() {
            let c = if c.is_control() { ' ' } else { c };
            let (gid, width) = self.face.glyph(c);
            let new = self.remapper.remap(gid);
            if new as usize == self.glyphs.len() {
                self.glyphs.push((width, c));
            }
            out.extend_from_slice(&new.to_be_bytes());
        }
        out
    }

    /// The font's objects, one chunk each (`ids`: the Type0 font the pages name, then four
    /// more), its file subset to the glyphs used.
    pub fn write(&self, ids: [Ref; 5]) -> anyhow::Result<[Chunk; 5]> {
        let mut chunks = [(); 5].map(|_| Chunk::new());
        let [font_id, cid_id, descriptor_id, cmap_id, file_id] = ids;
        // A subset's name carries a six-letter tag, the same for the same glyphs.
        let tag = subset_tag(&self.glyphs);
        let base = format!("{tag}+{}", self.face.name);
        chunks[0]
            .type0_font(font_id)
            .base_font(Name(base.as_bytes()))
            .encoding_predefined(Name(b"Identity-H"))
            .descendant_font(cid_id)
            .to_unicode(cmap_id);
        let mut cid = chunks[1].cid_font(cid_id);
        cid.subtype(CidFontType::Type2)
            .base_font(Name(base.as_bytes()))
            .system_info(SYSTEM_INFO)
            .font_descriptor(descriptor_id)
            .default_width(0.0)
            .cid_to_gid_map_predefined(Name(b"Identity"));
        cid.widths().consecutive(0, self.glyphs.iter().map(|g| g.0));
        drop(cid);
        let f = self.face;
        chunks[2]
            .font_descriptor(descriptor_id)
            .name(Name(base.as_bytes()))
            .flags(FontFlags::NON_SYMBOLIC)
            .bbox(Rect::new(f.bbox[0], f.bbox[1], f.bbox[2], f.bbox[3]))
            .italic_angle(0.0)
            .ascent(f.ascent)
            .descent(f.descent)
            .cap_height(f.cap_height)
            .stem_v(80.0)
            .font_file2(file_id);
        let mut cmap = UnicodeCmap::new(Name(b"Custom"), SYSTEM_INFO);
        for (gid, (_, c)) in self.glyphs.iter().enumerate().skip(1) {
            cmap.pair(gid as u16, *c);
        }
        chunks[3].cmap(cmap_id, &cmap.finish());
        let subset = subsetter::subset(f.data, 0, &self.remapper)
            .map_err(|e| anyhow::anyhow!("subsetting {}: {e}", f.name))?;
        let packed = miniz_oxide::deflate::compress_to_vec_zlib(&subset, 6);
        chunks[4].stream(file_id, &packed).filter(Filter::FlateDecode);
        Ok(chunks)
    }
}

const SYSTEM_INFO: SystemInfo =
    SystemInfo { registry: Str(b"Adobe"), ordering: Str(b"Identity"), supplement: 0 };

/// Six capital letters from the glyphs used, as PDF names a subset (`ABCDEF+Name`).
fn subset_tag(glyphs: &[(f32, char)]) -> String {
    let mut hash: u32 = 2_166_136_261;
    for (_, c) in glyphs {
        hash = (hash ^ *c as u32).wrapping_mul(16_777_619);
    }
    (0..6)
        .map(|i| {
            let letter = (hash >> (i * 5)) % 26;
            (b'A' + letter as u8) as char
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glyphs_are_numbered_as_first_used() {
        let mut used = Used::new(&REGULAR);
        assert_eq!(used.encode("abA"), vec![0, 1, 0, 2, 0, 3]);
        assert_eq!(used.encode("ba"), vec![0, 2, 0, 1]);
        // Any character the face has prints, not only Latin-1.
        let (gid, _) = REGULAR.glyph('Ω');
        assert_ne!(gid, REGULAR.glyph('?').0);
        // One it lacks prints as `?`.
        assert_eq!(REGULAR.glyph('日').0, REGULAR.glyph('?').0);
    }

    #[test]
    fn the_subset_is_a_small_font() {
        let mut used = Used::new(&BOLD);
        used.encode("Total $1,234.50");
        let chunks = used.write([1, 2, 3, 4, 5].map(Ref::new)).unwrap();
        let size: usize = chunks.iter().map(Chunk::len).sum();
        assert!(size < 20_000, "{size} bytes");
    }
}
