//! Every table and column the database keeps by itself, and every trigger there is.
//!
//! What it buys: totals and copies that would cost a scan of up to a million requests per
//! call are kept by triggers in the transaction of the write that changes their source, so a
//! summary, a list count or a grouped report reads a few hundred rows instead (the figures, and
//! how to take them again, are in docs/benchmarks.md). Triggers rather than application code,
//! so that no write path (an action, a batch move, seeding, the demo, an UPDATE by hand) can
//! forget them. Each has a plain path beside it: a zone off the whole hour (and a date window
//! for the reports without hourly figures) reads the source rows themselves, and the tests
//! recount every kept figure from them.
//!
//! Changing a column of a source table safely:
//! - find the table under `from` below; each entry names the migrations that hold its
//!   triggers (a SQLite and a PostgreSQL text that say the same thing) and who reads it;
//! - released migrations are never edited: a new migration drops the entry's triggers in both
//!   dialects, creates them again over the new column and backfills the kept table;
//! - name any trigger it adds or renames here, in both dialects: the integration test
//!   `derived::the_database_holds_exactly_the_named_triggers` compares this list with a freshly
//!   migrated database;
//! - the per-line and per-form totals write the "charged" statuses again in SQL: a change to
//!   `payment_requests::workflow::CHARGED` needs a new migration as well.
//!
//! A new form or status needs nothing here: the keys are the stored values.
//!
//! Two derived columns are kept by application code instead, in the transaction of the write:
//! `participants.program_keys` (the programs of a participant's live participations,
//! `participants::store::refresh_program_keys`) and `participants.sort_name` (the folded
//! name, `participants::rules::fold`).

use sea_orm::DbBackend;

/// A table or column kept by triggers.
pub struct Kept {
    /// The kept table, or `table.column` for kept columns.
    pub kept: &'static str,
    /// What it holds, keyed by what.
    pub holds: &'static str,
    /// The tables whose writes move it.
    pub from: &'static [&'static str],
    /// The migrations whose triggers keep it now (older ones they replaced are not named).
    pub migrations: &'static [&'static str],
    /// The files that read it.
    pub read_by: &'static [&'static str],
    pub sqlite_triggers: &'static [&'static str],
    pub postgres_triggers: &'static [&'static str],
}

/// Triggers that keep nothing but refuse a change.
pub struct Guard {
    pub table: &'static str,
    pub refuses: &'static str,
    pub migration: &'static str,
    pub sqlite_triggers: &'static [&'static str],
    pub postgres_triggers: &'static [&'static str],
}

/// One SQLite trigger per event (it takes one each), named `<prefix>_<event>`.
macro_rules! per_event {
    ($prefix:literal: $($event:literal),+) => {
        &[$(concat!($prefix, "_", $event)),+]
    };
}

/// The participants' name lists: one column each, kept from a link table and the renames of
/// the names it links to.
macro_rules! name_list {
    ($column:literal, $link:literal, $names:literal) => {
        Kept {
            kept: concat!("participants.", $column),
            holds: "the sorted distinct names a participant links to, \"A; B\"",
            from: &[$link, $names],
            migrations: &["m20261126_000143_participant_name_lists"],
            read_by: &["src/reports/participants.rs"],
            sqlite_triggers: per_event!($column: "insert", "update", "delete", "rename"),
            postgres_triggers: &[concat!($column, "_refresh"), concat!($column, "_rename")],
        }
    };
}

pub const KEPT: &[Kept] = &[
    Kept {
        kept: "payment_request_totals",
        holds: "count, requested and approved cents of live requests per program × status",
        from: &["payment_requests"],
        migrations: &["m20261121_000031_payment_request_totals"],
        read_by: &["src/payment_requests/store/list.rs", "src/entities/payment_request_total.rs"],
        sqlite_triggers: per_event!("payment_request_totals": "insert", "update", "delete"),
        postgres_triggers: &["payment_request_totals"],
    },
    Kept {
        kept: "payment_request_year_totals",
        holds: "the same per program × fiscal year × status",
        from: &["payment_requests"],
        migrations: &["m20261123_000120_payment_request_year_totals"],
        read_by: &["src/reports/reimbursements.rs"],
        sqlite_triggers: per_event!("payment_request_year_totals": "insert", "update", "delete"),
        postgres_triggers: &["payment_request_year_totals"],
    },
    Kept {
        kept: "request_approvals",
        holds: "one row per approval: code, fund, account, year and amounts at that approval",
        from: &["activity_log"],
        migrations: &["m20261123_000040_request_approvals"],
        read_by: &["src/reports/all_approvals.rs"],
        sqlite_triggers: &["request_approvals_from_log"],
        postgres_triggers: &["request_approvals_from_log"],
    },
    Kept {
        kept: "request_approvals.mentor_program_id, form_type, participant_id, request_status, request_live",
        holds: "each approval's copy of its request's program, form, payee, status and whether it is live",
        from: &["payment_requests", "request_approvals"],
        migrations: &["m20261127_000240_request_approval_facts"],
        read_by: &["src/reports/all_approvals.rs"],
        sqlite_triggers: &[
            "request_approval_facts_insert",
            "request_approval_facts_request_update",
            "request_approval_facts_request_delete",
        ],
        postgres_triggers: &["request_approval_facts_of_approval", "request_approval_facts_of_request"],
    },
    Kept {
        kept: "request_approval_totals",
        holds: "approvals of live requests per program × approval year × form",
        from: &["request_approvals", "payment_requests"],
        migrations: &[
            "m20261123_000121_request_approval_totals",
            "m20261127_000240_request_approval_facts",
        ],
        read_by: &["src/reports/all_approvals.rs"],
        sqlite_triggers: per_event!("request_approval_totals":
            "insert", "update", "delete", "request_update", "request_delete"),
        postgres_triggers: &["request_approval_totals_of_approval", "request_approval_totals_of_request"],
    },
    Kept {
        kept: "payment_request_line_totals",
        holds: "charged count and cents per program × fiscal year × fund × account",
        from: &["payment_requests"],
        migrations: &["m20261126_000142_kept_report_totals"],
        read_by: &["src/reports/kept.rs"],
        sqlite_triggers: per_event!("payment_request_line_totals": "insert", "update", "delete"),
        postgres_triggers: &["payment_request_line_totals"],
    },
    Kept {
        kept: "payment_request_form_totals",
        holds: "submitted, charged and days to approval per program × fiscal year × form × approval hour",
        from: &["payment_requests"],
        migrations: &["m20261126_000142_kept_report_totals"],
        read_by: &["src/reports/kept.rs"],
        sqlite_triggers: per_event!("payment_request_form_totals": "insert", "update", "delete"),
        postgres_triggers: &["payment_request_form_totals"],
    },
    Kept {
        kept: "payment_request_form_days",
        holds: "requests submitted per submitted day × program × fiscal year × form",
        from: &["payment_requests"],
        migrations: &["m20261204_000100_window_totals"],
        read_by: &["src/reports/kept.rs"],
        sqlite_triggers: per_event!("payment_request_form_days": "insert", "update", "delete"),
        postgres_triggers: &["payment_request_form_days"],
    },
    Kept {
        kept: "payment_request_form_hours",
        holds: "charged count, cents and days to approval per approval hour (since 1970, UTC) × program × fiscal year × form",
        from: &["payment_requests"],
        migrations: &["m20261204_000100_window_totals"],
        read_by: &["src/reports/kept.rs"],
        sqlite_triggers: per_event!("payment_request_form_hours": "insert", "update", "delete"),
        postgres_triggers: &["payment_request_form_hours"],
    },
    Kept {
        kept: "payment_request_line_hours",
        holds: "charged count and cents per approval hour (since 1970, UTC) × program × fiscal year × fund × account",
        from: &["payment_requests"],
        migrations: &["m20261204_000100_window_totals"],
        read_by: &["src/reports/kept.rs"],
        sqlite_triggers: per_event!("payment_request_line_hours": "insert", "update", "delete"),
        postgres_triggers: &["payment_request_line_hours"],
    },
    Kept {
        kept: "payment_requests.current_step_role, current_step_index",
        holds: "the role and place of the request's current approval step, NULL while none is",
        from: &["request_steps"],
        migrations: &["m20261204_000500_request_current_step"],
        read_by: &["src/payment_requests/store/list.rs"],
        sqlite_triggers: per_event!("request_current_step": "insert", "update", "delete"),
        postgres_triggers: &["request_current_step"],
    },
    name_list!("program_names", "participations", "mentor_programs"),
    name_list!("workplace_setting_names", "participant_workplace_settings", "workplace_settings"),
    name_list!("language_names", "participant_languages", "languages"),
    name_list!("education_level_names", "participant_education_levels", "education_levels"),
    name_list!("permit_level_names", "participant_permit_levels", "permit_levels"),
    Kept {
        kept: "participant_search",
        holds: "SQLite only: the trigram index of live participants' names and e-mails \
                (PostgreSQL keeps its own pg_trgm indexes, no trigger)",
        from: &["participants"],
        migrations: &[
            "m20261123_000081_participant_search",
            "m20261124_000131_participant_search_live_only",
        ],
        read_by: &["src/participants/store.rs"],
        sqlite_triggers: per_event!("participant_search": "insert", "update", "delete"),
        postgres_triggers: &[],
    },
    Kept {
        kept: "auth_version",
        holds: "one counter that moves whenever who may do what changes",
        from: &["user_roles", "role_permissions", "roles"],
        migrations: &["m20261123_000080_auth_version"],
        read_by: &["src/auth/mod.rs"],
        sqlite_triggers: &[
            "auth_version_user_roles_insert",
            "auth_version_user_roles_update",
            "auth_version_user_roles_delete",
            "auth_version_role_permissions_insert",
            "auth_version_role_permissions_update",
            "auth_version_role_permissions_delete",
            "auth_version_roles_update",
            "auth_version_roles_delete",
        ],
        postgres_triggers: &[
            "auth_version_user_roles",
            "auth_version_role_permissions",
            "auth_version_roles",
        ],
    },
];

pub const GUARDS: &[Guard] = &[Guard {
    table: "audit_log",
    refuses: "any update or delete (and on PostgreSQL a truncate): the trail is append-only",
    migration: "m20261127_000200_audit_log",
    sqlite_triggers: &["audit_log_no_update", "audit_log_no_delete"],
    postgres_triggers: &["audit_log_append_only", "audit_log_no_truncate"],
}];

/// Every trigger a database of `backend` holds once migrated, sorted.
pub fn triggers(backend: DbBackend) -> Vec<&'static str> {
    let postgres = backend == DbBackend::Postgres;
    let kept = KEPT.iter().map(|k| if postgres { k.postgres_triggers } else { k.sqlite_triggers });
    let guards =
        GUARDS.iter().map(|g| if postgres { g.postgres_triggers } else { g.sqlite_triggers });
    let mut all: Vec<&str> = kept.chain(guards).flatten().copied().collect();
    all.sort_unstable();
    all
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    #[test]
    fn every_named_migration_and_reader_exists() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let migrations =
            KEPT.iter().flat_map(|k| k.migrations).chain(GUARDS.iter().map(|g| &g.migration));
        for m in migrations {
            assert!(root.join("migrations/src").join(format!("{m}.rs")).is_file(), "{m}");
        }
        for file in KEPT.iter().flat_map(|k| k.read_by) {
            assert!(root.join(file).is_file(), "{file}");
        }
    }

    #[test]
    fn no_trigger_is_named_twice() {
        for backend in [DbBackend::Sqlite, DbBackend::Postgres] {
            let mut all = triggers(backend);
            let n = all.len();
            all.dedup();
            assert_eq!(all.len(), n, "{backend:?}");
        }
    }
}
