//! A fund money is paid from (unique code).

reference_entity!("funds" {});
