//! Tag endpoints (`/api/tags`): the caller's own tags, unique by name.

use shared::http::named::NamedApi;
use shared::store::named::Kind;

static API: NamedApi = NamedApi {
    kind: Kind::Tag,
    path: "/api/tags",
    field: "tagName",
    noun: "tag",
};

shared::named_resource_api!(
    API,
    "/api/tags",
    "/api/tags/{id}",
    "tagName",
    "tags",
    TagInput,
    Tag
);
