//! Wire types of the audit trail.

use std::collections::HashMap;

use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::words::Names;
use crate::entities::{audit_log, codes::FormType};
use crate::{error::ApiResult, web::check_order};

/// The entity types whose entries name the record's page by more than their own id.
pub use crate::{
    budgets::store::LINE_ENTITY as BUDGET_LINE,
    participants::store::PARTICIPATION_ENTITY as PARTICIPATION,
    payment_requests::store::ENTITY as REQUEST,
};

/// What the pages of the records a page of entries names need beyond their ids, read in
/// one query per kind: a request's form, a participation's participant, a budget line's
/// fiscal year (the entry itself keeps only the fields that changed).
#[derive(Debug, Default)]
pub struct Parents {
    pub forms: HashMap<i32, FormType>,
    pub participants: HashMap<i32, i32>,
    pub years: HashMap<i32, i32>,
}

/// The filters of the trail; every one optional.
#[derive(Debug, Clone, Default, Deserialize, IntoParams)]
#[serde(rename_all = "lowercase")]
#[into_params(parameter_in = Query)]
pub struct AuditQuery {
    #[param(rename = "Page", minimum = 1, maximum = 1000000)]
    pub page: Option<i64>,
    #[param(rename = "Size", minimum = 1, maximum = 500)]
    pub size: Option<i64>,
    /// The kind of record (`payment-request`, `participant`, `user`, …).
    #[param(rename = "EntityType")]
    #[serde(rename = "entitytype")]
    pub entity_type: Option<String>,
    /// One record of `EntityType`.
    #[param(rename = "EntityId")]
    #[serde(rename = "entityid")]
    pub entity_id: Option<i32>,
    /// Entries by this user.
    #[param(rename = "ActorId")]
    #[serde(rename = "actorid")]
    pub actor_id: Option<i32>,
    /// What happened (`updated`, `approved`, `sign-in-failed`, …).
    #[param(rename = "Action")]
    pub action: Option<String>,
    /// First day (UTC), inclusive.
    #[param(rename = "From", value_type = Option<String>, format = Date)]
    #[serde(default, deserialize_with = "crate::web::opt_date")]
    pub from: Option<NaiveDate>,
    /// Last day (UTC), inclusive.
    #[param(rename = "To", value_type = Option<String>, format = Date)]
    #[serde(default, deserialize_with = "crate::web::opt_date")]
    pub to: Option<NaiveDate>,
}

impl AuditQuery {
    /// The filters, a `To` before `From` refused (a 422 naming `To`).
    pub fn checked(self) -> ApiResult<Self> {
        check_order(self.from, "From", self.to, "To")?;
        Ok(self)
    }
}

/// Who acted, as they were named then.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditActor {
    pub id: Option<i32>,
    pub email: Option<String>,
    pub full_name: Option<String>,
}

/// One entry: a change or a security event.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditEntry {
    pub id: i32,
    pub at: DateTime<Utc>,
    /// Null for someone not signed in (a refused sign-in) or the system.
    pub actor: Option<AuditActor>,
    pub ip: Option<String>,
    pub entity_type: String,
    pub entity_id: Option<i32>,
    pub action: String,
    /// The changed fields as they were (an object), or null.
    #[schema(value_type = Option<Object>)]
    pub before: Option<serde_json::Value>,
    /// The changed fields as they are after (an object), or null.
    #[schema(value_type = Option<Object>)]
    pub after: Option<serde_json::Value>,
    /// The record in words: its kind and its name ("Payment request F2 #601", "Fund
    /// 1000 General fund"); "#4 (removed)" for a record no longer there.
    pub record: String,
    /// What happened in words ("Sign in failed").
    pub action_label: String,
    /// The changed fields in words, as the screen and the files show them.
    pub changes: Vec<super::words::FieldChange>,
    /// A payment request's entry only: the request's form, which its address names.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<crate::entities::codes::FormType>)]
    pub form_type: Option<FormType>,
    /// A participation's entry only, while the participation exists: its participant, whose
    /// page shows it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub participant_id: Option<i32>,
    /// A budget line's entry only, while the line exists: its fiscal year, whose budget page
    /// shows it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fiscal_year_id: Option<i32>,
}

impl AuditEntry {
    /// The entry as the list shows it, with what its record's page needs from `parents`
    /// and the records it names in words from `names`.
    pub fn shown(e: audit_log::Model, parents: &Parents, names: &Names) -> Self {
        let form_type = parent(&e, REQUEST, &parents.forms);
        let participant_id = parent(&e, PARTICIPATION, &parents.participants);
        let fiscal_year_id = parent(&e, BUDGET_LINE, &parents.years);
        let record = names.record(&e.entity_type, e.entity_id);
        let action_label = super::words::label(&e.action);
        let mut entry = Self::from(e);
        entry.changes = names.changes(&entry.before, &entry.after);
        Self { form_type, participant_id, fiscal_year_id, record, action_label, ..entry }
    }
}

/// What `of` holds for the entry's record when the entry is of `kind`.
fn parent<T: Copy>(e: &audit_log::Model, kind: &str, of: &HashMap<i32, T>) -> Option<T> {
    e.entity_id.filter(|_| e.entity_type == kind).and_then(|id| of.get(&id).copied())
}

impl From<audit_log::Model> for AuditEntry {
    fn from(e: audit_log::Model) -> Self {
        let parse = |t: Option<String>| t.and_then(|t| serde_json::from_str(&t).ok());
        let actor = (e.actor_id.is_some() || e.actor_email.is_some()).then_some(AuditActor {
            id: e.actor_id,
            email: e.actor_email,
            full_name: e.actor_name,
        });
        Self {
            id: e.id,
            at: e.at,
            actor,
            ip: e.ip,
            entity_type: e.entity_type,
            entity_id: e.entity_id,
            action: e.action,
            before: parse(e.before),
            after: parse(e.after),
            record: String::new(),
            action_label: String::new(),
            changes: Vec::new(),
            form_type: None,
            participant_id: None,
            fiscal_year_id: None,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditPage {
    pub items: Vec<AuditEntry>,
    pub page: u64,
    pub size: u64,
    pub total_count: u64,
    /// False when counting stopped: at least `totalCount` entries match.
    pub total_count_is_exact: bool,
}

/// The chain recomputed: how many entries, whether all hold, and the first that does not.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditVerdict {
    pub entries: u64,
    pub ok: bool,
    pub first_broken_id: Option<i32>,
}
