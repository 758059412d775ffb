//! What each readable fixture of `tests/fixtures` holds, from `tests/expected.csv`: one
//! table for the crate's fixture tests and the API's import tests (`tests/api`, which
//! includes this file by path).

/// A row of `tests/expected.csv`: a fixture and the rows it reads as.
pub struct Expected(csv::StringRecord);

impl Expected {
    pub fn file(&self) -> &str {
        &self.0[0]
    }

    /// The format detected (`csv`, `ofx`, `qif`, `camt`).
    pub fn format(&self) -> &str {
        &self.0[1]
    }

    /// The encoding detected (its WHATWG name).
    pub fn encoding(&self) -> &str {
        &self.0[2]
    }

    /// How many rows.
    pub fn count(&self) -> usize {
        self.0[3].parse().expect("rows")
    }

    /// The rows' signed sum.
    pub fn sum(&self) -> &str {
        &self.0[4]
    }

    /// The statement's currency, when the file tells.
    pub fn currency(&self) -> Option<&str> {
        Some(&self.0[5]).filter(|c| !c.is_empty())
    }

    /// The payees in file order; none when the file names none.
    pub fn payees(&self) -> Vec<&str> {
        self.0[6].split('|').filter(|p| !p.is_empty()).collect()
    }

    /// The dates (ISO) in file order.
    pub fn dates(&self) -> Vec<&str> {
        self.0[7].split_whitespace().collect()
    }

    /// The delimiter, decimal separator and date format detected, where the format has
    /// them (CSV all three, QIF the last two).
    pub fn dialect(&self) -> (Option<char>, Option<char>, Option<&str>) {
        let char_at = |i: usize| self.0[i].chars().next();
        (
            char_at(8),
            char_at(9),
            Some(&self.0[10]).filter(|f| !f.is_empty()),
        )
    }
}

/// Every row of `tests/expected.csv`, in its order.
pub fn all() -> Vec<Expected> {
    csv::Reader::from_reader(include_str!("../expected.csv").as_bytes())
        .records()
        .map(|record| Expected(record.expect("tests/expected.csv")))
        .collect()
}

/// The row of `file`.
pub fn of(file: &str) -> Expected {
    all()
        .into_iter()
        .find(|e| e.file() == file)
        .unwrap_or_else(|| panic!("{file} is not in tests/expected.csv"))
}
