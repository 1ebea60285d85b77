//! The PDF's logical structure (a tagged PDF, for screen readers and reflow): a Document
//! holding the title (H1), the filter and generation lines (P) and one Table: its header
//! row in a THead, each page's rows in a TBody, each row (TR) its header cells (TH) or data
//! cells (TD), in reading order. Each page's marked
//! content names its element through the parent tree. Running headers and footers repeated
//! on later pages are artifacts, not content.
//!
//! The elements of a page are written when the page is done, packed into one compressed
//! object stream (`file::File::packed`): a 200,000-row table has millions of them.

use pdf_writer::{types::StructRole, writers::StructTreeRoot, Chunk, Finish, Ref};

/// One tagged piece of a page, with the marked-content ids of what it shows.
pub enum Block {
    Heading(i32),
    Paragraph(i32),
    /// A table row: its cells' marked content (None: an empty cell); header cells or data.
    Row {
        header: bool,
        cells: Vec<Option<i32>>,
    },
}

impl Block {
    /// Ids the block takes: itself, a row its cells, a header row its THead.
    fn ids(&self) -> i32 {
        match self {
            Block::Row { header, cells } => 1 + i32::from(*header) + cells.len() as i32,
            _ => 1,
        }
    }
}

/// The structure of a whole document, gathered page by page.
pub struct Tags {
    pub root: Ref,
    pub document: Ref,
    pub table: Ref,
    document_kids: Vec<Ref>,
    table_kids: Vec<Ref>,
    /// Each page's array of elements by marked-content id, by page index.
    parents: Vec<Ref>,
}

impl Tags {
    pub fn new(root: Ref, document: Ref, table: Ref) -> Tags {
        Tags {
            root,
            document,
            table,
            document_kids: Vec::new(),
            table_kids: Vec::new(),
            parents: Vec::new(),
        }
    }

    /// Ids a page with these blocks takes: theirs, a TBody when it has data rows, and
    /// the parent-tree array.
    pub fn ids(blocks: &[Block]) -> i32 {
        let body = blocks.iter().any(|b| matches!(b, Block::Row { header: false, .. }));
        blocks.iter().map(Block::ids).sum::<i32>() + i32::from(body) + 1
    }

    /// The elements of page `page` (the next page in order) as object bodies, numbered
    /// from `first` (`Tags::ids` of them), the parent-tree array last. A page's data rows
    /// sit in one TBody of the table, so the table lists a child per page, not per row.
    pub fn page(&mut self, page: Ref, first: Ref, blocks: &[Block]) -> Vec<String> {
        let mut bodies: Vec<String> = Vec::with_capacity(Tags::ids(blocks) as usize);
        let mut by_mcid: Vec<i32> = Vec::new();
        let mut mark = |mcid: i32, element: i32| {
            let i = mcid as usize;
            if by_mcid.len() <= i {
                by_mcid.resize(i + 1, 0);
            }
            by_mcid[i] = element;
        };
        let (pg, table, document) = (page.get(), self.table.get(), self.document.get());
        let first = first.get();
        // The page's TBody: its id (its body's place) and its rows, filled in at the end.
        let mut body: Option<(i32, Vec<i32>)> = None;
        for block in blocks {
            let id = first + bodies.len() as i32;
            match block {
                Block::Heading(mcid) | Block::Paragraph(mcid) => {
                    let role = if matches!(block, Block::Heading(_)) { "H1" } else { "P" };
                    bodies.push(format!("<</S/{role}/P {document} 0 R/Pg {pg} 0 R/K {mcid}>>"));
                    mark(*mcid, id);
                    self.document_kids.push(Ref::new(id));
                }
                Block::Row { header, cells } => {
                    if self.table_kids.is_empty() {
                        self.document_kids.push(self.table);
                    }
                    let parent = if *header {
                        bodies.push(format!("<</S/THead/P {table} 0 R/K {} 0 R>>", id + 1));
                        self.table_kids.push(Ref::new(id));
                        id
                    } else {
                        let (tbody, rows) = body.get_or_insert_with(|| {
                            bodies.push(String::new());
                            self.table_kids.push(Ref::new(id));
                            (id, Vec::new())
                        });
                        rows.push(first + bodies.len() as i32);
                        *tbody
                    };
                    let tr = first + bodies.len() as i32;
                    let kids: Vec<String> =
                        (1..=cells.len() as i32).map(|i| format!("{} 0 R", tr + i)).collect();
                    bodies.push(format!("<</S/TR/P {parent} 0 R/K[{}]>>", kids.join(" ")));
                    let (role, scope) =
                        if *header { ("TH", "/A<</O/Table/Scope/Column>>") } else { ("TD", "") };
                    for (i, mcid) in cells.iter().enumerate() {
                        let kid = match mcid {
                            Some(m) => {
                                mark(*m, tr + 1 + i as i32);
                                m.to_string()
                            }
                            None => "[]".to_owned(),
                        };
                        bodies.push(format!("<</S/{role}/P {tr} 0 R/Pg {pg} 0 R{scope}/K {kid}>>"));
                    }
                }
            }
        }
        if let Some((tbody, rows)) = body {
            let kids: Vec<String> = rows.iter().map(|r| format!("{r} 0 R")).collect();
            bodies[(tbody - first) as usize] =
                format!("<</S/TBody/P {table} 0 R/K[{}]>>", kids.join(" "));
        }
        let refs: Vec<String> = by_mcid.iter().map(|id| format!("{id} 0 R")).collect();
        bodies.push(format!("[{}]", refs.join(" ")));
        self.parents.push(Ref::new(first + bodies.len() as i32 - 1));
        bodies
    }

    /// The tree's root, the Document and the Table, one chunk each (root, document, table).
    pub fn objects(&self) -> [Chunk; 3] {
        let [root, document] =
            root_and_document(self.root, self.document, &self.parents, &self.document_kids);
        let mut table = Chunk::new();
        let mut element = table.struct_element(self.table);
        element.kind(StructRole::Table).parent(self.document);
        let mut kids = element.children();
        self.table_kids.iter().for_each(|k| _ = kids.struct_element(*k));
        kids.finish();
        element.finish();
        [root, document, table]
    }
}

/// A structure tree's root, its parent tree holding `parents` (each page's array, by
/// struct-parents key), and the Document element under it with `kids`: one chunk each.
pub fn root_and_document(root: Ref, document: Ref, parents: &[Ref], kids: &[Ref]) -> [Chunk; 2] {
    let mut root_chunk = Chunk::new();
    let mut tree = root_chunk.indirect(root).start::<StructTreeRoot>();
    tree.child(document);
    let mut nums = tree.parent_tree();
    let mut entries = nums.nums();
    for (i, array) in parents.iter().enumerate() {
        entries.insert(i as i32, *array);
    }
    entries.finish();
    nums.finish();
    tree.parent_tree_next_key(parents.len() as i32);
    tree.finish();
    let mut document_chunk = Chunk::new();
    let mut element = document_chunk.struct_element(document);
    element.kind(StructRole::Document).parent(root);
    let mut children = element.children();
    kids.iter().for_each(|k| _ = children.struct_element(*k));
    children.finish();
    element.finish();
    [root_chunk, document_chunk]
}
