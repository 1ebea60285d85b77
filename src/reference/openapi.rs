//! OpenAPI paths of the reference lists, generated from the same table the routes
//! come from, so the document lists every one of them truthfully.

use utoipa::{
    openapi::{
        path::{HttpMethod, OperationBuilder, ParameterBuilder, ParameterIn},
        request_body::RequestBodyBuilder,
        security::SecurityRequirement,
        ArrayBuilder, ContentBuilder, Object, Ref, Required, Type,
    },
    Modify,
};

use super::lists::{Access, Extra, Filter, RefList, LISTS};
use crate::routes::{json_response, problem};

/// The exact `POST` body of one list: `name` and `code` always, and only the extra it takes.
fn create_body(list: &RefList) -> utoipa::openapi::schema::Schema {
    use utoipa::openapi::{schema::AdditionalProperties, ObjectBuilder};
    let text = |min: usize, max: usize| {
        ObjectBuilder::new().schema_type(Type::String).min_length(Some(min)).max_length(Some(max))
    };
    let mut body = ObjectBuilder::new()
        .property("name", text(1, crate::error::MAX_NAME_CHARS))
        .required("name")
        // Trimmed, 1 to 20 characters, no spaces inside.
        .property(
            "code",
            ObjectBuilder::new()
                .schema_type(Type::String)
                .pattern(Some(format!(r"^[\t\n\r \u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]*[^\s\u0000-\u001F\u007F-\u009F]{{1,{}}}[\t\n\r \u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]*$", super::rules::MAX_CODE_CHARS))),
        )
        .required("code")
        .additional_properties(Some(AdditionalProperties::FreeForm(false)));
    match list.extra {
        Extra::CollegeIds => {
            body = body.property(
                "collegeIds",
                ArrayBuilder::new()
                    .schema_type(utoipa::openapi::schema::SchemaType::from_iter([
                        Type::Array,
                        Type::Null,
                    ]))
                    .items(<crate::web::Id as utoipa::PartialSchema>::schema())
                    .description(Some("The colleges the program works with")),
            )
        }
        Extra::PaymentRequestType => {
            body = body
                .property(
                    "paymentRequestType",
                    crate::web::string_enum(crate::forms::FormType::ALL.iter().map(|f| f.as_str())),
                )
                .required("paymentRequestType")
        }
        Extra::None => {}
    }
    body.into()
}

/// The exact `PUT` body of one list ([`super::rules::check_update`]): `name`, `isActive` and,
/// for mentor programs only, `collegeIds`, each optional or null, and at least one of them
/// given (not null), since an edit that changes nothing is refused.
fn update_body(list: &RefList) -> utoipa::openapi::schema::Schema {
    use utoipa::openapi::{
        schema::{AdditionalProperties, AnyOfBuilder, SchemaType},
        ObjectBuilder,
    };
    let nullable = |t: Type| SchemaType::from_iter([t, Type::Null]);
    let mut fields: Vec<(&str, utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>, Type)> = vec![
        (
            "name",
            ObjectBuilder::new()
                .schema_type(nullable(Type::String))
                .min_length(Some(1))
                .max_length(Some(crate::error::MAX_NAME_CHARS))
                .into(),
            Type::String,
        ),
        (
            "isActive",
            ObjectBuilder::new()
                .schema_type(nullable(Type::Boolean))
                .description(Some(
                    "`false` takes the item out of pickers and new approvals; old records keep it",
                ))
                .into(),
            Type::Boolean,
        ),
    ];
    if list.extra == Extra::CollegeIds {
        fields.push((
            "collegeIds",
            ArrayBuilder::new()
                .schema_type(nullable(Type::Array))
                .items(<crate::web::Id as utoipa::PartialSchema>::schema())
                .description(Some("The program's colleges, replacing the ones it had"))
                .into(),
            Type::Array,
        ));
    }
    let mut body =
        ObjectBuilder::new().additional_properties(Some(AdditionalProperties::FreeForm(false)));
    let mut one_given = AnyOfBuilder::new();
    for (name, schema, ty) in fields {
        body = body.property(name, schema);
        one_given = one_given.item(
            ObjectBuilder::new()
                .property(name, ObjectBuilder::new().schema_type(ty))
                .required(name),
        );
    }
    utoipa::openapi::schema::AllOfBuilder::new().item(body).item(one_given).into()
}

pub struct ReferencePaths;

fn query_param(name: &str, ty: Type, description: &str) -> utoipa::openapi::path::Parameter {
    ParameterBuilder::new()
        .name(name)
        .parameter_in(ParameterIn::Query)
        .required(Required::False)
        .description(Some(description))
        .schema(Some(Object::with_type(ty)))
        .build()
}

impl Modify for ReferencePaths {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        for list in LISTS {
            let who = match list.read {
                Access::SignedIn => "any signed-in user".to_owned(),
                Access::Needs(p) => format!("permission `{}`", p.code()),
            };
            let items = ArrayBuilder::new().items(Ref::from_schema_name("RefItem")).build();
            let mut get = OperationBuilder::new()
                .tag("reference")
                .operation_id(Some(format!("list_{}", list.key)))
                .summary(Some(format!("{} (needs {who})", list.title)))
                .security(SecurityRequirement::new("bearer", Vec::<String>::new()))
                .response("200", json_response(list.title, items))
                .response("401", problem("No valid access token"))
                .response("403", problem("Missing permission"));
            get = match list.filter {
                Filter::NameContains => get.parameter(query_param(
                    "query",
                    Type::String,
                    "Part of the name, case-insensitive",
                )),
                Filter::MentorProgram => {
                    let mut param = query_param(
                        "MentorProgramId",
                        Type::Integer,
                        "Only this program's colleges",
                    );
                    param.schema = Some(<i32 as utoipa::PartialSchema>::schema());
                    get.parameter(param)
                        .response("400", problem("MentorProgramId is not a whole number"))
                }
                Filter::PaymentRequestType => {
                    let mut param = query_param("PaymentRequestType", Type::String, "F1..F14");
                    param.schema = Some(crate::web::string_enum(
                        crate::forms::FormType::ALL.iter().map(|f| f.as_str()),
                    ));
                    get.parameter(param).response("400", problem("Unknown form type"))
                }
                Filter::None => get,
            };
            openapi.paths.add_path_operation(
                format!("/api/v1{}", list.path),
                vec![HttpMethod::Get],
                get.build(),
            );
            if let Some(p) = list.create {
                let post = OperationBuilder::new()
                    .tag("reference")
                    .operation_id(Some(format!("create_{}", list.key)))
                    .summary(Some(format!(
                        "Add to {} (needs permission `{}`)",
                        list.title.to_lowercase(),
                        p.code()
                    )))
                    .security(SecurityRequirement::new("bearer", Vec::<String>::new()))
                    .request_body(Some(
                        RequestBodyBuilder::new()
                            .required(Some(Required::True))
                            .content(
                                "application/json",
                                ContentBuilder::new().schema(Some(create_body(list))).build(),
                            )
                            .build(),
                    ))
                    .response("201", json_response("Created", Ref::from_schema_name("RefItem")))
                    .response("400", problem("Bad input, naming the field"))
                    .response("401", problem("No valid access token"))
                    .response("403", problem("Missing permission"))
                    .response("409", problem("Code already taken"))
                    .response("422", problem("A college that does not exist"));
                openapi.paths.add_path_operation(
                    format!("/api/v1{}", list.path),
                    vec![HttpMethod::Post],
                    post.build(),
                );
                let id = ParameterBuilder::new()
                    .name("id")
                    .parameter_in(ParameterIn::Path)
                    .required(Required::True)
                    .schema(Some(<i32 as utoipa::PartialSchema>::schema()))
                    .build();
                let put = OperationBuilder::new()
                    .tag("reference")
                    .operation_id(Some(format!("update_{}", list.key)))
                    .summary(Some(format!(
                        "Rename or deactivate in {} (needs permission `{}`)",
                        list.title.to_lowercase(),
                        p.code()
                    )))
                    .security(SecurityRequirement::new("bearer", Vec::<String>::new()))
                    .parameter(id)
                    .request_body(Some(
                        RequestBodyBuilder::new()
                            .required(Some(Required::True))
                            .content(
                                "application/json",
                                ContentBuilder::new().schema(Some(update_body(list))).build(),
                            )
                            .build(),
                    ))
                    .response("200", json_response("Updated", Ref::from_schema_name("RefItem")))
                    .response("400", problem("Bad input, naming the field"))
                    .response("401", problem("No valid access token"))
                    .response("403", problem("Missing permission"))
                    .response("404", problem("No item has this id"));
                openapi.paths.add_path_operation(
                    format!("/api/v1{}/{{id}}", list.path),
                    vec![HttpMethod::Put],
                    put.build(),
                );
            }
        }
    }
}
