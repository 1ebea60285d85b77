use sea_orm::entity::prelude::*;

/// Which colleges a mentor program works with (`GET /colleges?MentorProgramId=`).
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "mentor_program_colleges")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub mentor_program_id: i32,
    #[sea_orm(primary_key, auto_increment = false)]
    pub college_id: i32,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
