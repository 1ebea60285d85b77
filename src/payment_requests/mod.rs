//! Payment requests: the 14 forms and their approval workflow (DESIGN §4).

pub mod workflow;
