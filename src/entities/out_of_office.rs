use sea_orm::entity::prelude::*;

/// A person's time away (first and last day, inclusive, in the office's calendar) and who
/// stands in for her meanwhile.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "out_of_office")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub user_id: i32,
    pub from_day: Date,
    pub to_day: Date,
    pub stand_in_user_id: i32,
    pub updated_at: super::Timestamp,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
