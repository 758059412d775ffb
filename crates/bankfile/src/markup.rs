//! A tolerant reader of OFX markup: SGML 1.x with unclosed leaf tags and XML 2.x alike
//! (a 2.x file with unclosed tags reads like 1.x). An element followed by text is a
//! leaf whose value is the text (its end tag optional); an element followed by a tag is
//! an aggregate, closed by its end tag or by the end tag of an aggregate around it, or by
//! the start of another of its name (no OFX aggregate holds itself). An element followed
//! by a tag that is never closed by its own end tag and is none of the aggregates a
//! statement is made of ([`AGGREGATES`]) was an empty leaf (`<NAME>` with no text, as
//! exporters write): what followed it belongs to its parent.

use crate::{capped, check_tag, FileError, MAX_DEPTH};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    Open(String),
    Leaf(String, String),
    Close(String),
}

/// The 1-based line of a byte offset.
pub fn line_at(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// Decodes the five XML entities and numeric references; others stay as they are.
pub fn unescape(raw: &str) -> String {
    if !raw.contains('&') {
        return raw.to_owned();
    }
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let end = rest.bytes().take(12).position(|b| b == b';');
        let decoded = end.and_then(|end| {
            let name = &rest[1..end];
            let c = match name {
                "amp" => Some('&'),
                "lt" => Some('<'),
                "gt" => Some('>'),
                "quot" => Some('"'),
                "apos" => Some('\''),
                _ => name
                    .strip_prefix("#x")
                    .or_else(|| name.strip_prefix("#X"))
                    .and_then(|h| u32::from_str_radix(h, 16).ok())
                    .or_else(|| name.strip_prefix('#').and_then(|d| d.parse().ok()))
                    .and_then(char::from_u32),
            };
            c.map(|c| (c, end + 1))
        });
        match decoded {
            Some((c, len)) => {
                out.push(c);
                rest = &rest[len..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The OFX aggregates a statement is read from: never taken for an empty leaf.
pub const AGGREGATES: [&str; 18] = [
    "OFX",
    "SIGNONMSGSRSV1",
    "SONRS",
    "BANKMSGSRSV1",
    "STMTTRNRS",
    "STMTRS",
    "CREDITCARDMSGSRSV1",
    "CCSTMTTRNRS",
    "CCSTMTRS",
    "BANKACCTFROM",
    "CCACCTFROM",
    "BANKTRANLIST",
    "STMTTRN",
    "PAYEE",
    "LEDGERBAL",
    "AVAILBAL",
    "STATUS",
    "FI",
];

struct Open {
    name: String,
    at: usize,
    /// Where its `Open` event stands in the output.
    event: usize,
    children: bool,
}

/// Closes the open elements above `keep` (the innermost first) at offset `at`; one that is
/// no aggregate of [`AGGREGATES`] was an empty leaf, and becomes one.
fn close_above(stack: &mut Vec<Open>, keep: usize, out: &mut Vec<(Event, usize)>, at: usize) {
    while stack.len() > keep {
        let Some(o) = stack.pop() else { break };
        if AGGREGATES.contains(&o.name.as_str()) {
            out.push((Event::Close(o.name), at));
        } else {
            out[o.event].0 = Event::Leaf(o.name, String::new());
        }
    }
}

/// The events of a document, each with the byte offset of its tag. Truncation (an
/// element still open at the end, a tag without `>`) is [`FileError::Malformed`].
pub fn events(text: &str) -> Result<Vec<(Event, usize)>, FileError> {
    let mut out = Vec::new();
    let mut stack: Vec<Open> = Vec::new();
    let mut pos = text.find('<').unwrap_or(text.len());
    let mut pending_leaf: Option<(String, usize)> = None;
    while pos < text.len() {
        let rest = &text[pos..];
        if rest.starts_with("<!--") {
            let end = rest
                .find("-->")
                .ok_or_else(|| unterminated(text, pos, "comment"))?;
            pos += end + 3;
            pos = text[pos..].find('<').map_or(text.len(), |n| pos + n);
            continue;
        }
        let end = rest
            .find('>')
            .ok_or_else(|| unterminated(text, pos, "tag"))?;
        let tag = &rest[1..end];
        let after = pos + end + 1;
        let next = text[after..].find('<').map_or(text.len(), |n| after + n);
        let body = text[after..next].trim();
        let at = pos;
        pos = next;
        if tag.starts_with('?') || tag.starts_with('!') {
            continue;
        }
        if let Some(name) = tag.strip_prefix('/') {
            let name = name.trim().to_ascii_uppercase();
            if pending_leaf.take().is_some_and(|(leaf, _)| leaf == name) {
                continue;
            }
            if let Some(i) = stack.iter().rposition(|o| o.name == name) {
                close_above(&mut stack, i + 1, &mut out, at);
                if let Some(o) = stack.pop() {
                    out.push((Event::Close(o.name), at));
                }
            }
            continue;
        }
        pending_leaf = None;
        check_tag(tag.as_bytes(), || {
            let name: String = tag
                .split_whitespace()
                .next()
                .unwrap_or("")
                .chars()
                .take(64)
                .collect();
            format!("<{name}> at line {}", line_at(text, at))
        })?;
        let self_closing = tag.ends_with('/');
        let name: String = tag
            .trim_end_matches('/')
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_uppercase();
        if name.is_empty() || name.len() > 64 {
            return Err(FileError::malformed(
                format!("line {}", line_at(text, at)),
                "a tag has no name or an overlong one",
            ));
        }
        if let Some(i) = stack.iter().rposition(|o| o.name == name) {
            close_above(&mut stack, i, &mut out, at);
        }
        if let Some(parent) = stack.last_mut() {
            parent.children = true;
        }
        if self_closing {
            out.push((Event::Leaf(name, String::new()), at));
        } else if !body.is_empty() {
            out.push((Event::Leaf(name.clone(), unescape(capped(body))), at));
            pending_leaf = Some((name, at));
        } else {
            if stack.len() >= MAX_DEPTH {
                return Err(FileError::malformed(
                    format!("<{name}> at line {}", line_at(text, at)),
                    format!("elements nest deeper than {MAX_DEPTH}"),
                ));
            }
            stack.push(Open {
                name: name.clone(),
                at,
                event: out.len(),
                children: false,
            });
            out.push((Event::Open(name), at));
        }
    }
    let open = stack.iter().rev().find(|o| o.children).or(stack.last());
    if let Some(o) = open {
        return Err(FileError::malformed(
            format!("<{}> at line {}", o.name, line_at(text, o.at)),
            format!("the file ends before </{}> (truncated?)", o.name),
        ));
    }
    Ok(out)
}

fn unterminated(text: &str, pos: usize, what: &str) -> FileError {
    FileError::malformed(
        format!("line {}", line_at(text, pos)),
        format!("a {what} is not closed (truncated?)"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str) -> Vec<Event> {
        events(text).unwrap().into_iter().map(|(e, _)| e).collect()
    }

    #[test]
    fn sgml_and_xml_alike() {
        use Event::*;
        let sgml = names("<A><B>1<C>x &amp; y</A>");
        let xml = names("<A><B>1</B><C>x &amp; y</C></A>");
        let want = [
            Open("A".into()),
            Leaf("B".into(), "1".into()),
            Leaf("C".into(), "x & y".into()),
            Close("A".into()),
        ];
        assert_eq!(sgml, want);
        assert_eq!(xml, want);
        let e = events("<OFX>\n<STMTTRN>\n<TRNAMT>1").unwrap_err();
        assert!(e.to_string().contains("<STMTTRN> at line 2"), "{e}");
        assert!(events("<OFX><A").is_err());
        assert_eq!(unescape("&#233;&#xE9;&bogus;"), "éé&bogus;");
    }
}
