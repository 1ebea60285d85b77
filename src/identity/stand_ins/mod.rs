//! Time away and stand-ins: while a person is away, the colleague she names may take the
//! approval steps she could, as herself, recorded on the absent person's behalf.

pub mod api;
pub mod commands;
pub mod dto;
pub mod rules;
pub mod store;

use crate::{
    auth::Permission as P,
    routes::{Access::*, Routes},
};

/// The candidates' path comes before `/identity/users/{id}`, which would otherwise take it.
pub fn configure_first(r: &mut Routes) {
    r.get(
        "/identity/users/stand-in-candidates",
        AnyOf(&[P::RequestApprove, P::UserEdit]),
        api::candidates,
    );
}

pub fn configure(r: &mut Routes) {
    r.get("/identity/me/out-of-office", SignedIn, api::get_mine)
        .put("/identity/me/out-of-office", SignedIn, api::put_mine)
        .delete("/identity/me/out-of-office", SignedIn, api::delete_mine)
        .get("/identity/users/{id}/out-of-office", Needs(P::UserRead), api::get_users)
        .put("/identity/users/{id}/out-of-office", Needs(P::UserEdit), api::put_users)
        .delete("/identity/users/{id}/out-of-office", Needs(P::UserEdit), api::delete_users);
}
