//! `/users/{id}/picture`: PNG, JPEG or WebP up to 256 KiB, recognised by its bytes.

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};

use pf_app as app;
use pf_app::Picture;
use pf_http::auth::{require_self_or_admin, Caller};
use pf_http::extract::Path;
use pf_http::{docs, ApiError, ApiResult};

pub const MAX_PICTURE_BYTES: usize = 256 * 1024;

/// The image type its first bytes show, if it is one we accept.
pub fn sniff(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some("image/png")
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some("image/jpeg")
    } else if bytes.len() >= 12 && &bytes[0..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
        Some("image/webp")
    } else {
        None
    }
}

fn too_large() -> ApiError {
    ApiError::PayloadTooLarge(format!("pictures are at most {MAX_PICTURE_BYTES} bytes"))
}

/// Stores the raw image body; its Content-Type must be the type its bytes show.
#[utoipa::path(
    put,
    path = "/users/{id}/picture",
    params(("id" = inline(docs::Id), Path)),
    request_body(description = "The image, at most 256 KiB", content((docs::Image = "image/png"), (docs::Image = "image/jpeg"), (docs::Image = "image/webp"))),
    responses(
        (status = 204, description = "Stored"),
        docs::ReadErrors,
        (status = 413, response = docs::PayloadTooLarge),
        (status = 415, response = docs::UnsupportedMediaType),
    )
)]
pub async fn store(
    me: Caller,
    Path(id): Path<u64>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<StatusCode> {
    require_self_or_admin(&me, id).await?;
    let picture = parse_picture(&headers, body)?;
    app::users::put_picture(me.store(), id, &picture).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The body as a picture: a declared type we accept, at most the size bound, and bytes
/// that really are an image of the declared type.
fn parse_picture(headers: &HeaderMap, body: Result<Bytes, BytesRejection>) -> ApiResult<Picture> {
    let declared = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .map(|v| v.trim().to_ascii_lowercase())
        .unwrap_or_default();
    if !["image/png", "image/jpeg", "image/webp"].contains(&declared.as_str()) {
        return Err(ApiError::UnsupportedMediaType(
            "send image/png, image/jpeg or image/webp".into(),
        ));
    }
    let bytes = body.map_err(|_| too_large())?;
    if bytes.len() > MAX_PICTURE_BYTES {
        return Err(too_large());
    }
    if sniff(&bytes) != Some(declared.as_str()) {
        let message = format!("the body is not a valid {declared} image");
        return Err(ApiError::UnsupportedMediaType(message));
    }
    Ok(Picture {
        content_type: declared,
        bytes: bytes.to_vec(),
    })
}

/// The picture with its content type.
#[utoipa::path(
    get,
    path = "/users/{id}/picture",
    params(("id" = inline(docs::Id), Path)),
    responses(
        (status = 200, description = "The image", content((docs::Image = "image/png"), (docs::Image = "image/jpeg"), (docs::Image = "image/webp"))),
        docs::ReadErrors,
    )
)]
pub async fn read(me: Caller, Path(id): Path<u64>) -> ApiResult<Response> {
    require_self_or_admin(&me, id).await?;
    let picture = app::users::get_picture(me.store(), id).await?;
    Ok((
        [(header::CONTENT_TYPE, picture.content_type)],
        picture.bytes,
    )
        .into_response())
}

/// Removes the picture.
#[utoipa::path(
    delete,
    path = "/users/{id}/picture",
    params(("id" = inline(docs::Id), Path)),
    responses(
        (status = 204, description = "Removed"),
        docs::ReadErrors,
    )
)]
pub async fn remove(me: Caller, Path(id): Path<u64>) -> ApiResult<StatusCode> {
    require_self_or_admin(&me, id).await?;
    app::users::delete_picture(me.store(), id).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_images_by_their_bytes() {
        assert_eq!(sniff(b"\x89PNG\r\n\x1a\nrest"), Some("image/png"));
        assert_eq!(sniff(&[0xFF, 0xD8, 0xFF, 0xE0]), Some("image/jpeg"));
        assert_eq!(sniff(b"RIFF\0\0\0\0WEBPVP8 "), Some("image/webp"));
        assert_eq!(sniff(b"GIF89a"), None);
        assert_eq!(sniff(b"<svg"), None);
    }
}
