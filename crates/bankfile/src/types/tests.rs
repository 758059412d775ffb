//! Names of formats and fields, options and errors.

use super::*;

#[test]
fn names_parse_trimmed_case_insensitively_with_their_aliases() {
    assert_eq!(" QFX ".parse::<Format>(), Ok(Format::Ofx));
    assert_eq!("Camt".parse::<Format>(), Ok(Format::Camt));
    assert_eq!(
        "pdf".parse::<Format>().unwrap_err().to_string(),
        "format: must be csv, ofx, qif or camt"
    );
    assert_eq!("VALUEDATE".parse::<Field>(), Ok(Field::ValueDate));
    assert_eq!("Provider".parse::<Field>(), Ok(Field::Payee));
    assert_eq!("importid".parse::<Field>(), Ok(Field::Id));
    assert_eq!(
        "x".parse::<Field>().unwrap_err().to_string(),
        "col: \"x\" is no field"
    );
    assert_eq!(Field::ALL.len(), 14);
    assert_eq!(Field::ValueDate.to_string(), "valueDate");
}
