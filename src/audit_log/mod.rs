//! Reading the audit trail: the paged list with its filters, the same as a file, and the
//! chain's verification.
//! Entries are written by the kernel (`crate::audit`); nothing here changes them.

pub mod api;
pub mod dto;
pub mod export;
pub mod queries;
pub mod words;

use crate::{
    auth::Permission as P,
    routes::{Access::*, Routes},
};

pub fn configure(r: &mut Routes) {
    r.get("/audit-log", Needs(P::AuditRead), api::list)
        .get("/audit-log/retrieve", Needs(P::AuditRead), api::retrieve)
        .get("/audit-log/verify", Needs(P::AuditRead), api::verify);
}
