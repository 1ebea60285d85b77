//! Who receives a mail: the approvers of a program, or one user, as the database says now.

use std::collections::{BTreeSet, HashMap};

use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder};

use crate::{
    auth::{permissions::ADMINISTRATOR, scope::COORDINATOR_ROLE, Permission},
    entities::{
        codes::NotificationMode, participant, participation, payment_request, request_step, role,
        role_permission, user, user_program, user_role,
    },
    error::ApiResult,
};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recipient {
    pub id: i32,
    pub email: String,
    pub mode: NotificationMode,
}

impl From<user::Model> for Recipient {
    fn from(u: user::Model) -> Self {
        Recipient { id: u.id, email: u.email, mode: u.notification_mode }
    }
}

/// The active ones of users `ids`, by id.
pub async fn users(
    db: &impl ConnectionTrait,
    ids: &BTreeSet<i32>,
) -> ApiResult<HashMap<i32, Recipient>> {
    Ok(user::Entity::find()
        .filter(user::Column::Id.is_in(ids.iter().copied()))
        .filter(user::Column::IsActive.eq(true))
        .all(db)
        .await?
        .into_iter()
        .map(|u| (u.id, Recipient::from(u)))
        .collect())
}

/// Every active user who holds `request:approve` and sees `program`: an Administrator (first
/// role) or a holder of `program:readall` sees every program, anyone else the programs her
/// live participant coordinates and those named on her user.
pub async fn approvers(db: &impl ConnectionTrait, program: i32) -> ApiResult<Vec<Recipient>> {
    Ok(candidates(db, program).await?.into_iter().map(|c| Recipient::from(c.user)).collect())
}

/// An approver of a program, with her role names: what the caller's rule of who may take a
/// request's approval step reads (`payment_requests::chain::may_take`).
#[derive(Debug, Clone)]
pub struct Candidate {
    pub user: user::Model,
    pub roles: Vec<String>,
}

/// The approvers of `program` with their role names.
pub async fn candidates(db: &impl ConnectionTrait, program: i32) -> ApiResult<Vec<Candidate>> {
    let granting = roles_granting(db, Permission::RequestApprove).await?;
    if granting.is_empty() {
        return Ok(Vec::new());
    }
    let reading_all = roles_granting(db, Permission::ProgramReadAll).await?;
    let held = user_role::Entity::find().order_by_asc(user_role::Column::Position).all(db).await?;
    let holders: BTreeSet<i32> =
        held.iter().filter(|ur| granting.contains(&ur.role_id)).map(|ur| ur.user_id).collect();
    let sees_all: BTreeSet<i32> =
        held.iter().filter(|ur| reading_all.contains(&ur.role_id)).map(|ur| ur.user_id).collect();
    let users = user::Entity::find()
        .filter(user::Column::Id.is_in(holders.iter().copied()))
        .filter(user::Column::IsActive.eq(true))
        .all(db)
        .await?;
    let administrators = first_role_is_administrator(db, &holders).await?;
    let coordinators = coordinators_of(db, program).await?;
    let named: BTreeSet<i32> = user_program::Entity::find()
        .filter(user_program::Column::MentorProgramId.eq(program))
        .all(db)
        .await?
        .into_iter()
        .map(|p| p.user_id)
        .collect();
    let names: HashMap<i32, String> =
        role::Entity::find().all(db).await?.into_iter().map(|r| (r.id, r.name)).collect();
    Ok(users
        .into_iter()
        .filter(|u| {
            administrators.contains(&u.id)
                || sees_all.contains(&u.id)
                || named.contains(&u.id)
                || u.participant_id.is_some_and(|p| coordinators.contains(&p))
        })
        .map(|u| {
            let roles = held
                .iter()
                .filter(|ur| ur.user_id == u.id)
                .filter_map(|ur| names.get(&ur.role_id).cloned())
                .collect();
            Candidate { user: u, roles }
        })
        .collect())
}

/// Every active user who holds the Administrator role: who hears of an escalation.
pub async fn administrators(db: &impl ConnectionTrait) -> ApiResult<Vec<Recipient>> {
    let Some(admin) = administrator_role(db).await? else { return Ok(Vec::new()) };
    let holders: Vec<i32> = user_role::Entity::find()
        .filter(user_role::Column::RoleId.eq(admin.id))
        .all(db)
        .await?
        .into_iter()
        .map(|ur| ur.user_id)
        .collect();
    Ok(user::Entity::find()
        .filter(user::Column::Id.is_in(holders))
        .filter(user::Column::IsActive.eq(true))
        .order_by_asc(user::Column::Id)
        .all(db)
        .await?
        .into_iter()
        .map(Recipient::from)
        .collect())
}

/// Whether an approver may take the current step of a request whose chain is `steps`: the
/// payment requests' rule, handed in where the server is put together, so that mails about
/// waiting work follow the chain without this area reading its rules.
pub type StepRule = fn(&payment_request::Model, &[request_step::Model], &Candidate) -> bool;

async fn roles_granting(db: &impl ConnectionTrait, p: Permission) -> ApiResult<BTreeSet<i32>> {
    Ok(role_permission::Entity::find()
        .filter(role_permission::Column::Permission.eq(p.code()))
        .all(db)
        .await?
        .into_iter()
        .map(|g| g.role_id)
        .collect())
}

async fn administrator_role(db: &impl ConnectionTrait) -> ApiResult<Option<role::Model>> {
    Ok(role::Entity::find().filter(role::Column::Name.eq(ADMINISTRATOR)).one(db).await?)
}

/// Which of `users` have Administrator as their first role (the one that decides scope).
async fn first_role_is_administrator(
    db: &impl ConnectionTrait,
    users: &BTreeSet<i32>,
) -> ApiResult<BTreeSet<i32>> {
    let Some(admin) = administrator_role(db).await? else { return Ok(BTreeSet::new()) };
    let mut first: HashMap<i32, i32> = HashMap::new();
    for ur in user_role::Entity::find()
        .filter(user_role::Column::UserId.is_in(users.iter().copied()))
        .order_by_asc(user_role::Column::Position)
        .all(db)
        .await?
    {
        first.entry(ur.user_id).or_insert(ur.role_id);
    }
    Ok(first.into_iter().filter(|(_, r)| *r == admin.id).map(|(u, _)| u).collect())
}

/// The live participants with a live coordinator participation in `program`.
async fn coordinators_of(db: &impl ConnectionTrait, program: i32) -> ApiResult<BTreeSet<i32>> {
    let candidates: Vec<i32> = participation::Entity::find()
        .filter(participation::Column::MentorProgramId.eq(program))
        .filter(participation::Column::RoleCode.eq(COORDINATOR_ROLE))
        .filter(participation::Column::DeletedAt.is_null())
        .all(db)
        .await?
        .into_iter()
        .map(|p| p.participant_id)
        .collect();
    Ok(participant::Entity::find()
        .filter(participant::Column::Id.is_in(candidates))
        .filter(participant::Column::DeletedAt.is_null())
        .all(db)
        .await?
        .into_iter()
        .map(|p| p.id)
        .collect())
}

/// Who stands in for whom on one day: approval mails for the absent go to whoever takes
/// their steps meanwhile. Read once for a pass over many requests.
pub struct StandIns {
    /// Absent person -> her stand-in, if that one is active.
    by_absent: HashMap<i32, Option<Recipient>>,
}

impl StandIns {
    /// The windows covering the office's `day`.
    pub async fn on(db: &impl ConnectionTrait, day: chrono::NaiveDate) -> ApiResult<Self> {
        use crate::entities::out_of_office as ooo;
        let away: Vec<(i32, i32)> = ooo::Entity::find()
            .filter(ooo::Column::FromDay.lte(day))
            .filter(ooo::Column::ToDay.gte(day))
            .all(db)
            .await?
            .into_iter()
            .map(|m| (m.user_id, m.stand_in_user_id))
            .collect();
        let stand_ins = users(db, &away.iter().map(|(_, s)| *s).collect()).await?;
        let by_absent = away.into_iter().map(|(a, s)| (a, stand_ins.get(&s).cloned())).collect();
        Ok(StandIns { by_absent })
    }

    /// `people` with everyone away replaced by her stand-in (dropped when that one is not
    /// active), each person once.
    pub fn apply(&self, people: Vec<Recipient>) -> Vec<Recipient> {
        let mut out: Vec<Recipient> = Vec::new();
        for p in people {
            let person = match self.by_absent.get(&p.id) {
                Some(Some(stand_in)) => stand_in.clone(),
                Some(None) => continue,
                None => p,
            };
            if !out.iter().any(|o| o.id == person.id) {
                out.push(person);
            }
        }
        out
    }
}
