//! A PDF file written straight to its destination as it is made: objects go out as soon as
//! they are complete, and only their places are kept for the cross-reference at the end.
//!
//! `pdf-writer` writes each object; it keeps a whole file in memory, which a 200,000-row
//! export cannot afford, so the file's frame (header, the many small structure elements
//! packed into compressed object streams, the cross-reference stream) is written here. An
//! object stream holds objects without their `obj` frames, so those few dictionaries are
//! written as text by the caller.

use std::io::{Seek, SeekFrom, Write};

use pdf_writer::{writers::Catalog, Chunk, Filter, Finish, Name, Ref, TextStr};

/// Where an object, or a run of packed objects, lives.
enum Place {
    /// A plain object at this byte offset.
    At(u64),
    /// `count` objects from the run's first id, packed in this object stream in order.
    Packed { stream: i32, count: u32 },
}

pub struct File<W: Write> {
    out: W,
    written: u64,
    next: i32,
    places: Vec<(i32, Place)>,
}

impl<W: Write> File<W> {
    pub fn new(mut out: W) -> std::io::Result<File<W>> {
        // The binary comment marks the file as binary for transfer tools.
        let head = b"%PDF-1.7\n%\x80\x80\x80\x80\n";
        out.write_all(head)?;
        Ok(File { out, written: head.len() as u64, next: 1, places: Vec::new() })
    }

    /// A new object id.
    pub fn id(&mut self) -> Ref {
        self.ids(1)
    }

    /// `n` consecutive new ids; the first.
    pub fn ids(&mut self, n: i32) -> Ref {
        let first = self.next;
        self.next += n;
        Ref::new(first)
    }

    /// Writes `chunk`, which holds the one object `id`.
    pub fn object(&mut self, id: Ref, chunk: &Chunk) -> std::io::Result<()> {
        debug_assert_eq!(chunk.refs().collect::<Vec<_>>(), [id]);
        self.places.push((id.get(), Place::At(self.written)));
        self.out.write_all(chunk.as_bytes())?;
        self.written += chunk.len() as u64;
        Ok(())
    }

    /// Writes one object given as its body's bytes (an object copied from another file).
    pub fn raw(&mut self, id: Ref, body: &[u8]) -> std::io::Result<()> {
        let head = format!("{} 0 obj\n", id.get());
        self.places.push((id.get(), Place::At(self.written)));
        for part in [head.as_bytes(), body, b"\nendobj\n"] {
            self.out.write_all(part)?;
            self.written += part.len() as u64;
        }
        Ok(())
    }

    /// Packs `bodies` (objects written without their frames), numbered from `first`, in a
    /// compressed object stream of id `stream`.
    pub fn packed(&mut self, stream: Ref, first: Ref, bodies: &[String]) -> std::io::Result<()> {
        if bodies.is_empty() {
            return Ok(());
        }
        let mut index = String::new();
        let mut data = String::new();
        for (i, body) in bodies.iter().enumerate() {
            index.push_str(&format!("{} {} ", first.get() + i as i32, data.len()));
            data.push_str(body);
            data.push('\n');
        }
        let whole = [index.as_bytes(), data.as_bytes()].concat();
        let packed = miniz_oxide::deflate::compress_to_vec_zlib(&whole, 6);
        let mut chunk = Chunk::new();
        chunk
            .stream(stream, &packed)
            .filter(Filter::FlateDecode)
            .pair(Name(b"Type"), Name(b"ObjStm"))
            .pair(Name(b"N"), bodies.len() as i32)
            .pair(Name(b"First"), index.len() as i32);
        self.object(stream, &chunk)?;
        self.places.push((
            first.get(),
            Place::Packed { stream: stream.get(), count: bodies.len() as u32 },
        ));
        Ok(())
    }

    /// The cross-reference stream and the trailer; the file is complete.
    pub fn finish(mut self, catalog: Ref, info: Ref) -> std::io::Result<W> {
        let xref = self.id();
        let size = self.next;
        let at = self.written;
        self.places.push((xref.get(), Place::At(at)));
        self.places.sort_by_key(|p| p.0);
        // Entries: type (1 byte), offset or object stream (5 bytes), index (2 bytes); one
        // per object, millions for a large table: compressed into a temporary file, as
        // the stream's length must precede it.
        let spill = tempfile::tempfile()?;
        let mut table = flate2::write::ZlibEncoder::new(
            std::io::BufWriter::new(spill),
            flate2::Compression::new(6),
        );
        table.write_all(&entry(0, 0, 0xFFFF))?;
        let mut id = 1;
        for (first, place) in &self.places {
            while id < *first {
                // An id taken but never written: free.
                table.write_all(&entry(0, 0, 0))?;
                id += 1;
            }
            match place {
                Place::At(offset) => {
                    table.write_all(&entry(1, *offset, 0))?;
                    id += 1;
                }
                Place::Packed { stream, count } => {
                    for i in 0..*count {
                        table.write_all(&entry(2, *stream as u64, i as u16))?;
                    }
                    id += *count as i32;
                }
            }
        }
        let mut spill = table.finish()?.into_inner().map_err(|e| e.into_error())?;
        let length = spill.stream_position()?;
        spill.seek(SeekFrom::Start(0))?;
        // The one dictionary written here as text: pdf-writer takes a stream's data whole.
        write!(
            self.out,
            "{} 0 obj\n<</Type/XRef/Size {size}/W[1 5 2]/Root {} 0 R/Info {} 0 R\
             /Filter/FlateDecode/Length {length}>>\nstream\n",
            xref.get(),
            catalog.get(),
            info.get()
        )?;
        std::io::copy(&mut spill, &mut self.out)?;
        write!(self.out, "\nendstream\nendobj\nstartxref\n{at}\n%%EOF\n")?;
        Ok(self.out)
    }
}

fn entry(kind: u8, field: u64, index: u16) -> [u8; 8] {
    let f = field.to_be_bytes();
    let i = index.to_be_bytes();
    [kind, f[3], f[4], f[5], f[6], f[7], i[0], i[1]]
}

/// The catalog of a tagged PDF, the same for every document we write: its pages, its
/// language, its structure tree, marked content, and the title in the viewer's title bar.
pub fn tagged_catalog(id: Ref, pages: Ref, structure: Ref) -> Chunk {
    let mut chunk = Chunk::new();
    let mut catalog = chunk.indirect(id).start::<Catalog>();
    catalog.pages(pages).lang(TextStr("en-US"));
    catalog.pair(Name(b"StructTreeRoot"), structure);
    catalog.mark_info().marked(true);
    catalog.viewer_preferences().display_doc_title(true);
    catalog.finish();
    chunk
}
