//! An expense account charged by approvals (unique code).

reference_entity!("expense_accounts" {});
