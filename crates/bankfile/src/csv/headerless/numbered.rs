//! Columns named by number (`col.<field>=#N`), the only way to name one in a file
//! without a header, and the names its columns are reported as.

use std::collections::BTreeMap;

use crate::{Field, FileError};

/// The 0-based column a `#N` override names (`#1` is the first).
pub fn column_number(name: &str) -> Option<usize> {
    let n: usize = name.trim().strip_prefix('#')?.parse().ok()?;
    (1..=1000).contains(&n).then(|| n - 1)
}

/// The name a headerless column is reported as, which `col.<field>` takes back.
pub fn column_name(index: usize) -> String {
    format!("#{}", index + 1)
}

/// Refuses an override by header name: a file without a header has none.
pub fn refuse_names(overrides: &BTreeMap<Field, String>) -> Result<(), FileError> {
    match overrides.iter().find(|(_, n)| column_number(n).is_none()) {
        Some((field, name)) => Err(FileError::bad(
            &format!("col.{field}"),
            format!("the file has no header: name the column by its number, e.g. #2, not {name:?}"),
        )),
        None => Ok(()),
    }
}

/// Applies the `#N` overrides: a field named by number moves to that column.
pub fn apply_numbered(fields: &mut Vec<Option<Field>>, overrides: &BTreeMap<Field, String>) {
    for (field, index) in overrides
        .iter()
        .filter_map(|(f, n)| Some((*f, column_number(n)?)))
    {
        for f in fields.iter_mut().filter(|f| **f == Some(field)) {
            *f = None;
        }
        if fields.len() <= index {
            fields.resize(index + 1, None);
        }
        fields[index] = Some(field);
    }
}
