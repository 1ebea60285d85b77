//! Approval chains, pure: a form's rule is a list of steps, each for a role and from an
//! amount; the steps that apply at submission are copied into the request and taken in
//! order. Who may take the current step, how each step stands, and how the approved amount
//! may move between steps are decided here from facts, without a database.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{error::Checks, money::Money};

/// The most steps one rule holds.
pub const MAX_STEPS: usize = 5;
/// The longest step name or role name.
pub const MAX_NAME: usize = 100;

/// One step of a form's rule: `name`, taken by a holder of `role`, when the requested
/// amount at submission is at least `from_amount`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RuleStep {
    #[schema(min_length = 1, max_length = 100)]
    pub name: String,
    #[schema(min_length = 1, max_length = 100)]
    pub role: String,
    #[serde(default)]
    #[schema(value_type = crate::money::NonNegativeMoney)]
    pub from_amount: Money,
}

/// The rule every form has until the office sets another: one Administrator step from 0,
/// which is the workflow without chains.
pub fn default_rule() -> Vec<RuleStep> {
    vec![RuleStep { name: "Approval".into(), role: "Administrator".into(), from_amount: Money(0) }]
}

/// The steps of `rule` that apply to `amount`, in order.
pub fn applying(rule: &[RuleStep], amount: Money) -> Vec<RuleStep> {
    rule.iter().filter(|s| amount >= s.from_amount).cloned().collect()
}

/// What the schema states of a rule (a 400 naming the field when broken): 1 to 5 steps,
/// names non-blank up to 100 characters, roles non-blank, amounts not negative.
pub fn check_shape(rule: &[RuleStep]) -> Checks {
    let mut c = Checks::default();
    if rule.is_empty() || rule.len() > MAX_STEPS {
        c.add("steps", format!("must hold 1 to {MAX_STEPS} steps"));
    }
    for (i, s) in rule.iter().enumerate() {
        for (field, text) in [("name", &s.name), ("role", &s.role)] {
            if text.trim().is_empty() {
                c.add(format!("steps[{i}].{field}"), "must not be blank");
            } else if text.chars().count() > MAX_NAME {
                c.add(
                    format!("steps[{i}].{field}"),
                    format!("must be at most {MAX_NAME} characters"),
                );
            }
        }
        if s.from_amount.cents() < 0 {
            c.add(format!("steps[{i}].fromAmount"), "must not be negative");
        }
    }
    c
}

/// What the database says of a role a step names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoleFact {
    Missing,
    /// The role exists; whether it holds `request:approve`.
    Exists {
        approves: bool,
    },
}

/// The rules no schema states (a 422 naming the field): every role exists and approves, the
/// first step starts at 0, no two steps share a name.
pub fn check_rules(rule: &[RuleStep], role: impl Fn(&str) -> RoleFact) -> Checks {
    let mut c = Checks::default();
    if rule.first().is_some_and(|s| s.from_amount != Money(0)) {
        c.add("steps[0].fromAmount", "The first step applies from 0.");
    }
    for (i, s) in rule.iter().enumerate() {
        match role(s.role.trim()) {
            RoleFact::Missing => c.add(format!("steps[{i}].role"), "No role has this name."),
            RoleFact::Exists { approves: false } => c.add(
                format!("steps[{i}].role"),
                "The role does not hold request:approve, so nobody in it could take the step.",
            ),
            RoleFact::Exists { approves: true } => {}
        }
        let name = s.name.trim();
        if rule[..i].iter().any(|e| e.name.trim().eq_ignore_ascii_case(name)) {
            c.add(format!("steps[{i}].name"), "Another step has this name.");
        }
    }
    c
}

/// How a step of a request stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum StepState {
    Done,
    Current,
    Waiting,
}

impl StepState {
    pub fn as_str(self) -> &'static str {
        match self {
            StepState::Done => "done",
            StepState::Current => "current",
            StepState::Waiting => "waiting",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        [StepState::Done, StepState::Current, StepState::Waiting]
            .into_iter()
            .find(|s| s.as_str() == text)
    }
}

/// The states of a freshly copied chain of `count` steps: the first is current.
pub fn initial_states(count: usize) -> Vec<StepState> {
    (0..count).map(|i| if i == 0 { StepState::Current } else { StepState::Waiting }).collect()
}

/// One step of a request as the rules read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TakenStep {
    pub name: String,
    pub role: String,
    pub state: StepState,
    /// Who took it (the stand-in, when she acted for someone).
    pub by: Option<i32>,
    /// Whom she took it for.
    pub on_behalf_of: Option<i32>,
    pub approved_amount: Option<Money>,
}

/// The index of the current step.
pub fn current(steps: &[TakenStep]) -> Option<usize> {
    steps.iter().position(|s| s.state == StepState::Current)
}

/// Whoever asks to take a step, as the database says now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Actor {
    pub id: i32,
    pub active: bool,
    pub roles: Vec<String>,
    pub approves: bool,
    /// She sees the request's program.
    pub sees_program: bool,
}

impl Actor {
    /// `me` as the rules read her; `sees_program` is whether the request's program is in her
    /// scope.
    pub fn of(me: &crate::auth::CurrentUser, sees_program: bool) -> Self {
        Actor {
            id: me.id(),
            active: me.user.is_active,
            roles: me.roles.clone(),
            approves: me.has(crate::auth::Permission::RequestApprove),
            sees_program,
        }
    }

    /// The absent people `absent`, as the rules read them for a request of `program`.
    pub fn absent(absent: &[crate::auth::scope::Absent], program: i32) -> Vec<Self> {
        absent.iter().map(|a| Actor::of(&a.principal, a.scope.allows_program(program))).collect()
    }

    fn holds(&self, role: &str) -> bool {
        self.roles.iter().any(|r| r.eq_ignore_ascii_case(role))
    }
}

/// What the request says about who may not take its steps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestFacts {
    pub created_by: Option<i32>,
    pub submitted_by: Option<i32>,
}

/// How a step is taken: by the actor in her own right, or for an absent person whose
/// stand-in she is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via {
    Myself,
    OnBehalfOf(i32),
}

impl Via {
    pub fn on_behalf_of(self) -> Option<i32> {
        match self {
            Via::Myself => None,
            Via::OnBehalfOf(id) => Some(id),
        }
    }
}

/// Why a step is not the actor's to take.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// No step is current (the chain is complete, or there is none).
    NoCurrentStep,
    /// Not an active holder of the role and `request:approve` who sees the program.
    NotForYou { index: usize, count: usize, name: String, role: String },
    /// She created or submitted the request (the approval rules' `selfApproval`).
    OwnRequest,
    /// She approved step `earlier`, herself or for someone.
    TookEarlierStep { earlier: usize, index: usize, name: String, role: String },
}

impl Refusal {
    /// The sentence the 403 carries.
    pub fn message(&self) -> String {
        match self {
            Refusal::NoCurrentStep => "The request has no step waiting for approval.".into(),
            Refusal::NotForYou { index, name, role, .. } => {
                format!("Step {}, {name}, is for the role {role}.", index + 1)
            }
            Refusal::OwnRequest => "Nobody approves a request they created or submitted.".into(),
            Refusal::TookEarlierStep { earlier, index, name, role } => format!(
                "Step {}, {name}, is for the role {role}, and for someone who did not approve step {}.",
                index + 1,
                earlier + 1
            ),
        }
    }
}

/// Whether `actor` may take the current step of `steps`, in her own right. A stand-in is one
/// more way in: `may_take` over the absent person's facts, the absent person's id as `Via`.
pub fn may_take(
    steps: &[TakenStep],
    actor: &Actor,
    request: &RequestFacts,
) -> Result<(usize, Via), Refusal> {
    let index = current(steps).ok_or(Refusal::NoCurrentStep)?;
    let step = &steps[index];
    if !(actor.active && actor.approves && actor.sees_program && actor.holds(&step.role)) {
        return Err(Refusal::NotForYou {
            index,
            count: steps.len(),
            name: step.name.clone(),
            role: step.role.clone(),
        });
    }
    if request.created_by == Some(actor.id) || request.submitted_by == Some(actor.id) {
        return Err(Refusal::OwnRequest);
    }
    if let Some(earlier) = steps[..index]
        .iter()
        .position(|s| s.by == Some(actor.id) || s.on_behalf_of == Some(actor.id))
    {
        return Err(Refusal::TookEarlierStep {
            earlier,
            index,
            name: step.name.clone(),
            role: step.role.clone(),
        });
    }
    Ok((index, Via::Myself))
}

/// Whether `actor` may take the current step in her own right or as the stand-in of one of
/// `absent` (the people she stands in for today, with their own facts): the step must be the
/// absent person's to take, and the stand-in herself must approve, be active, not have
/// created or submitted the request, and not have taken an earlier step. Her own right wins.
pub fn may_take_as(
    steps: &[TakenStep],
    actor: &Actor,
    absent: &[Actor],
    request: &RequestFacts,
) -> Result<(usize, Via), Refusal> {
    let own = may_take(steps, actor, request);
    if own.is_ok() || matches!(own, Err(Refusal::OwnRequest)) {
        return own;
    }
    for person in absent {
        if let Ok((index, _)) = may_take(steps, person, request) {
            // The stand-in held to every rule but the step's role and the program.
            let herself = Actor {
                roles: vec![steps[index].role.clone()],
                sees_program: true,
                ..actor.clone()
            };
            return may_take(steps, &herself, request)
                .map(|(index, _)| (index, Via::OnBehalfOf(person.id)));
        }
    }
    own
}

/// The amount a step may approve: never more than the step before it approved.
pub fn check_amount(steps: &[TakenStep], index: usize, amount: Money) -> Result<(), String> {
    let before = steps[..index].iter().rev().find_map(|s| s.approved_amount);
    match before {
        Some(limit) if amount > limit => Err(format!(
            "The approved amount must not exceed what the step before approved ({limit})."
        )),
        _ => Ok(()),
    }
}

/// Whether step `index` is the last: only it approves the request.
pub fn is_final(steps: &[TakenStep], index: usize) -> bool {
    index + 1 == steps.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(steps: &[(&str, &str, i64)]) -> Vec<RuleStep> {
        steps
            .iter()
            .map(|(n, r, c)| RuleStep {
                name: (*n).into(),
                role: (*r).into(),
                from_amount: Money(*c),
            })
            .collect()
    }

    fn three() -> Vec<RuleStep> {
        rule(&[
            ("Program", "Program lead", 0),
            ("Finance", "Finance", 50_000),
            ("Director", "Director", 500_000),
        ])
    }

    #[test]
    fn the_steps_that_apply_grow_with_the_amount() {
        for (cents, names) in [
            (0, vec!["Program"]),
            (49_999, vec!["Program"]),
            (50_000, vec!["Program", "Finance"]),
            (499_999, vec!["Program", "Finance"]),
            (500_000, vec!["Program", "Finance", "Director"]),
            (10_000_000, vec!["Program", "Finance", "Director"]),
        ] {
            let got: Vec<String> =
                applying(&three(), Money(cents)).into_iter().map(|s| s.name).collect();
            assert_eq!(got, names, "{cents}");
        }
        assert_eq!(applying(&default_rule(), Money(1)), default_rule());
    }

    #[test]
    fn a_rule_is_checked_for_shape_then_for_its_rules() {
        let long = "x".repeat(101);
        for (steps, field) in [
            (rule(&[]), Some("steps")),
            (rule(&[("a", "r", 0); 6]), Some("steps")),
            (rule(&[(" ", "r", 0)]), Some("steps[0].name")),
            (rule(&[(long.as_str(), "r", 0)]), Some("steps[0].name")),
            (rule(&[("a", "", 0)]), Some("steps[0].role")),
            (rule(&[("a", "r", 0), ("b", "r", -1)]), Some("steps[1].fromAmount")),
            (three(), None),
        ] {
            let c = check_shape(&steps);
            assert_eq!(c.0.keys().next().map(String::as_str), field, "{steps:?}");
        }
        let roles = |r: &str| match r {
            "Program lead" | "Finance" | "Director" => RoleFact::Exists { approves: true },
            "Coordinator" => RoleFact::Exists { approves: false },
            _ => RoleFact::Missing,
        };
        for (steps, field) in [
            (three(), None),
            (rule(&[("a", "Program lead", 1)]), Some("steps[0].fromAmount")),
            (rule(&[("a", "Finance", 0), ("b", "Nobody", 5)]), Some("steps[1].role")),
            (rule(&[("a", "Finance", 0), ("b", "Coordinator", 5)]), Some("steps[1].role")),
            (rule(&[("a", "Finance", 0), ("A ", "Director", 5)]), Some("steps[1].name")),
        ] {
            let c = check_rules(&steps, roles);
            assert_eq!(c.0.keys().next().map(String::as_str), field, "{steps:?}");
        }
    }

    /// A step as a test writes it: state, by, on behalf of, approved cents.
    type Row = (StepState, Option<i32>, Option<i32>, Option<i64>);

    fn chain(states: &[Row]) -> Vec<TakenStep> {
        let names = [("Program", "Program lead"), ("Finance", "Finance"), ("Director", "Director")];
        states
            .iter()
            .zip(names)
            .map(|((state, by, obo, cents), (name, role))| TakenStep {
                name: name.into(),
                role: role.into(),
                state: *state,
                by: *by,
                on_behalf_of: *obo,
                approved_amount: cents.map(Money),
            })
            .collect()
    }

    fn actor(id: i32, roles: &[&str]) -> Actor {
        Actor {
            id,
            active: true,
            roles: roles.iter().map(|r| (*r).to_string()).collect(),
            approves: true,
            sees_program: true,
        }
    }

    #[test]
    fn who_may_take_the_current_step() {
        use StepState::*;
        let at_two = chain(&[
            (Done, Some(1), None, Some(900)),
            (Current, None, None, None),
            (Waiting, None, None, None),
        ]);
        let by_stand_in = chain(&[
            (Done, Some(5), Some(1), Some(900)),
            (Current, None, None, None),
            (Waiting, None, None, None),
        ]);
        let done = chain(&[(Done, Some(1), None, Some(900))]);
        let request = RequestFacts { created_by: Some(7), submitted_by: Some(8) };
        let took = Err(Refusal::TookEarlierStep {
            earlier: 0,
            index: 1,
            name: "Finance".into(),
            role: "Finance".into(),
        });
        let not_for = |index: usize| {
            Err(Refusal::NotForYou {
                index,
                count: 3,
                name: "Finance".into(),
                role: "Finance".into(),
            })
        };
        let inactive = Actor { active: false, ..actor(2, &["Finance"]) };
        let no_permission = Actor { approves: false, ..actor(2, &["Finance"]) };
        let out_of_scope = Actor { sees_program: false, ..actor(2, &["Finance"]) };
        for (steps, who, want) in [
            (&at_two, actor(2, &["Finance"]), Ok((1, Via::Myself))),
            (&at_two, actor(2, &["Director", "finance"]), Ok((1, Via::Myself))),
            (&at_two, actor(2, &["Program lead"]), not_for(1)),
            (&at_two, inactive, not_for(1)),
            (&at_two, no_permission, not_for(1)),
            (&at_two, out_of_scope, not_for(1)),
            (&at_two, actor(7, &["Finance"]), Err(Refusal::OwnRequest)),
            (&at_two, actor(8, &["Finance"]), Err(Refusal::OwnRequest)),
            (&at_two, actor(1, &["Finance"]), took.clone()),
            (&by_stand_in, actor(1, &["Finance"]), took.clone()),
            (&by_stand_in, actor(5, &["Finance"]), took.clone()),
            (&done, actor(2, &["Finance"]), Err(Refusal::NoCurrentStep)),
        ] {
            assert_eq!(may_take(steps, &who, &request), want, "{who:?}");
        }
        assert_eq!(not_for(1).unwrap_err().message(), "Step 2, Finance, is for the role Finance.");
    }

    #[test]
    fn a_stand_in_takes_what_the_absent_person_could_under_her_own_rules() {
        use StepState::*;
        let at_two = chain(&[
            (Done, Some(1), None, Some(900)),
            (Current, None, None, None),
            (Waiting, None, None, None),
        ]);
        let request = RequestFacts { created_by: Some(7), submitted_by: Some(8) };
        let finance = actor(3, &["Finance"]);
        let stand_in = actor(4, &["Reviewer"]);
        let not_for = Err(Refusal::NotForYou {
            index: 1,
            count: 3,
            name: "Finance".into(),
            role: "Finance".into(),
        });
        let cases = [
            ("for Finance", stand_in.clone(), vec![finance.clone()], Ok((1, Via::OnBehalfOf(3)))),
            ("nobody away", stand_in.clone(), vec![], not_for.clone()),
            (
                "away is not Finance",
                stand_in.clone(),
                vec![actor(3, &["Director"])],
                not_for.clone(),
            ),
            (
                "away outside the program",
                stand_in.clone(),
                vec![Actor { sees_program: false, ..finance.clone() }],
                not_for.clone(),
            ),
            ("away took step 1", stand_in.clone(), vec![actor(1, &["Finance"])], not_for.clone()),
            (
                "herself the submitter",
                actor(8, &["Reviewer"]),
                vec![finance.clone()],
                Err(Refusal::OwnRequest),
            ),
            (
                "herself took step 1",
                actor(1, &["Reviewer"]),
                vec![finance.clone()],
                Err(Refusal::TookEarlierStep {
                    earlier: 0,
                    index: 1,
                    name: "Finance".into(),
                    role: "Finance".into(),
                }),
            ),
            (
                "herself without request:approve",
                Actor { approves: false, ..stand_in.clone() },
                vec![finance.clone()],
                not_for.clone(),
            ),
            (
                "in her own right first",
                actor(4, &["Finance"]),
                vec![finance.clone()],
                Ok((1, Via::Myself)),
            ),
        ];
        for (name, who, absent, want) in cases {
            assert_eq!(may_take_as(&at_two, &who, &absent, &request), want, "{name}");
        }
    }

    #[test]
    fn a_later_step_may_lower_the_amount_never_raise_it() {
        use StepState::*;
        let steps = chain(&[
            (Done, Some(1), None, Some(900)),
            (Done, Some(2), None, Some(800)),
            (Current, None, None, None),
        ]);
        for (index, cents, ok) in [
            (0, 100_000, true),
            (1, 900, true),
            (1, 901, false),
            (2, 800, true),
            (2, 700, true),
            (2, 850, false),
        ] {
            assert_eq!(check_amount(&steps, index, Money(cents)).is_ok(), ok, "{index} {cents}");
        }
        assert!(is_final(&steps, 2) && !is_final(&steps, 1));
        assert_eq!(current(&steps), Some(2));
        assert_eq!(initial_states(3), vec![Current, Waiting, Waiting]);
    }
}
