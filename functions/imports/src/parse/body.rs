//! The file of a request: the body as it is (any Content-Type: the content decides what
//! it is), or the one file part of a `multipart/form-data` body (what a browser's file
//! input sends; any part name), read with `multer`.

use std::convert::Infallible;

use axum::body::Bytes;
use axum::http::{header, HeaderMap};
use pf_http::ApiError;

/// The file's bytes.
pub async fn file_bytes(headers: &HeaderMap, body: Bytes) -> Result<Bytes, ApiError> {
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    let multipart = content_type
        .split(';')
        .next()
        .is_some_and(|t| t.trim().eq_ignore_ascii_case("multipart/form-data"));
    if !multipart {
        return Ok(body);
    }
    let boundary = multer::parse_boundary(content_type)
        .map_err(|_| ApiError::bad_request("multipart/form-data needs a boundary"))?;
    let stream = futures::stream::once(async move { Ok::<_, Infallible>(body) });
    let mut form = multer::Multipart::new(stream, boundary);
    let bad = |e: multer::Error| ApiError::bad_request(format!("malformed multipart body: {e}"));
    // (has a file name, content) of every part.
    let mut parts = Vec::new();
    while let Some(field) = form.next_field().await.map_err(bad)? {
        let is_file = field.file_name().is_some();
        parts.push((is_file, field.bytes().await.map_err(bad)?));
    }
    let files = parts.iter().filter(|(is_file, _)| *is_file).count();
    let total = parts.len();
    let pick = match (files, total) {
        (1, _) => parts.into_iter().find(|(is_file, _)| *is_file),
        (0, 1) => parts.into_iter().next(),
        _ => None,
    };
    pick.map(|(_, bytes)| bytes).ok_or_else(|| {
        ApiError::bad_request(format!(
            "a multipart/form-data body holds one file part (this one has {files} files \
             among {total} parts)"
        ))
    })
}
