//! The table definition (one source: `shared/table.json`, also checked against
//! `template.yaml`) and local set-up: create the table when missing, seed categories.

use aws_sdk_dynamodb::types::{
    AttributeDefinition, BillingMode, GlobalSecondaryIndex, KeySchemaElement, KeyType,
    LocalSecondaryIndex, Projection, ProjectionType, ScalarAttributeType, TimeToLiveSpecification,
};
use serde::Deserialize;

use super::{sdk_error, Store, StoreResult};

/// The JSON text of the table definition, in CloudFormation / DynamoDB API spelling.
pub const TABLE_JSON: &str = include_str!("../../../shared/table.json");

#[derive(Debug, Deserialize, PartialEq)]
#[serde(rename_all = "PascalCase")]
pub struct TableDefinition {
    pub attribute_definitions: Vec<AttributeDef>,
    pub key_schema: Vec<KeyDef>,
    pub local_secondary_indexes: Vec<IndexDef>,
    pub global_secondary_indexes: Vec<IndexDef>,
    pub billing_mode: String,
    pub time_to_live_specification: TtlDef,
}

#[derive(Debug, Deserialize, PartialEq)]
#[serde(rename_all = "PascalCase")]
pub struct AttributeDef {
    pub attribute_name: String,
    pub attribute_type: String,
}

#[derive(Debug, Deserialize, PartialEq)]
#[serde(rename_all = "PascalCase")]
pub struct KeyDef {
    pub attribute_name: String,
    pub key_type: String,
}

#[derive(Debug, Deserialize, PartialEq)]
#[serde(rename_all = "PascalCase")]
pub struct IndexDef {
    pub index_name: String,
    pub key_schema: Vec<KeyDef>,
    pub projection: ProjectionDef,
}

#[derive(Debug, Deserialize, PartialEq)]
#[serde(rename_all = "PascalCase")]
pub struct ProjectionDef {
    pub projection_type: String,
    #[serde(default)]
    pub non_key_attributes: Vec<String>,
}

impl ProjectionDef {
    fn to_sdk(&self) -> Projection {
        Projection::builder()
            .projection_type(ProjectionType::from(self.projection_type.as_str()))
            .set_non_key_attributes(if self.non_key_attributes.is_empty() {
                None
            } else {
                Some(self.non_key_attributes.clone())
            })
            .build()
    }
}

#[derive(Debug, Deserialize, PartialEq)]
#[serde(rename_all = "PascalCase")]
pub struct TtlDef {
    pub attribute_name: String,
    pub enabled: bool,
}

impl TableDefinition {
    pub fn load() -> anyhow::Result<Self> {
        Ok(serde_json::from_str(TABLE_JSON)?)
    }
}

fn key_schema(keys: &[KeyDef]) -> anyhow::Result<Vec<KeySchemaElement>> {
    keys.iter()
        .map(|k| {
            Ok(KeySchemaElement::builder()
                .attribute_name(&k.attribute_name)
                .key_type(KeyType::from(k.key_type.as_str()))
                .build()?)
        })
        .collect()
}

impl Store {
    /// Creates the table from the definition unless it exists; enables TTL.
    pub async fn ensure_table(&self) -> StoreResult<()> {
        let def = TableDefinition::load()?;
        match self
            .client
            .describe_table()
            .table_name(&self.table)
            .send()
            .await
        {
            Ok(_) => return Ok(()),
            Err(e)
                if e.as_service_error()
                    .is_some_and(|se| se.is_resource_not_found_exception()) => {}
            Err(e) => return Err(sdk_error(e)),
        }
        let mut req = self
            .client
            .create_table()
            .table_name(&self.table)
            .billing_mode(BillingMode::from(def.billing_mode.as_str()))
            .set_key_schema(Some(key_schema(&def.key_schema)?));
        for a in &def.attribute_definitions {
            req = req.attribute_definitions(
                AttributeDefinition::builder()
                    .attribute_name(&a.attribute_name)
                    .attribute_type(ScalarAttributeType::from(a.attribute_type.as_str()))
                    .build()
                    .map_err(anyhow::Error::from)?,
            );
        }
        // The SDK's two index types have builders of the same fields.
        macro_rules! sdk_index {
            ($kind:ident, $idx:expr) => {
                $kind::builder()
                    .index_name(&$idx.index_name)
                    .set_key_schema(Some(key_schema(&$idx.key_schema)?))
                    .projection($idx.projection.to_sdk())
                    .build()
                    .map_err(anyhow::Error::from)?
            };
        }
        for idx in &def.local_secondary_indexes {
            req = req.local_secondary_indexes(sdk_index!(LocalSecondaryIndex, idx));
        }
        for idx in &def.global_secondary_indexes {
            req = req.global_secondary_indexes(sdk_index!(GlobalSecondaryIndex, idx));
        }
        match req.send().await {
            Ok(_) => {}
            // Another process created it between describe and create: fine.
            Err(e)
                if e.as_service_error()
                    .is_some_and(|se| se.is_resource_in_use_exception()) => {}
            Err(e) => return Err(sdk_error(e)),
        }
        self.client
            .update_time_to_live()
            .table_name(&self.table)
            .time_to_live_specification(
                TimeToLiveSpecification::builder()
                    .attribute_name(&def.time_to_live_specification.attribute_name)
                    .enabled(def.time_to_live_specification.enabled)
                    .build()
                    .map_err(anyhow::Error::from)?,
            )
            .send()
            .await
            .map_err(sdk_error)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_definition_parses() {
        let def = TableDefinition::load().unwrap();
        assert_eq!(def.key_schema.len(), 2);
        assert_eq!(def.local_secondary_indexes[0].index_name, crate::keys::LSI1);
        assert_eq!(def.billing_mode, "PAY_PER_REQUEST");
    }
}
