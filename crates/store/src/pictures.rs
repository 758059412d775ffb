//! Profile pictures, stored as one binary attribute (at most 256 KiB, well under
//! DynamoDB's 400 KB item limit).

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::{AttributeValue, ReturnValue};

use super::attr::{get_s, s, Item};
use super::keys::{user_pk, PICTURE, PROFILE};
use super::transact::TxItems;
use super::{sdk_error, Store, StoreError, StoreResult};

pub struct Picture {
    pub content_type: String,
    pub bytes: Vec<u8>,
}

impl Store {
    /// Stores (or replaces) the picture; `NotFound` when the user no longer exists.
    pub async fn put_picture(&self, user_id: u64, picture: &Picture, now: &str) -> StoreResult<()> {
        let item = Item::from([
            ("PK".into(), s(user_pk(user_id))),
            ("SK".into(), s(PICTURE)),
            ("contentType".into(), s(&picture.content_type)),
            (
                "picture".into(),
                AttributeValue::B(Blob::new(picture.bytes.clone())),
            ),
            ("updatedAt".into(), s(now)),
        ]);
        let mut tx = TxItems::new(self);
        tx.put(item, None, None)?;
        tx.check(&user_pk(user_id), PROFILE, "attribute_exists(PK)", None)?;
        match self.transact(tx).await {
            Err(StoreError::Conflict(_)) => Err(StoreError::NotFound),
            other => other,
        }
    }

    pub async fn get_picture(&self, user_id: u64) -> StoreResult<Option<Picture>> {
        let out = self
            .client
            .get_item()
            .table_name(&self.table)
            .key("PK", s(user_pk(user_id)))
            .key("SK", s(PICTURE))
            .send()
            .await
            .map_err(sdk_error)?;
        let Some(item) = out.item else {
            return Ok(None);
        };
        let bytes = match item.get("picture") {
            Some(AttributeValue::B(b)) => b.as_ref().to_vec(),
            _ => return Err(anyhow::anyhow!("picture item lacks its bytes").into()),
        };
        Ok(Some(Picture {
            content_type: get_s(&item, "contentType")?.to_owned(),
            bytes,
        }))
    }

    /// Deletes the picture; `NotFound` when there was none.
    pub async fn delete_picture(&self, user_id: u64) -> StoreResult<()> {
        let out = self
            .delete_at(&user_pk(user_id), PICTURE)
            .return_values(ReturnValue::AllOld)
            .send()
            .await
            .map_err(sdk_error)?;
        out.attributes.map(|_| ()).ok_or(StoreError::NotFound)
    }
}
