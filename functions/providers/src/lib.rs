//! Provider endpoints (`/api/providers`): the caller's own providers, unique by name.

use shared::http::named::NamedApi;
use shared::store::named::Kind;

static API: NamedApi = NamedApi {
    kind: Kind::Provider,
    path: "/api/providers",
    field: "providerName",
    noun: "provider",
};

shared::named_resource_api!(
    API,
    "/api/providers",
    "/api/providers/{id}",
    "providerName",
    "providers",
    ProviderInput,
    Provider
);
