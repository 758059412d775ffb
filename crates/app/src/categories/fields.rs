//! A category's editable fields as a client sends them, checked once: the name, the
//! icon (default `tag`), the colour (`#RRGGBB`, default `#757575`) and the type.

use crate::{AppError, AppResult};
use pf_domain::text::{parse_name, NAME_MAX_LEN};
use pf_domain::{CategoryType, Violation};

/// A category's editable fields, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CategoryFields {
    pub name: String,
    pub icon: String,
    /// `#RRGGBB`, upper-case.
    pub color: String,
    pub category_type: CategoryType,
}

/// Checks the fields as a client sent them: a name, an icon name (default `tag`), a colour
/// `#RRGGBB` (default `#757575`). Every broken rule is reported.
pub fn parse_fields(
    name: &str,
    icon: Option<&str>,
    color: Option<&str>,
    category_type: CategoryType,
) -> AppResult<CategoryFields> {
    let mut errors = Vec::new();
    let name =
        parse_name(name, NAME_MAX_LEN).map_err(|e| errors.push(Violation::new("categoryName", e)));
    let icon = match icon.map(str::trim) {
        None | Some("") => Ok("tag".to_owned()),
        Some(i)
            if i.len() <= 50
                && i.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') =>
        {
            Ok(i.to_owned())
        }
        Some(_) => {
            errors.push(Violation::new(
                "icon",
                "must be an icon name of at most 50 letters, digits, '-' or '_'",
            ));
            Err(())
        }
    };
    let color = parse_color(color.unwrap_or("#757575"))
        .map_err(|e| errors.push(Violation::new("color", e)));
    match (name, icon, color) {
        (Ok(name), Ok(icon), Ok(color)) => Ok(CategoryFields {
            name,
            icon,
            color,
            category_type,
        }),
        _ => Err(AppError::Invalid(errors)),
    }
}

/// `#RRGGBB`, stored upper-case.
fn parse_color(raw: &str) -> Result<String, String> {
    let ok =
        raw.len() == 7 && raw.starts_with('#') && raw[1..].chars().all(|c| c.is_ascii_hexdigit());
    if ok {
        Ok(raw.to_ascii_uppercase())
    } else {
        Err("must be a colour as #RRGGBB".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_fill_icon_and_colour_and_colours_are_upper_cased() {
        let f = parse_fields("Pets", None, Some("#8e24aa"), CategoryType::Debit).unwrap();
        assert_eq!((f.icon.as_str(), f.color.as_str()), ("tag", "#8E24AA"));
        let f = parse_fields("Pets", Some(" "), None, CategoryType::Credit).unwrap();
        assert_eq!((f.icon.as_str(), f.color.as_str()), ("tag", "#757575"));
    }

    #[test]
    fn every_invalid_field_is_reported() {
        let e =
            parse_fields(" ", Some("no spaces!"), Some("red"), CategoryType::Debit).unwrap_err();
        let AppError::Invalid(v) = e else {
            panic!("{e:?}")
        };
        let fields: Vec<_> = v.iter().map(|v| v.field.as_str()).collect();
        assert_eq!(fields, ["categoryName", "icon", "color"]);
    }
}
