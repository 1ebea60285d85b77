//! Who may take a step of a request: the caller in her own right, and the absent people
//! she stands in for today, read once as the chain's rules (`chain::may_take_as`) want them.

use sea_orm::ConnectionTrait;

use super::chain;
use crate::{auth::CurrentUser, error::ApiResult};

/// The caller and the people she stands in for, for a request of one program.
pub struct Takers {
    pub me: chain::Actor,
    pub absent: Vec<chain::Actor>,
    names: Vec<(i32, String)>,
}

impl Takers {
    pub fn name_of(&self, id: i32) -> Option<String> {
        self.names.iter().find(|(i, _)| *i == id).map(|(_, n)| n.clone())
    }
}

/// The takers of a step of a request of `program`, as the database says now.
pub async fn load(db: &impl ConnectionTrait, me: &CurrentUser, program: i32) -> ApiResult<Takers> {
    let own = crate::auth::scope::own_scope(db, me).await?;
    let absent = crate::auth::scope::standing_in(db, me).await?;
    let names = absent
        .iter()
        .map(|a| {
            let u = &a.principal.user;
            (u.id, format!("{} {}", u.first_name, u.last_name).trim().to_owned())
        })
        .collect();
    Ok(Takers {
        me: chain::Actor::of(me, own.allows_program(program)),
        absent: chain::Actor::absent(&absent, program),
        names,
    })
}
