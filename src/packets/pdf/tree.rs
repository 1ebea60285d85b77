//! The packet's logical structure (a tagged PDF): a Document holding one Sect per part
//! (the cover, each request), each with its headings (H1, H2), paragraphs (P), tables
//! (Table, TR, TH, TD) and figures (Figure, with their alternate text) in reading order.
//!
//! A part's elements are kept until the part ends and then written, packed into one
//! compressed object stream, with the parent-tree arrays of its pages: a packet of
//! hundreds of requests holds only a few ids per page and per part.

use pdf_writer::{Chunk, Ref};

use crate::reports::export::pdf::{file::File, tags::root_and_document};

/// An element of the current part, by its place.
pub type Node = usize;

enum Kid {
    /// Marked content `mcid` on `page`.
    Marked {
        page: Ref,
        mcid: i32,
    },
    Node(Node),
}

struct Element {
    role: &'static str,
    parent: Option<Node>,
    kids: Vec<Kid>,
    alt: Option<String>,
    /// The scope of a header cell: `Row` or `Column`.
    scope: Option<&'static str>,
}

/// A finished page of the current part: its struct-parents key and what each of its
/// marked-content ids belongs to.
struct PageMarks {
    key: i32,
    nodes: Vec<Node>,
}

pub struct Tree {
    pub root: Ref,
    pub document: Ref,
    parts: Vec<Ref>,
    /// Each page's parent-tree array, by struct-parents key.
    parents: Vec<Ref>,
    elements: Vec<Element>,
    pages: Vec<PageMarks>,
}

impl Tree {
    pub fn new(root: Ref, document: Ref) -> Tree {
        Tree {
            root,
            document,
            parts: Vec::new(),
            parents: Vec::new(),
            elements: Vec::new(),
            pages: Vec::new(),
        }
    }

    /// Starts a part: a Sect under the Document, node 0 of the part.
    pub fn start_part(&mut self) -> Node {
        self.elements.clear();
        self.pages.clear();
        self.elements.push(Element {
            role: "Sect",
            parent: None,
            kids: Vec::new(),
            alt: None,
            scope: None,
        });
        0
    }

    pub fn open(&mut self, role: &'static str, parent: Node) -> Node {
        self.open_with(role, parent, None, None)
    }

    pub fn open_with(
        &mut self,
        role: &'static str,
        parent: Node,
        alt: Option<String>,
        scope: Option<&'static str>,
    ) -> Node {
        let node = self.elements.len();
        self.elements.push(Element { role, parent: Some(parent), kids: Vec::new(), alt, scope });
        self.elements[parent].kids.push(Kid::Node(node));
        node
    }

    /// The role of `node` (what its marked content is tagged as).
    pub fn role(&self, node: Node) -> &'static str {
        self.elements[node].role
    }

    /// `node` shows marked content `mcid` of `page`.
    pub fn mark(&mut self, node: Node, page: Ref, mcid: i32) {
        self.elements[node].kids.push(Kid::Marked { page, mcid });
    }

    /// The next page's struct-parents key; `nodes[mcid]` names what each id belongs to.
    pub fn page(&mut self, nodes: Vec<Node>) -> i32 {
        let key = (self.parents.len() + self.pages.len()) as i32;
        self.pages.push(PageMarks { key, nodes });
        key
    }

    /// Ends the part: its elements and its pages' parent-tree arrays go out.
    pub fn end_part<W: std::io::Write>(&mut self, file: &mut File<W>) -> std::io::Result<()> {
        if self.elements.is_empty() {
            return Ok(());
        }
        let count = (self.elements.len() + self.pages.len()) as i32;
        let stream = file.id();
        let first = file.ids(count).get();
        let id = |node: Node| first + node as i32;
        let mut bodies = Vec::with_capacity(count as usize);
        for element in &self.elements {
            let parent = element.parent.map_or(self.document.get(), id);
            let mut body = format!("<</Type/StructElem/S/{}/P {parent} 0 R", element.role);
            if let Some(alt) = &element.alt {
                body.push_str(&format!("/Alt{}", text_string(alt)));
            }
            if let Some(scope) = element.scope {
                body.push_str(&format!("/A<</O/Table/Scope/{scope}>>"));
            }
            body.push_str("/K[");
            for kid in &element.kids {
                match kid {
                    Kid::Marked { page, mcid } => {
                        body.push_str(&format!("<</Type/MCR/Pg {} 0 R/MCID {mcid}>>", page.get()))
                    }
                    Kid::Node(n) => body.push_str(&format!("{} 0 R ", id(*n))),
                }
            }
            body.push_str("]>>");
            bodies.push(body);
        }
        for page in &self.pages {
            let refs: Vec<String> = page.nodes.iter().map(|n| format!("{} 0 R", id(*n))).collect();
            self.parents.push(pdf_writer::Ref::new(first + bodies.len() as i32));
            debug_assert_eq!(page.key as usize + 1, self.parents.len());
            bodies.push(format!("[{}]", refs.join(" ")));
        }
        file.packed(stream, Ref::new(first), &bodies)?;
        self.parts.push(Ref::new(first));
        self.elements.clear();
        self.pages.clear();
        Ok(())
    }

    /// The tree's root and the Document, one chunk each.
    pub fn objects(&self) -> [Chunk; 2] {
        root_and_document(self.root, self.document, &self.parents, &self.parts)
    }
}

/// A PDF text string for any text: UTF-16BE with its byte-order mark, in hex.
pub fn text_string(text: &str) -> String {
    let mut out = String::from("<FEFF");
    for unit in text.encode_utf16() {
        out.push_str(&format!("{unit:04X}"));
    }
    out.push('>');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_strings_hold_any_character_safely() {
        assert_eq!(text_string("a)"), "<FEFF00610029>");
        assert_eq!(text_string("Ω"), "<FEFF03A9>");
    }
}
