//! Participants: one row per live participant the caller may see, with the names of its
//! programs and reference links; `/emails` lists who to write to. The export keeps the
//! columns and order the caller picks (`CustomColumnSetToInclude`).

use actix_web::web;
use sea_orm::{
    sea_query::{Expr, ExprTrait, Func, Order, Query, SelectStatement},
    DbBackend,
};
use serde::Serialize;
use utoipa::ToSchema;

use super::{
    catalogue::ReportInfo,
    export::{Cell, Column, Kind, Row},
    fields::DbRow,
    query::{a, col, get, order, Filters, ReportQuery, SqlReport},
    runner::RowReport,
};
use crate::{
    auth::{
        scope::{scope_of, Scope},
        CurrentUser, Permission,
    },
    error::{ApiError, ApiResult, ProblemBody},
    participants::rules::program_key_pattern,
    state::AppState,
    web::Query as Q,
};

pub struct Participants;

/// The participant's programs as "A; B": the kept list (migration 000143), or for a caller
/// limited to some programs the same list built from those only, so a Coordinator never
/// reads the name of a program outside her scope.
fn programs_in(scope: &Scope, backend: DbBackend) -> Expr {
    let Some(programs) = scope.program_ids() else {
        return col("p", "program_names");
    };
    let ids: Vec<String> = programs.iter().map(i32::to_string).collect();
    let ids = if ids.is_empty() { "NULL".to_owned() } else { ids.join(", ") };
    let from = format!(
        "participations x JOIN mentor_programs n ON n.id = x.mentor_program_id \
         WHERE x.participant_id = p.id AND x.deleted_at IS NULL AND x.mentor_program_id IN ({ids})"
    );
    Expr::cust(match backend {
        DbBackend::Postgres => {
            format!("(SELECT string_agg(DISTINCT n.name, '; ' ORDER BY n.name) FROM {from})")
        }
        _ => format!(
            "(SELECT group_concat(name, '; ') FROM \
             (SELECT DISTINCT n.name AS name FROM {from} ORDER BY n.name))"
        ),
    })
}

/// The base: live participants in scope, narrowed by the report's filters.
fn base(f: &Filters, scope: &Scope) -> SelectStatement {
    let mut q = Query::select();
    // No joins: the count then reads only the participants' list index (4 ms for 100,000
    // rows instead of 0.3-1.3 s touching every row for a LEFT JOIN that cannot change it).
    q.from_as(a("participants"), a("p"));
    q.and_where(col("p", "deleted_at").is_null());
    let in_programs = |programs: Vec<i32>| {
        programs.into_iter().fold(sea_orm::Condition::any(), |c, p| {
            c.add(col("p", "program_keys").like(program_key_pattern(p)))
        })
    };
    if let Some(programs) = scope.program_ids() {
        if programs.is_empty() {
            q.and_where(Expr::val(1).eq(0));
        } else {
            q.cond_where(in_programs(programs));
        }
    }
    if let Some(p) = f.program {
        q.cond_where(in_programs(vec![p]));
    }
    if let Some(d) = f.district {
        q.and_where(col("p", "district_id").eq(d));
    }
    if let Some(r) = f.role {
        q.and_where(col("p", "role_code").eq(r));
    }
    if let Some(c) = f.caucus_region {
        q.and_where(col("p", "caucus_region_id").eq(c));
    }
    if let Some(since) = f.updated_since {
        q.and_where(col("p", "updated_at").gte(since));
    }
    q
}

impl RowReport for Participants {
    const INFO: ReportInfo = ReportInfo {
        key: "participants",
        title: "Participants",
        description: "Participants with their programs, districts and profile; choose the columns of the export, or e-mail them.",
        route: "/reports/participants",
        path: "/reports/participants",
        permission: Permission::ReportReadParticipants,
        filters: &["MentorProgramId", "DistrictId", "RoleCode", "CaucusRegionId", "UpdatedAt"],
        sortable: &["id", "fullName", "lastName", "email", "status", "roleCode", "createdAt", "updatedAt"],
        default_sort: ("fullName", false),
        totals: &[],
    };

    fn columns() -> Vec<Column> {
        vec![
            Column::new("id", "Participant id", Kind::Int),
            Column::new("fullName", "Full name", Kind::Text),
            Column::new("firstName", "First name", Kind::Text),
            Column::new("lastName", "Last name", Kind::Text),
            Column::new("email", "E-mail", Kind::Text),
            Column::new("phone", "Phone", Kind::Text),
            Column::new("address", "Address", Kind::Text),
            Column::labelled(
                "status",
                "Status",
                crate::entities::codes::ParticipantStatus::LABELLED,
            ),
            Column::labelled("roleCode", "Role", crate::entities::codes::ParticipantRole::LABELLED),
            Column::new("mentorPrograms", "Mentor programs", Kind::Text),
            Column::labelled(
                "districtSetType",
                "District type",
                crate::entities::codes::DistrictSetType::LABELLED,
            ),
            Column::new("districtId", "District", Kind::Int),
            Column::new("caucusRegion", "Caucus region", Kind::Text),
            Column::new("workplaceSettings", "Workplace settings", Kind::Text),
            Column::new("languages", "Languages", Kind::Text),
            Column::new("educationLevels", "Education levels", Kind::Text),
            Column::new("permitLevels", "Permit levels", Kind::Text),
            Column::new("createdAt", "Created", Kind::Timestamp),
            Column::new("updatedAt", "Updated", Kind::Timestamp),
        ]
    }

    fn query(
        f: &Filters,
        scope: &Scope,
        (key, descending): (&str, bool),
        backend: DbBackend,
    ) -> SqlReport {
        let sort = match key {
            "id" => col("p", "id"),
            "lastName" => Func::lower(col("p", "last_name")).into(),
            "email" => col("p", "email"),
            "status" => col("p", "status"),
            "roleCode" => col("p", "role_code"),
            "createdAt" => col("p", "created_at"),
            "updatedAt" => col("p", "updated_at"),
            _ => col("p", "sort_name"),
        };
        // The name lists are kept on the participant's row (migration 000143).
        let select = vec![
            (col("p", "id"), "id"),
            (col("p", "full_name"), "full_name"),
            (col("p", "first_name"), "first_name"),
            (col("p", "last_name"), "last_name"),
            (col("p", "email"), "email"),
            (col("p", "phone"), "phone"),
            (col("p", "address"), "address"),
            (col("p", "status"), "status"),
            (col("p", "role_code"), "role_code"),
            (programs_in(scope, backend), "mentor_programs"),
            (col("p", "district_set_type"), "district_set_type"),
            (col("p", "district_id"), "district_id"),
            // A lookup per page row rather than a join in the base (see `base`).
            (
                Expr::cust(
                    "(SELECT cr.name FROM caucus_regions cr WHERE cr.id = p.caucus_region_id)",
                ),
                "caucus_region",
            ),
            (col("p", "workplace_setting_names"), "workplace_settings"),
            (col("p", "language_names"), "languages"),
            (col("p", "education_level_names"), "education_levels"),
            (col("p", "permit_level_names"), "permit_levels"),
            (col("p", "created_at"), "created_at"),
            (col("p", "updated_at"), "updated_at"),
        ];
        SqlReport {
            base: base(f, scope),
            lookups: vec![],
            named: vec![],
            select,
            order: vec![
                (sort, order(descending)),
                (col("p", "id"), if descending { Order::Desc } else { Order::Asc }),
            ],
            sums: vec![],
            year: None,
        }
    }

    fn row(r: &DbRow) -> ApiResult<Row> {
        let text = |k: &str| get::<Option<String>>(r, k).map(Cell::text);
        Ok(vec![
            Cell::Int(get::<i32>(r, "id")?.into()),
            text("full_name")?,
            text("first_name")?,
            text("last_name")?,
            text("email")?,
            text("phone")?,
            text("address")?,
            text("status")?,
            text("role_code")?,
            text("mentor_programs")?,
            text("district_set_type")?,
            Cell::int(get::<Option<i32>>(r, "district_id")?),
            text("caucus_region")?,
            text("workplace_settings")?,
            text("languages")?,
            text("education_levels")?,
            text("permit_levels")?,
            Cell::timestamp(get(r, "created_at")?),
            Cell::timestamp(get(r, "updated_at")?),
        ])
    }

    /// `CustomColumnSetToInclude`: the chosen keys in the chosen order; every column but
    /// the id without it.
    fn export_columns(q: &ReportQuery, columns: &[Column]) -> ApiResult<Vec<usize>> {
        let Some(raw) = q.customcolumnsettoinclude.as_deref() else {
            return Ok((1..columns.len()).collect());
        };
        let mut picked = Vec::new();
        for key in raw.split(',').map(str::trim).filter(|k| !k.is_empty()) {
            let i =
                columns.iter().position(|c| c.key.eq_ignore_ascii_case(key)).ok_or_else(|| {
                    ApiError::bad_field(
                        "CustomColumnSetToInclude",
                        format!("unknown column '{key}'"),
                    )
                })?;
            if !picked.contains(&i) {
                picked.push(i);
            }
        }
        if picked.is_empty() {
            return Err(ApiError::bad_field(
                "CustomColumnSetToInclude",
                "name at least one column",
            ));
        }
        Ok(picked)
    }
}

/// Who "E-mail these participants" writes to.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EmailEntry {
    pub full_name: String,
    pub email: String,
}

/// Its parameters (the participants report's filters) are added by `reports::openapi::ReportPaths`
/// from the derived [`ReportQuery`] ones, as for the report itself.
#[utoipa::path(get, path = "/api/v1/reports/participants/emails", tag = "reports", security(("bearer" = [])),
    responses((status = 200, body = Vec<EmailEntry>, description = "Every matching participant with an e-mail, by name"),
        (status = 400, body = ProblemBody), (status = 401, body = ProblemBody), (status = 403, body = ProblemBody)))]
pub async fn emails(
    state: web::Data<AppState>,
    me: CurrentUser,
    Q(q): Q<ReportQuery>,
) -> ApiResult<web::Json<Vec<EmailEntry>>> {
    let f = q.filters()?;
    let scope = scope_of(&state.db, &me).await?;
    scope.require_filter(f.program)?;
    let mut select = base(&f, &scope);
    select
        .expr_as(col("p", "full_name"), a("full_name"))
        .expr_as(col("p", "email"), a("email"))
        .and_where(col("p", "email").ne(""))
        .order_by_expr(col("p", "sort_name"), Order::Asc)
        .order_by_expr(col("p", "id"), Order::Asc);
    let rows = sea_orm::ConnectionTrait::query_all(&state.db, &select).await?;
    let list = rows
        .iter()
        .map(|r| Ok(EmailEntry { full_name: get(r, "full_name")?, email: get(r, "email")? }))
        .collect::<ApiResult<Vec<_>>>()?;
    Ok(web::Json(list))
}
