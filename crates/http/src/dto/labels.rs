//! A tag's and a provider's answers (their functions', the sync's and the export's).

crate::label_output!("tagName", Tag {} | record | {});

crate::label_output!(
    "providerName",
    Provider {
        /// The provider's default category, if any.
        #[serde(rename = "defaultCategoryId")]
        #[schema(nullable, minimum = 1, maximum = 9007199254740991.0, required = true)]
        pub default_category_id: Option<u64>,
    } |record| { default_category_id: record.default_category_id, }
);
