//! A mentor program (reference list with a unique code).

reference_entity!("mentor_programs" {});
