//! Header aliases of each field, in English, German, French, Spanish, Italian, Dutch,
//! Portuguese, Chinese, Japanese and Korean (as Alipay, WeChat Pay, ICBC, China Merchants
//! Bank, MUFG, SMBC, Mizuho, Rakuten, KB and Shinhan name their columns), written as they
//! are folded (see [`crate::text::fold`]): lower case, without accents, words separated by
//! one space. Checked against the layouts listed in the README. One module a kind of
//! column: dates, money, descriptions and codes.

mod codes;
mod dates;
mod descriptions;
mod money;

use crate::Field;

/// Each field's aliases, the fields in the order of [`Field::ALL`].
pub const ALIASES: [(Field, &[&str]); 14] = [
    (Field::Date, dates::DATE),
    (Field::ValueDate, dates::VALUE_DATE),
    (Field::Amount, money::AMOUNT),
    (Field::Debit, money::DEBIT),
    (Field::Credit, money::CREDIT),
    (Field::Type, codes::TYPE),
    (Field::Payee, descriptions::PAYEE),
    (Field::Note, descriptions::NOTE),
    (Field::Category, descriptions::CATEGORY),
    (Field::Tags, descriptions::TAGS),
    (Field::Id, codes::ID),
    (Field::Currency, money::CURRENCY),
    (Field::Status, codes::STATUS),
    (Field::Fee, money::FEE),
];
