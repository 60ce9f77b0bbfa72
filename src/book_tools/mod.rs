//! Offline book tools, above search and records: building a book from game records ([`build`]) and
//! generating balanced match openings by short searches ([`openings`]). The run-time book the
//! engine reads is [`crate::book`], which depends on neither.

pub mod build;
pub mod openings;
