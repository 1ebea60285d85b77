//! Everything that treats SQLite differently from PostgreSQL for speed, in one place, each
//! piece with the portable path beside it (what PostgreSQL, and an in-memory SQLite, run):
//! - `pin`: a page of the request list names the index SQLite must walk (`INDEXED BY`), the
//!   one edit of generated SQL text in the tree; elsewhere the statement runs as sea-orm
//!   built it. Without planner statistics SQLite walked `(status, submitted_on)` and read
//!   three rows per page row (page 101 of one program and status: 36.7 → 0.85 ms).
//! - `reader` and `rows`: a report export reads the SQLite file through a read-only rusqlite
//!   connection of its own, stepping, mapping and writing on three threads, rows handed over
//!   in batches with no allocation per cell (a 100,000-row CSV in about a third of a second);
//!   elsewhere rows stream through sea-orm. One row mapping per report serves both
//!   (`reports::fields`).
//!
//! The figures, and how to take them again, are in docs/benchmarks.md; why each was kept, in
//! docs/decisions-speed.md.
//!
//! Changing a column safely: a report names its columns once, in its sea-query select, and
//! both readers run that same statement, so a renamed or added column needs nothing here.
//! A new kind of value in a result column needs a `FromSqlite` in `rows` (how SQLite stores
//! it) as well as sea-orm's `TryGetable`; a new kind of bound value needs `reader::bind` (as
//! sqlx binds it, or the comparison sees other text). A change to the columns of the pinned
//! index needs the page shape in `payment_requests::store::list::page_index` checked against
//! `EXPLAIN QUERY PLAN`: a pinned index that cannot answer the statement makes it fail.

pub mod pin;
pub mod reader;
pub mod rows;
