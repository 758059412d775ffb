//! Provider endpoints (`/api/providers`): the caller's own providers, unique by name, each
//! with an optional default category for creates that name none and match no rule.

use pf_http::ids::parse_id_patch;

pf_http::label_api!(
    Provider,
    "/api/providers",
    "/api/providers/{id}",
    "providerName",
    "providers",
    ProviderInput {
        /// The category of a transaction created with this provider, no `categoryId` and
        /// no matching rule: a global category or one of the caller's own (else `404`).
        /// On update, absent keeps it and `null` clears it.
        #[serde(rename = "defaultCategoryId", default, deserialize_with = "pf_http::ids::present")]
        #[schema(value_type = Option<u64>, nullable, minimum = 1, maximum = 9007199254740991.0)]
        pub default_category_id: Option<serde_json::Value>,
    } |body| parse_id_patch("defaultCategoryId", body.default_category_id.as_ref()),
    Provider
);
