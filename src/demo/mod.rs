//! Data for people and machines: `mentorpay demo` (a small living world) and
//! `mentorpay seed` (large, deterministic data sets for benchmarks).

pub mod calendar;
pub mod seed;
pub mod world;
