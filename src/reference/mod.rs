//! Reference lists: every list through one generic implementation.
//! lists.rs describes each list; api.rs / store.rs / openapi.rs serve any of them.

pub mod api;
pub mod commands;
pub mod dto;
pub mod fixed;
pub mod lists;
pub mod openapi;
pub mod rules;
pub mod store;

use actix_web::web;

use crate::{
    auth::CurrentUser,
    routes::{self, Routes},
    state::AppState,
    web::{Json, Query},
};
use dto::{RefCreate, RefQuery, RefUpdate};

/// Registers every list. Must come before areas with `/{id}` routes under the same
/// prefix (`/participants/roles` before `/participants/{id}`).
pub fn configure(r: &mut Routes) {
    // Before `/mentor-programs/{id}`, which would answer 405 for it.
    r.get("/mentor-programs/mine", routes::Access::SignedIn, api::my_programs);
    for list in lists::LISTS {
        r.get(
            list.path,
            list.read.into(),
            move |s: web::Data<AppState>, me: CurrentUser, Query(q): Query<RefQuery>| {
                api::list_items(list, s, me, q)
            },
        );
        if let Some(permission) = list.create {
            r.post(
                list.path,
                routes::Access::Needs(permission),
                move |s: web::Data<AppState>, me: CurrentUser, Json(b): Json<RefCreate>| {
                    api::create_item(list, s, me, b)
                },
            );
            // Rename and deactivate, guarded by the list's create permission.
            r.put(
                format!("{}/{{id}}", list.path),
                routes::Access::Needs(permission),
                move |s: web::Data<AppState>,
                      me: CurrentUser,
                      id: web::Path<i32>,
                      Json(b): Json<RefUpdate>| {
                    api::update_item(list, s, me, id.into_inner(), b)
                },
            );
        }
    }
}
