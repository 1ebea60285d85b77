//! Every action that changes budget lines, one function each, owning its transaction: the
//! caller's scope and the lines are read inside it, and each changed line's activity entry
//! is written there (`note_line`) before the commit.

use std::collections::HashMap;

use sea_orm::{ConnectionTrait, DatabaseConnection};
use serde_json::{json, Value};

use super::{
    dto::{BudgetDetailDto, CopyBudgetResult},
    rules::{self, LineKey},
    store,
};
use crate::{
    activity,
    auth::{scope::scope_of, CurrentUser},
    entities::budget_line,
    error::{ApiError, ApiResult},
    money::Money,
    settings::{
        self,
        year_lock::{self, Charge},
    },
};

/// A line's fields as the audit trail records them.
fn line_fields(fiscal_year_id: i32, key: &LineKey, cents: i64) -> Value {
    json!({
        "fiscalYearId": fiscal_year_id, "mentorProgramId": key.mentor_program_id,
        "fundId": key.fund_id, "expenseAccountId": key.expense_account_id, "amount": Money(cents),
    })
}

fn key_of(line: &budget_line::Model) -> LineKey {
    LineKey {
        mentor_program_id: line.mentor_program_id,
        fund_id: line.fund_id,
        expense_account_id: line.expense_account_id,
    }
}

/// The activity entry of one budget line, with its fields before and after (null where
/// it did not exist).
async fn note_line(
    txn: &impl ConnectionTrait,
    me: &CurrentUser,
    (line_id, action): (i32, &str),
    (before, after): (Value, Value),
    data: Value,
) -> ApiResult<()> {
    let change = (&before, &after);
    activity::note_change(txn, (store::LINE_ENTITY, line_id), action, &me.into(), change, data)
        .await
}

/// One line's amount, based on `version` when given (a later one is a 409): the line after,
/// and what is approved on it.
pub async fn update_line(
    db: &DatabaseConnection,
    me: &CurrentUser,
    id: i32,
    amount: i64,
    version: Option<i32>,
) -> ApiResult<(budget_line::Model, i64)> {
    let txn = crate::db::write(db).await?;
    let scope = scope_of(&txn, me).await?;
    let before = store::get_line(&txn, id).await?;
    if !scope.allows_program(before.mentor_program_id) {
        return Err(ApiError::not_found("The budget line"));
    }
    let year = settings::store::get_fiscal_year(&txn, before.fiscal_year_id).await?;
    year_lock::check_open(Charge::EditBudgetLine, Some((&year).into()))?;
    if !store::set_amount(&txn, id, amount, version).await? {
        return Err(ApiError::Stale(format!(
            "The budget line was changed by someone else (version {} is current). Reload and try again.",
            before.version
        )));
    }
    let after = store::get_line(&txn, id).await?;
    let data = json!({"fiscalYearId": after.fiscal_year_id, "from": Money(before.amount_cents), "to": Money(after.amount_cents)});
    let fields = |l: &budget_line::Model| line_fields(l.fiscal_year_id, &key_of(l), l.amount_cents);
    note_line(&txn, me, (id, "updated"), (fields(&before), fields(&after)), data).await?;
    let approved = store::approved_by_line(&txn, after.fiscal_year_id).await?;
    txn.commit().await?;
    let approved = store::approved_of(&approved, &after);
    Ok((after, approved))
}

/// Sets every listed line of a year, creating the missing ones, all or none: the year's
/// budget after, as the caller may see it.
pub async fn bulk_update(
    db: &DatabaseConnection,
    me: &CurrentUser,
    fiscal_year_id: i32,
    keys: &[(LineKey, Money)],
) -> ApiResult<BudgetDetailDto> {
    let now = crate::clock::now();
    let txn = crate::db::write(db).await?;
    let scope = scope_of(&txn, me).await?;
    for (i, (key, _)) in keys.iter().enumerate() {
        scope.require_program(key.mentor_program_id, &format!("lines[{i}].mentorProgramId"))?;
    }
    let year = match settings::store::get_fiscal_year(&txn, fiscal_year_id).await {
        // A body naming an unknown year breaks a rule on stored data (422 naming the field), not a missing resource.
        Err(ApiError::NotFound(_)) => {
            return Err(ApiError::rule(
                "fiscalYearId",
                format!("no fiscal year has id {fiscal_year_id}"),
            ));
        }
        other => other?,
    };
    year_lock::check_open(Charge::EditBudget, Some((&year).into()))?;
    let key_list: Vec<LineKey> = keys.iter().map(|(k, _)| *k).collect();
    let known = store::known_ids(&txn, &key_list).await?;
    let amounts = rules::check_bulk(keys, &known)?;
    let existing: HashMap<(i32, i32, i32), budget_line::Model> =
        store::lines_of_year(&txn, fiscal_year_id)
            .await?
            .into_iter()
            .map(|l| ((l.mentor_program_id, l.fund_id, l.expense_account_id), l))
            .collect();
    // Every line in this one transaction: any failure leaves the budget as it was.
    for (key, cents) in key_list.iter().zip(amounts) {
        let after = line_fields(fiscal_year_id, key, cents);
        let (line_id, from, action, before) =
            match existing.get(&(key.mentor_program_id, key.fund_id, key.expense_account_id)) {
                Some(line) if line.amount_cents == cents => continue,
                Some(line) => {
                    store::set_amount(&txn, line.id, cents, None).await?;
                    let before = line_fields(fiscal_year_id, key, line.amount_cents);
                    (line.id, Some(Money(line.amount_cents)), "updated", before)
                }
                None => (
                    store::insert_line(&txn, fiscal_year_id, key, cents, now).await?,
                    None,
                    "created",
                    Value::Null,
                ),
            };
        let data =
            json!({"fiscalYearId": fiscal_year_id, "from": from, "to": Money(cents), "bulk": true});
        note_line(&txn, me, (line_id, action), (before, after), data).await?;
    }
    let result = store::detail(&txn, &scope, fiscal_year_id).await?;
    txn.commit().await?;
    Ok(result)
}

/// Creates every line of the source year in the empty target year, each amount changed by
/// the percentage (hundredths of a percent, checked by the caller): all or none.
pub async fn copy_from(
    db: &DatabaseConnection,
    me: &CurrentUser,
    (target_id, source_id): (i32, i32),
    percent_hundredths: i64,
) -> ApiResult<CopyBudgetResult> {
    let now = crate::clock::now();
    let txn = crate::db::write(db).await?;
    let scope = scope_of(&txn, me).await?;
    let target = settings::store::get_fiscal_year(&txn, target_id).await?;
    let source = settings::store::get_fiscal_year(&txn, source_id).await?;
    year_lock::check_open(Charge::CopyBudget, Some((&target).into()))?;
    if target_id == source_id {
        return Err(ApiError::rule("sourceFiscalYearId", "must be another fiscal year"));
    }
    if !store::lines_of_year(&txn, target_id).await?.is_empty() {
        return Err(ApiError::Conflict(format!(
            "The fiscal year {} already has budget lines; a budget is copied only into an empty year.",
            target.name
        )));
    }
    let lines: Vec<budget_line::Model> = store::lines_of_year(&txn, source_id)
        .await?
        .into_iter()
        .filter(|l| scope.allows_program(l.mentor_program_id))
        .collect();
    let source_amounts: Vec<i64> = lines.iter().map(|l| l.amount_cents).collect();
    let amounts = rules::rolled_over(&source_amounts, percent_hundredths)
        .ok_or_else(|| ApiError::bad_field("percentChange", "makes an amount too large"))?;
    let mut total = 0i64;
    for (line, cents) in lines.iter().zip(amounts) {
        let key = key_of(line);
        let id = store::insert_line(&txn, target_id, &key, cents, now).await?;
        let data = json!({"fiscalYearId": target_id, "to": Money(cents), "copiedFrom": {"fiscalYearId": source.id, "lineId": line.id, "amount": Money(line.amount_cents)}});
        let after = line_fields(target_id, &key, cents);
        note_line(&txn, me, (id, "created"), (Value::Null, after), data).await?;
        total += cents;
    }
    txn.commit().await?;
    Ok(CopyBudgetResult { created: lines.len(), total: Money(total) })
}
