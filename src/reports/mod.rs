//! Reports (DESIGN §6). Each report lives in its own module with its own routes.

pub mod vendor_payments;
