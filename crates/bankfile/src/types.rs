//! The public types: what a caller sets ([`Options`]), what a file gives back
//! ([`Statement`]) and why a whole file is refused ([`FileError`]).

mod error;
mod names;
mod options;
mod statement;

pub(crate) use error::header_list;
pub use error::FileError;
pub use names::{Field, Format};
pub use options::{Options, DEFAULT_MAX_ROWS, MAX_CELL_BYTES};
pub use statement::{Detected, Paired, Row, RowError, SplitLine, Statement};

#[cfg(test)]
mod tests;
