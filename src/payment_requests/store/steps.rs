//! A request's approval chain: the steps copied from its form's rule at submission, taken
//! one at a time. Each change of a step is conditional on the state it was read in, so of
//! two approvers racing on one step exactly one changes it.

use chrono::{DateTime, Utc};
use sea_orm::{
    sea_query::Expr, ActiveValue::Set, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter,
    QueryOrder,
};

use crate::{
    entities::request_step as step,
    error::ApiResult,
    money::Money,
    payment_requests::chain::{self, RuleStep, StepState, TakenStep},
};

/// The steps of request `id`, in order (none for a draft never submitted and for a request
/// approved before chains).
pub async fn of(db: &impl ConnectionTrait, id: i32) -> ApiResult<Vec<step::Model>> {
    Ok(step::Entity::find()
        .filter(step::Column::PaymentRequestId.eq(id))
        .order_by_asc(step::Column::StepIndex)
        .all(db)
        .await?)
}

/// A stored step as the chain's rules read it.
pub fn taken(s: &step::Model) -> TakenStep {
    TakenStep {
        name: s.name.clone(),
        role: s.role.clone(),
        state: StepState::parse(&s.state).unwrap_or(StepState::Waiting),
        by: s.by_user_id,
        on_behalf_of: s.on_behalf_of,
        approved_amount: s.approved_cents.map(Money),
    }
}

/// Replaces request `id`'s chain by `steps`, the first current from `now`.
pub async fn copy(
    txn: &impl ConnectionTrait,
    id: i32,
    steps: &[RuleStep],
    now: DateTime<Utc>,
) -> ApiResult<()> {
    reset(txn, id).await?;
    let rows =
        steps.iter().zip(chain::initial_states(steps.len())).enumerate().map(|(i, (s, state))| {
            step::ActiveModel {
                payment_request_id: Set(id),
                step_index: Set(i as i32),
                name: Set(s.name.clone()),
                role: Set(s.role.clone()),
                from_cents: Set(s.from_amount.cents()),
                state: Set(state.as_str().to_owned()),
                by_user_id: Set(None),
                at: Set(None),
                on_behalf_of: Set(None),
                approved_cents: Set(None),
                began_at: Set((state == StepState::Current).then_some(now)),
                ..Default::default()
            }
        });
    step::Entity::insert_many(rows).exec(txn).await?;
    Ok(())
}

/// Drops request `id`'s chain: the next submission copies the rule afresh.
pub async fn reset(txn: &impl ConnectionTrait, id: i32) -> ApiResult<()> {
    step::Entity::delete_many().filter(step::Column::PaymentRequestId.eq(id)).exec(txn).await?;
    Ok(())
}

/// Who took a step, for whom, and what she approved.
pub struct Taking {
    pub by: i32,
    pub on_behalf_of: Option<i32>,
    pub approved: Money,
    pub at: DateTime<Utc>,
}

/// Marks step `index` of request `id` done, if it is still current; whether it was (the
/// loser of a race finds it done and changes nothing). The next step, if any, becomes
/// current from `t.at`.
pub async fn take(
    txn: &impl ConnectionTrait,
    id: i32,
    index: usize,
    t: &Taking,
) -> ApiResult<bool> {
    let done = step::Entity::update_many()
        .col_expr(step::Column::State, Expr::value(StepState::Done.as_str()))
        .col_expr(step::Column::ByUserId, Expr::value(t.by))
        .col_expr(step::Column::OnBehalfOf, Expr::value(t.on_behalf_of))
        .col_expr(step::Column::ApprovedCents, Expr::value(t.approved.cents()))
        .col_expr(step::Column::At, Expr::value(t.at))
        .filter(step::Column::PaymentRequestId.eq(id))
        .filter(step::Column::StepIndex.eq(index as i32))
        .filter(step::Column::State.eq(StepState::Current.as_str()))
        .exec(txn)
        .await?;
    if done.rows_affected != 1 {
        return Ok(false);
    }
    step::Entity::update_many()
        .col_expr(step::Column::State, Expr::value(StepState::Current.as_str()))
        .col_expr(step::Column::BeganAt, Expr::value(t.at))
        .filter(step::Column::PaymentRequestId.eq(id))
        .filter(step::Column::StepIndex.eq(index as i32 + 1))
        .filter(step::Column::State.eq(StepState::Waiting.as_str()))
        .exec(txn)
        .await?;
    Ok(true)
}

/// The one-step default chain for the requests with ids in `ids` that are Submitted and have
/// none (what the upgrade gave requests in flight; the seed writes requests directly).
pub async fn default_for_submitted(
    txn: &impl ConnectionTrait,
    ids: std::ops::RangeInclusive<i32>,
) -> ApiResult<()> {
    let sql = format!(
        "INSERT INTO request_steps \
         (payment_request_id, step_index, name, role, from_cents, state, began_at) \
         SELECT id, 0, 'Approval', 'Administrator', 0, 'current', updated_at \
         FROM payment_requests WHERE status = 'Submitted' AND id BETWEEN {} AND {} \
         AND NOT EXISTS (SELECT 1 FROM request_steps s WHERE s.payment_request_id = payment_requests.id)",
        ids.start(),
        ids.end()
    );
    txn.execute_unprepared(&sql).await?;
    Ok(())
}
