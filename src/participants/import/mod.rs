//! Participants brought in from a spreadsheet: the file read into cells (`file`), each row
//! judged against the stored participants (`rules`, pure), the lists and participants it
//! reads (`store`), the template to fill in with the allowed values (`template`); the command
//! that writes all rows or none is `participants::commands::import`.

pub mod api;
pub mod dto;
pub mod file;
pub mod rules;
pub mod store;
pub mod template;
