//! MentorPay: one binary serving the UI and the JSON API over SQLite (or PostgreSQL).
//! Areas (identity, …) sit over a small kernel (error, web, auth, entities, config, db).

pub mod activity;
pub mod app;
pub mod assets;
pub mod audit;
pub mod audit_log;
pub mod auth;
pub mod budgets;
pub mod cli;
pub mod clock;
pub mod config;
pub mod db;
pub mod demo;
pub mod drain;
pub mod entities;
pub mod error;
pub mod file_store;
pub mod forms;
pub mod idempotency;
pub mod identity;
pub mod mail;
pub mod memory;
pub mod money;
pub mod notifications;
pub mod openapi;
pub mod packets;
pub mod participants;
pub mod payment_requests;
pub mod reference;
pub mod reports;
pub mod routes;
pub mod settings;
pub mod state;
pub mod system;
pub mod text;
pub mod web;
