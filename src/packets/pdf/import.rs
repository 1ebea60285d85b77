//! A receipt PDF's own pages copied into the packet, as they are: `lopdf` reads the file
//! (bounded, so a small hostile file cannot inflate to gigabytes), and each page goes out
//! with what it draws with (its contents and resources, copied once per receipt); links,
//! annotations and the receipt's own structure stay behind. The original content is
//! wrapped as one tagged figure and in a saved graphics state, so the packet's footer
//! prints the same on every page whatever the receipt's content leaves set.

use std::collections::HashMap;
use std::io::Write;

use lopdf::{Dictionary, Document, LoadOptions, Object, ObjectId};
use pdf_writer::{Chunk, Ref};

use super::{Packet, Unshown};
use crate::reports::export::pdf::file::File;

/// The footer's font on a copied page (a name the receipt is unlikely to use itself).
pub const FOOTER_FONT: &[u8] = b"MentorPayFooter";
/// What the streams lopdf unpacks while it reads a receipt (its object streams and
/// cross-reference streams) may unpack to, all together: real receipts need well under a
/// megabyte; the objects parsed out of them take several times the bytes. Page contents
/// and images are copied as they are stored, never unpacked.
pub const MAX_UNPACKED: usize = 16 * 1024 * 1024;
/// Pages of one receipt.
pub const MAX_PAGES: usize = 500;
const LETTER: [f32; 4] = [0.0, 0.0, 612.0, 792.0];

/// A page's attributes, its own or inherited from the page tree above it.
fn inherited<'d>(doc: &'d Document, page: &'d Dictionary, key: &[u8]) -> Option<&'d Object> {
    let mut dict = page;
    for _ in 0..64 {
        if let Ok(value) = dict.get(key) {
            return Some(value);
        }
        let parent = dict.get(b"Parent").ok()?.as_reference().ok()?;
        dict = doc.get_dictionary(parent).ok()?;
    }
    None
}

fn resolved<'d>(doc: &'d Document, object: &'d Object) -> &'d Object {
    doc.dereference(object).map(|(_, o)| o).unwrap_or(object)
}

fn number(object: &Object) -> Option<f32> {
    match object {
        Object::Integer(i) => Some(*i as f32),
        Object::Real(r) => Some(*r),
        _ => None,
    }
}

fn rectangle(doc: &Document, object: Option<&Object>) -> Option<[f32; 4]> {
    let items = resolved(doc, object?).as_array().ok()?;
    let values: Vec<f32> = items.iter().filter_map(|o| number(resolved(doc, o))).collect();
    let [a, b, c, d] = values.try_into().ok()?;
    Some([a.min(c), b.min(d), a.max(c), b.max(d)])
}

/// Copies objects of one receipt into the packet, each once, under new ids.
struct Copier<'d> {
    doc: &'d Document,
    ids: HashMap<ObjectId, Ref>,
    waiting: Vec<ObjectId>,
}

impl Copier<'_> {
    /// `object` with its references turned to the packet's ids (new ones queued for
    /// copying); a reference to a page, or to nothing, becomes null.
    fn rewrite<W: Write>(&mut self, file: &mut File<W>, object: &Object) -> Object {
        match object {
            Object::Reference(id) => {
                if let Some(r) = self.ids.get(id) {
                    return Object::Reference((r.get() as u32, 0));
                }
                let Ok(target) = self.doc.get_object(*id) else { return Object::Null };
                let is_page =
                    target.as_dict().ok().and_then(|d| d.get(b"Type").ok()).is_some_and(
                        |t| matches!(t, Object::Name(n) if n == b"Page" || n == b"Pages"),
                    );
                if is_page {
                    return Object::Null;
                }
                let r = file.id();
                self.ids.insert(*id, r);
                self.waiting.push(*id);
                Object::Reference((r.get() as u32, 0))
            }
            Object::Array(items) => {
                Object::Array(items.iter().map(|o| self.rewrite(file, o)).collect())
            }
            Object::Dictionary(dict) => Object::Dictionary(self.rewrite_dict(file, dict)),
            Object::Stream(stream) => {
                let mut copy = stream.clone();
                copy.dict = self.rewrite_dict(file, &stream.dict);
                copy.dict.set("Length", stream.content.len() as i64);
                Object::Stream(copy)
            }
            other => other.clone(),
        }
    }

    fn rewrite_dict<W: Write>(&mut self, file: &mut File<W>, dict: &Dictionary) -> Dictionary {
        let mut out = Dictionary::new();
        for (key, value) in dict.iter() {
            out.set(key.clone(), self.rewrite(file, value));
        }
        out
    }

    /// Writes every object queued so far, and those they reach.
    fn flush<W: Write>(&mut self, file: &mut File<W>) -> std::io::Result<()> {
        while let Some(old) = self.waiting.pop() {
            let copy = match self.doc.get_object(old) {
                Ok(object) => self.rewrite(file, object),
                Err(_) => Object::Null,
            };
            write_object(file, self.ids[&old], &copy)?;
        }
        Ok(())
    }
}

fn write_object<W: Write>(file: &mut File<W>, id: Ref, object: &Object) -> std::io::Result<()> {
    let mut body = Vec::new();
    lopdf::Writer::write_object(&mut body, object).map_err(std::io::Error::other)?;
    file.raw(id, &body)
}

thread_local! {
    /// What the receipt being read on this thread may still unpack (see `count_unpacked`).
    static UNPACK_BUDGET: std::cell::Cell<Option<usize>> = const { std::cell::Cell::new(None) };
}

/// lopdf's load filter, run on each object before lopdf unpacks it: an object stream is
/// unpacked here against what is left of the receipt's budget, and once the budget is
/// spent every further object stream is dropped unread (the budget then reads `None`).
/// lopdf's own limit is per stream; this makes it one for the whole file.
fn count_unpacked(id: ObjectId, object: &mut Object) -> Option<(ObjectId, Object)> {
    if let Ok(stream) = object.as_stream() {
        if stream.dict.has_type(b"ObjStm") {
            let left = UNPACK_BUDGET.get()?;
            match stream.decompressed_content_with_limit(left) {
                Ok(content) => UNPACK_BUDGET.set(Some(left - content.len().min(left))),
                Err(lopdf::Error::Decompress(lopdf::DecompressError::MemoryLimitExceeded {
                    ..
                })) => {
                    UNPACK_BUDGET.set(None);
                    return None;
                }
                // A damaged stream is lopdf's to report as it reads it.
                Err(_) => {}
            }
        }
    }
    // lopdf keeps the object it passed in and reads only whether the answer is `Some`,
    // except for the objects found inside object streams, which it takes from the answer
    // (those are never streams: a clone of a small object).
    match object {
        Object::Stream(_) => Some((id, Object::Null)),
        other => Some((id, other.clone())),
    }
}

/// lopdf's limit for each stream it unpacks. An encrypted file is read without the load
/// filter (lopdf decrypts first), so its budget is shared out in advance: each stream gets
/// its part of it, whatever kind of stream it is (the keyword `stream` cannot be disguised).
fn per_stream_limit(bytes: &[u8]) -> usize {
    let encrypted = bytes.windows(8).any(|w| w == b"/Encrypt");
    if !encrypted {
        return MAX_UNPACKED;
    }
    let streams = bytes.windows(6).filter(|w| *w == b"stream").count() / 2; // and endstream
    MAX_UNPACKED / streams.max(1)
}

/// Reads a receipt PDF; why not, in words for its page.
pub fn open(bytes: &[u8]) -> Result<Document, Unshown> {
    let options = LoadOptions {
        max_decompressed_size: Some(per_stream_limit(bytes)),
        filter: Some(count_unpacked),
        ..Default::default()
    };
    UNPACK_BUDGET.set(Some(MAX_UNPACKED));
    let loaded = Document::load_from_with_options(bytes, options);
    let spent = UNPACK_BUDGET.replace(None).is_none();
    let too_big = || {
        Unshown(format!(
            "The PDF unpacks to more than {} MB and was not read. Open the receipt from the request in MentorPay to see it.",
            MAX_UNPACKED / (1024 * 1024)
        ))
    };
    let doc = match loaded {
        Err(lopdf::Error::Decompress(lopdf::DecompressError::MemoryLimitExceeded { .. })) => {
            return Err(too_big())
        }
        Err(e) => {
            tracing::info!(error = %e, "a receipt PDF could not be read");
            return Err(Unshown("The PDF could not be read; it may be damaged.".into()));
        }
        Ok(_) if spent => return Err(too_big()),
        Ok(doc) => doc,
    };
    if doc.is_encrypted() {
        return Err(Unshown("The PDF is protected by a password.".into()));
    }
    let pages = doc.get_pages().len();
    if pages == 0 {
        return Err(Unshown("The PDF has no pages.".into()));
    }
    if pages > MAX_PAGES {
        return Err(Unshown(format!(
            "The PDF has {pages} pages; a receipt of more than {MAX_PAGES} is not copied here. Open it from the request in MentorPay."
        )));
    }
    Ok(doc)
}

impl<W: Write> Packet<'_, W> {
    /// Every page of `doc` (the receipt `name`), copied in order; the pages copied.
    pub fn pdf_pages(&mut self, name: &str, doc: &Document) -> anyhow::Result<usize> {
        self.end_page()?;
        let pages = doc.get_pages();
        let count = pages.len();
        let mut copier = Copier { doc, ids: HashMap::new(), waiting: Vec::new() };
        for (i, page_id) in pages.into_values().enumerate() {
            let Ok(page) = doc.get_dictionary(page_id) else { continue };
            let media = rectangle(doc, inherited(doc, page, b"MediaBox")).unwrap_or(LETTER);
            let crop = rectangle(doc, inherited(doc, page, b"CropBox"));
            let rotate = inherited(doc, page, b"Rotate").and_then(|o| number(resolved(doc, o)));
            // The resources inline, with the footer's font added to the fonts.
            let mut resources = inherited(doc, page, b"Resources")
                .and_then(|r| resolved(doc, r).as_dict().ok())
                .cloned()
                .unwrap_or_default();
            let fonts = resources
                .get(b"Font")
                .ok()
                .and_then(|f| resolved(doc, f).as_dict().ok())
                .cloned()
                .unwrap_or_default();
            resources.set("Font", Object::Dictionary(fonts));
            let mut resources = copier.rewrite_dict(&mut self.file, &resources);
            if let Ok(Object::Dictionary(fonts)) = resources.get_mut(b"Font") {
                fonts.set(FOOTER_FONT, Object::Reference((self.fonts[0][0].get() as u32, 0)));
            }
            let contents: Vec<Object> = match page.get(b"Contents").map(|c| resolved(doc, c)) {
                Ok(Object::Array(items)) => items.clone(),
                Ok(_) => vec![page.get(b"Contents").cloned().unwrap_or(Object::Null)],
                Err(_) => vec![],
            };
            let contents: Vec<Object> = contents
                .iter()
                .filter(|c| matches!(c, Object::Reference(_)))
                .map(|c| copier.rewrite(&mut self.file, c))
                .collect();
            let group = page.get(b"Group").ok().map(|g| copier.rewrite(&mut self.file, g));
            copier.flush(&mut self.file)?;

            let id = self.file.id();
            let (opening, footer) = (self.file.id(), self.file.id());
            let alt = format!("Receipt {name}, page {} of {count}", i + 1);
            let figure = self.tree.open_with("Figure", self.sect, Some(alt), None);
            self.tree.mark(figure, id, 0);
            let key = self.tree.page(vec![figure]);
            let mut chunk = Chunk::new();
            chunk.stream(opening, b"q\n/Figure <</MCID 0>> BDC\n");
            self.file.object(opening, &chunk)?;

            let reference = |r: Ref| Object::Reference((r.get() as u32, 0));
            let mut dict = Dictionary::new();
            dict.set("Type", Object::Name(b"Page".to_vec()));
            dict.set("Parent", reference(self.page_tree));
            dict.set("MediaBox", Object::Array(media.iter().map(|v| Object::Real(*v)).collect()));
            if let Some(crop) = crop {
                dict.set("CropBox", Object::Array(crop.iter().map(|v| Object::Real(*v)).collect()));
            }
            if let Some(rotate) = rotate {
                dict.set("Rotate", Object::Integer(rotate as i64));
            }
            dict.set("Resources", Object::Dictionary(resources));
            let mut all = vec![reference(opening)];
            all.extend(contents);
            all.push(reference(footer));
            dict.set("Contents", Object::Array(all));
            if let Some(group) = group {
                dict.set("Group", group);
            }
            dict.set("StructParents", Object::Integer(key.into()));
            dict.set("Tabs", Object::Name(b"S".to_vec()));
            write_object(&mut self.file, id, &Object::Dictionary(dict))?;
            self.done(id, footer, crop.unwrap_or(media), true);
        }
        Ok(count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_encrypted_file_shares_its_budget_among_its_streams() {
        let streams = |n: usize, encrypted: bool| {
            let mut pdf = b"%PDF-1.7\n".to_vec();
            for _ in 0..n {
                pdf.extend_from_slice(b"1 0 obj <<>> stream\nx\nendstream endobj\n");
            }
            if encrypted {
                pdf.extend_from_slice(b"trailer << /Encrypt 9 0 R >>");
            }
            per_stream_limit(&pdf)
        };
        assert_eq!(streams(8, false), MAX_UNPACKED, "the load filter counts the total");
        assert_eq!(streams(8, true), MAX_UNPACKED / 8);
        assert_eq!(streams(0, true), MAX_UNPACKED);
    }
}
