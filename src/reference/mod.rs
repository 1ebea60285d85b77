//! Reference lists (SPEC §7, DESIGN §5): every list through one generic implementation.
//! lists.rs describes each list; api.rs / store.rs / openapi.rs serve any of them.

pub mod api;
pub mod dto;
pub mod fixed;
pub mod lists;
pub mod openapi;
pub mod rules;
pub mod store;

use actix_web::web;

use crate::{auth::CurrentUser, state::AppState, web::{Json, Query}};
use dto::{RefCreate, RefQuery, RefUpdate};

/// Registers every list. Must come before areas with `/{id}` routes under the same
/// prefix (`/participants/roles` before `/participants/{id}`).
pub fn configure(cfg: &mut web::ServiceConfig) {
    for list in lists::LISTS {
        let mut resource = web::resource(list.path).route(web::get().to(
            move |s: web::Data<AppState>, me: CurrentUser, Query(q): Query<RefQuery>| api::list_items(list, s, me, q),
        ));
        if list.create.is_some() {
            resource = resource.route(web::post().to(
                move |s: web::Data<AppState>, me: CurrentUser, Json(b): Json<RefCreate>| api::create_item(list, s, me, b),
            ));
        }
        cfg.service(resource);
    }
}

/// `PUT /{list}/{id}` of the editable lists (rename, deactivate; beyond SPEC), guarded by
/// the list's create permission.
pub fn configure_edits(cfg: &mut web::ServiceConfig) {
    // Before `/mentor-programs/{id}`, which would answer 405 for it.
    cfg.route("/mentor-programs/mine", web::get().to(api::my_programs));
    for list in lists::LISTS.iter().filter(|l| l.create.is_some()) {
        cfg.service(web::resource(format!("{}/{{id}}", list.path)).route(web::put().to(
            move |s: web::Data<AppState>, me: CurrentUser, id: web::Path<i32>, Json(b): Json<RefUpdate>| {
                api::update_item(list, s, me, id.into_inner(), b)
            },
        )));
    }
}
