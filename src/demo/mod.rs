//! Synthetic data: `mentorpay seed` (large, deterministic data sets for benchmarks).
//! The `demo` world (DESIGN §1) is a later step.

pub mod seed;
