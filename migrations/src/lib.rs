//! Forward-only, portable (SQLite and PostgreSQL) schema migrations, applied on start.

pub use sea_orm_migration::prelude::*;

// Released migrations are never edited (tests/integration/upgrade.rs checks their text), so
// rustfmt leaves them as they shipped; new ones are formatted like the rest of the tree.

#[rustfmt::skip]
mod m20261121_000001_identity;
#[rustfmt::skip]
mod m20261121_000002_reference;
#[rustfmt::skip]
mod m20261121_000003_reference_seed;
#[rustfmt::skip]
mod m20261121_000004_participants;
#[rustfmt::skip]
mod m20261121_000005_participant_list_index;
#[rustfmt::skip]
mod m20261121_000010_settings;
#[rustfmt::skip]
mod m20261121_000011_budgets;
#[rustfmt::skip]
mod m20261121_000020_payment_requests;
#[rustfmt::skip]
mod m20261121_000030_participant_program_keys;
#[rustfmt::skip]
mod m20261121_000031_payment_request_totals;
#[rustfmt::skip]
mod m20261121_000032_payment_request_list_indexes;
#[rustfmt::skip]
mod m20261123_000040_request_approvals;
#[rustfmt::skip]
mod m20261123_000050_vendor_payment_reports;
#[rustfmt::skip]
mod m20261123_000080_auth_version;
#[rustfmt::skip]
mod m20261123_000081_participant_search;
#[rustfmt::skip]
mod m20261123_000082_payment_request_form_index;
#[rustfmt::skip]
mod m20261123_000090_program_approval_order_index;
#[rustfmt::skip]
mod m20261123_000100_payment_request_form_type_index;
#[rustfmt::skip]
mod m20261123_000110_payment_request_report_totals;
#[rustfmt::skip]
mod m20261123_000120_payment_request_year_totals;
#[rustfmt::skip]
mod m20261123_000121_request_approval_totals;
#[rustfmt::skip]
pub mod m20261124_000130_participant_folded_sort_name;
#[rustfmt::skip]
mod m20261124_000131_participant_search_live_only;
#[rustfmt::skip]
mod m20261124_000132_user_participant_index;
#[rustfmt::skip]
mod m20261126_000140_payment_request_approved_cover;
#[rustfmt::skip]
mod m20261126_000142_kept_report_totals;
#[rustfmt::skip]
mod m20261126_000143_participant_name_lists;
#[rustfmt::skip]
mod m20261126_000150_request_approvals_cover;
mod m20261127_000190_outbox;
mod m20261127_000200_audit_log;
mod m20261127_000220_fiscal_year_close;
mod m20261127_000230_digest_time;
mod m20261127_000240_request_approval_facts;
mod m20261127_000250_payment_request_line_window;
mod m20261127_000300_outbox_claim_token;
mod m20261127_000310_idempotency_keys;
mod m20261202_000320_payee_at_approval;
mod m20261202_000330_receipt_quota;
mod m20261202_000340_second_factor;
mod m20261202_000400_sso_tickets;
mod m20261202_000410_passkeys;
mod m20261202_000500_approval_chains;
mod m20261202_000600_out_of_office;
mod m20261202_000610_reminder_days;
mod m20261202_000620_step_reminders;
mod m20261203_000300_date_format;
mod m20261204_000100_window_totals;
mod m20261204_000200_waiting_indexes;
mod m20261204_000300_waiting_cover;
mod m20261204_000400_program_order;
mod m20261204_000500_request_current_step;

pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![
            Box::new(m20261121_000001_identity::Migration),
            Box::new(m20261121_000002_reference::Migration),
            Box::new(m20261121_000003_reference_seed::Migration),
            Box::new(m20261121_000004_participants::Migration),
            Box::new(m20261121_000005_participant_list_index::Migration),
            Box::new(m20261121_000010_settings::Migration),
            Box::new(m20261121_000011_budgets::Migration),
            Box::new(m20261121_000020_payment_requests::Migration),
            Box::new(m20261121_000030_participant_program_keys::Migration),
            Box::new(m20261121_000031_payment_request_totals::Migration),
            Box::new(m20261121_000032_payment_request_list_indexes::Migration),
            Box::new(m20261123_000040_request_approvals::Migration),
            Box::new(m20261123_000080_auth_version::Migration),
            Box::new(m20261123_000081_participant_search::Migration),
            Box::new(m20261123_000082_payment_request_form_index::Migration),
            Box::new(m20261123_000090_program_approval_order_index::Migration),
            Box::new(m20261123_000050_vendor_payment_reports::Migration),
            Box::new(m20261123_000100_payment_request_form_type_index::Migration),
            Box::new(m20261123_000110_payment_request_report_totals::Migration),
            Box::new(m20261123_000120_payment_request_year_totals::Migration),
            Box::new(m20261123_000121_request_approval_totals::Migration),
            Box::new(m20261124_000130_participant_folded_sort_name::Migration),
            Box::new(m20261124_000131_participant_search_live_only::Migration),
            Box::new(m20261124_000132_user_participant_index::Migration),
            Box::new(m20261126_000140_payment_request_approved_cover::Migration),
            Box::new(m20261126_000142_kept_report_totals::Migration),
            Box::new(m20261126_000143_participant_name_lists::Migration),
            Box::new(m20261126_000150_request_approvals_cover::Migration),
            Box::new(m20261127_000190_outbox::Migration),
            Box::new(m20261127_000220_fiscal_year_close::Migration),
            Box::new(m20261127_000200_audit_log::Migration),
            Box::new(m20261127_000230_digest_time::Migration),
            Box::new(m20261127_000240_request_approval_facts::Migration),
            Box::new(m20261127_000250_payment_request_line_window::Migration),
            Box::new(m20261127_000300_outbox_claim_token::Migration),
            Box::new(m20261127_000310_idempotency_keys::Migration),
            Box::new(m20261202_000320_payee_at_approval::Migration),
            Box::new(m20261202_000330_receipt_quota::Migration),
            Box::new(m20261202_000340_second_factor::Migration),
            Box::new(m20261202_000400_sso_tickets::Migration),
            Box::new(m20261202_000410_passkeys::Migration),
            Box::new(m20261202_000500_approval_chains::Migration),
            Box::new(m20261202_000600_out_of_office::Migration),
            Box::new(m20261202_000610_reminder_days::Migration),
            Box::new(m20261202_000620_step_reminders::Migration),
            Box::new(m20261203_000300_date_format::Migration),
            Box::new(m20261204_000100_window_totals::Migration),
            Box::new(m20261204_000200_waiting_indexes::Migration),
            Box::new(m20261204_000300_waiting_cover::Migration),
            Box::new(m20261204_000400_program_order::Migration),
            Box::new(m20261204_000500_request_current_step::Migration),
        ]
    }
}
