//! Tag endpoints (`/api/tags`): the caller's own tags, unique by name.

pf_http::label_api!(
    Tag,
    "/api/tags",
    "/api/tags/{id}",
    "tagName",
    "tags",
    TagInput,
    Tag
);
