//! The integration suite as one test binary: one link instead of one per file, and one
//! copy of the app on disk (each file used to link its own ~500 MB debug binary).

mod common;
mod support;

mod access;
mod audit;
mod backup;
mod binary;
mod budgets;
mod contention;
mod controls;
mod crash;
mod demo;
mod derived;
mod fiscal_years;
mod health;
mod heavy;
mod hostile;
mod hygiene;
mod idempotency;
mod identity;
mod layers;
mod limits;
mod lists;
mod mail;
mod mfa;
mod notifications;
mod openapi;
mod packets;
mod participant_import;
mod participants;
mod passkeys;
mod payment_requests;
mod receipts;
mod reference;
mod reference_edits;
mod reports;
mod scale_out;
mod server;
mod sessions;
mod settings;
mod shutdown;
mod sso_ldap;
mod sso_oidc;
mod upgrade;
mod vendor_payments;
