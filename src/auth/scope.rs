//! Coordinator scope, decided once for every area: which mentor programs'
//! participants (and later payment requests) a user may see and act on.
//!
//! - An Administrator (first role), or a holder of `program:readall`, sees everything.
//! - Anyone else sees the programs where her linked participant (`users.participant_id`,
//!   live) has a live participation with role `Coordinator`, and the programs named on her
//!   user (`user_programs`: staff who approve in programs they do not coordinate).
//! - A user with neither sees nothing.

use std::collections::BTreeSet;

use sea_orm::{
    ColumnTrait, Condition, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect,
};

use super::{load_principal, stand_in::office_today, CurrentUser, Permission};
use crate::{
    entities::{
        codes::ParticipantRole, out_of_office as ooo, participant, participation, user,
        user_program,
    },
    error::{ApiError, ApiResult},
};

/// The participation role that grants scope over a program.
pub const COORDINATOR_ROLE: ParticipantRole = ParticipantRole::Coordinator;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scope {
    All,
    /// Only these programs; empty means nothing at all.
    Programs(BTreeSet<i32>),
}

impl Scope {
    /// The pure decision, from what the database says about the user.
    pub fn decide(
        sees_all: bool,
        linked_participant: Option<i32>,
        coordinated_programs: impl IntoIterator<Item = i32>,
        named_programs: impl IntoIterator<Item = i32>,
    ) -> Self {
        if sees_all {
            return Self::All;
        }
        let mut programs: BTreeSet<i32> = named_programs.into_iter().collect();
        if linked_participant.is_some() {
            programs.extend(coordinated_programs);
        }
        Self::Programs(programs)
    }

    /// Whether this scope sees at least what `other` sees.
    pub fn covers(&self, other: &Scope) -> bool {
        match (self, other) {
            (Self::All, _) => true,
            (Self::Programs(_), Self::All) => false,
            (Self::Programs(mine), Self::Programs(theirs)) => theirs.is_subset(mine),
        }
    }

    pub fn is_all(&self) -> bool {
        matches!(self, Self::All)
    }

    pub fn allows_program(&self, program_id: i32) -> bool {
        match self {
            Self::All => true,
            Self::Programs(ids) => ids.contains(&program_id),
        }
    }

    /// The programs a query must be narrowed to; None when unrestricted.
    pub fn program_ids(&self) -> Option<Vec<i32>> {
        match self {
            Self::All => None,
            Self::Programs(ids) => Some(ids.iter().copied().collect()),
        }
    }

    /// 403 for acting into a program outside the scope (creating, moving into it).
    pub fn require_program(&self, program_id: i32, field: &str) -> ApiResult<()> {
        if self.allows_program(program_id) {
            Ok(())
        } else {
            Err(ApiError::Forbidden(format!(
                "{field}: the mentor program {program_id} is outside your scope."
            )))
        }
    }

    /// What either scope sees.
    pub fn union(self, other: Scope) -> Scope {
        match (self, other) {
            (Self::Programs(mut a), Self::Programs(b)) => {
                a.extend(b);
                Self::Programs(a)
            }
            _ => Self::All,
        }
    }

    /// 403 for a `MentorProgramId` filter naming a program outside the scope: narrowed to
    /// the scope it would list the people the caller shares with that program, which tells
    /// her who takes part there.
    pub fn require_filter(&self, program_id: Option<i32>) -> ApiResult<()> {
        match program_id {
            Some(p) => self.require_program(p, "MentorProgramId"),
            None => Ok(()),
        }
    }

    /// A participant is visible when the scope is unrestricted or one of its live
    /// participations is in a scoped program.
    pub fn sees_participant(&self, participant_programs: &[i32]) -> bool {
        match self {
            Self::All => true,
            Self::Programs(ids) => participant_programs.iter().any(|p| ids.contains(p)),
        }
    }
}

/// The scope of the signed-in user, as the database says now.
/// A stand-in sees, for as long as she stands in, what the absent people see too.
pub async fn scope_of(db: &impl ConnectionTrait, me: &CurrentUser) -> ApiResult<Scope> {
    let own = own_scope(db, me).await?;
    if own.is_all() {
        return Ok(own);
    }
    let absent = standing_in(db, me).await?;
    Ok(absent.into_iter().fold(own, |s, a| s.union(a.scope)))
}

/// The scope of the signed-in user in her own right, without what she sees as a stand-in.
pub async fn own_scope(db: &impl ConnectionTrait, me: &CurrentUser) -> ApiResult<Scope> {
    let sees_all = me.is_administrator() || me.has(super::Permission::ProgramReadAll);
    scope_of_user(db, sees_all, &me.user).await
}

/// The scope of any user (`sees_all`: her first role is Administrator or she holds
/// `program:readall`), as the database says now.
pub async fn scope_of_user(
    db: &impl ConnectionTrait,
    sees_all: bool,
    user: &user::Model,
) -> ApiResult<Scope> {
    if sees_all {
        return Ok(Scope::All);
    }
    let named = named_programs(db, user.id).await?;
    let Some(pid) = user.participant_id else {
        return Ok(Scope::decide(false, None, [], named));
    };
    let live = participant::Entity::find_by_id(pid)
        .filter(participant::Column::DeletedAt.is_null())
        .one(db)
        .await?
        .is_some();
    if !live {
        return Ok(Scope::decide(false, None, [], named));
    }
    let programs: Vec<i32> = participation::Entity::find()
        .select_only()
        .column(participation::Column::MentorProgramId)
        .filter(participation::Column::ParticipantId.eq(pid))
        .filter(participation::Column::RoleCode.eq(COORDINATOR_ROLE))
        .filter(participation::Column::DeletedAt.is_null())
        .into_tuple()
        .all(db)
        .await?;
    Ok(Scope::decide(false, Some(pid), programs, named))
}

/// Programs of a participant's live participations.
pub async fn live_programs(db: &impl ConnectionTrait, participant_id: i32) -> ApiResult<Vec<i32>> {
    Ok(participation::Entity::find()
        .select_only()
        .column(participation::Column::MentorProgramId)
        .filter(participation::Column::ParticipantId.eq(participant_id))
        .filter(participation::Column::DeletedAt.is_null())
        .into_tuple()
        .all(db)
        .await?)
}

/// Time away within a day of `utc_today`, the UTC day: every zone's today is within a day
/// of UTC's, so the office's zone is read only when some time away is that near (most
/// callers stand in for nobody, and this is asked on every list of what waits for them).
pub fn near_time_away(utc_today: chrono::NaiveDate) -> Condition {
    Condition::all()
        .add(ooo::Column::FromDay.lte(utc_today + chrono::Days::new(1)))
        .add(ooo::Column::ToDay.gte(utc_today - chrono::Days::new(1)))
}

/// One absent person whose time away names the caller as stand-in, with what she could do.
/// While it lasts the stand-in may take the approval steps she could, in the programs she
/// sees, as herself and on her behalf; the stand-in's scope gains hers for that time.
#[derive(Debug, Clone)]
pub struct Absent {
    pub principal: CurrentUser,
    pub scope: Scope,
}

/// The active absent people `me` stands in for today (none when she does not approve).
pub async fn standing_in(db: &impl ConnectionTrait, me: &CurrentUser) -> ApiResult<Vec<Absent>> {
    if !me.has(Permission::RequestApprove) || !me.may_stand_in {
        return Ok(Vec::new());
    }
    let near = ooo::Entity::find()
        .filter(ooo::Column::StandInUserId.eq(me.id()))
        .filter(near_time_away(crate::clock::today()))
        .all(db)
        .await?;
    if near.is_empty() {
        return Ok(Vec::new());
    }
    let today = office_today(db).await?;
    let ids: Vec<i32> = near
        .into_iter()
        .filter(|m| m.from_day <= today && today <= m.to_day)
        .map(|m| m.user_id)
        .collect();
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for u in user::Entity::find()
        .filter(user::Column::Id.is_in(ids))
        .filter(user::Column::IsActive.eq(true))
        .all(db)
        .await?
    {
        let principal = load_principal(db, u).await?;
        let scope = own_scope(db, &principal).await?;
        out.push(Absent { principal, scope });
    }
    Ok(out)
}

/// The programs named on user `id` (`mentorProgramIds`), in order.
pub async fn named_programs(db: &impl ConnectionTrait, id: i32) -> ApiResult<Vec<i32>> {
    Ok(user_program::Entity::find()
        .select_only()
        .column(user_program::Column::MentorProgramId)
        .filter(user_program::Column::UserId.eq(id))
        .order_by_asc(user_program::Column::MentorProgramId)
        .into_tuple()
        .all(db)
        .await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn administrators_see_everything() {
        let s = Scope::decide(true, None, [], []);
        assert!(s.is_all() && s.allows_program(42) && s.program_ids().is_none());
        assert!(s.sees_participant(&[]));
        assert_eq!(Scope::decide(true, Some(3), [1], [2]), Scope::All);
    }

    #[test]
    fn linked_users_see_their_coordinated_programs() {
        let s = Scope::decide(false, Some(7), [2, 5, 2], []);
        assert_eq!(s.program_ids(), Some(vec![2, 5]));
        assert!(s.allows_program(5) && !s.allows_program(3));
        assert!(
            s.sees_participant(&[3, 5]) && !s.sees_participant(&[3]) && !s.sees_participant(&[])
        );
        assert!(s.require_program(2, "mentorProgramId").is_ok());
        assert!(matches!(s.require_program(3, "mentorProgramId"), Err(ApiError::Forbidden(_))));
    }

    #[test]
    fn unlinked_users_see_nothing() {
        let s = Scope::decide(false, None, [1, 2], []);
        assert_eq!(s.program_ids(), Some(vec![]));
        assert!(!s.allows_program(1) && !s.sees_participant(&[1]));
        // Linked but coordinating nothing: nothing either.
        assert_eq!(Scope::decide(false, Some(1), [], []).program_ids(), Some(vec![]));
    }

    #[test]
    fn programs_named_on_a_user_add_to_what_she_coordinates() {
        for (linked, coordinated, named, want) in [
            (None, vec![1], vec![4], vec![4]),
            (Some(7), vec![1, 2], vec![2, 4], vec![1, 2, 4]),
            (Some(7), vec![], vec![3], vec![3]),
        ] {
            assert_eq!(Scope::decide(false, linked, coordinated, named).program_ids(), Some(want));
        }
        let p = |ids: &[i32]| Scope::Programs(ids.iter().copied().collect());
        for (mine, theirs, covers) in [
            (Scope::All, Scope::All, true),
            (Scope::All, p(&[1]), true),
            (p(&[1, 2]), p(&[2]), true),
            (p(&[1]), p(&[1, 2]), false),
            (p(&[1]), Scope::All, false),
            (p(&[]), p(&[]), true),
        ] {
            assert_eq!(mine.covers(&theirs), covers, "{mine:?} {theirs:?}");
        }
    }
}
