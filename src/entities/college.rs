//! A California community college (seeded).

reference_entity!("colleges" {});
