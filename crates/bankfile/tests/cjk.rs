//! Chinese, Japanese and Korean exports (issue 49): their headers, their dates
//! (`2024年1月5日`, `2024.01.05 12:30:15`), full-width digits, and the Shift_JIS, GB18030
//! and EUC-KR encodings sniffed without a BOM or a declaration. The fixtures
//! (`tests/fixtures/{cn,jp,kr}_*.csv`, written with Python's own `cp932`, `gb18030` and
//! `cp949` codecs) have the layouts of Alipay, WeChat Pay, China Merchants Bank, MUFG,
//! Rakuten Card and KB Kookmin Bank; their count, sum, payees and dates are in
//! `tests/expected.csv`.

mod common;

use bankfile::{parse, Field, Options};
use common::{fixture, note, read, read_expected};

/// Each file reads as its row of `tests/expected.csv`: the encoding sniffed, the payees
/// decoded, the rows' sum; nothing declared.
#[test]
fn each_cjk_export_reads_with_its_encoding_count_sum_and_payees() {
    for name in [
        "cn_alipay_gb18030.csv",
        "cn_wechat_pay_utf8_bom.csv",
        "cn_cmb_gb18030.csv",
        "jp_mufg_shift_jis.csv",
        "jp_rakuten_card_shift_jis.csv",
        "jp_bank_kanji_dates_shift_jis.csv",
        "kr_kb_euc_kr.csv",
    ] {
        let s = read_expected(name);
        assert_eq!(s.detected.declared_encoding, None, "{name}");
    }
}

/// The fixtures hold the bytes those encodings give (so the test reads what the banks
/// write, not what this crate's decoder would make of its own encoder's output).
#[test]
fn the_fixtures_are_in_their_encodings() {
    let has = |name: &str, bytes: &[u8]| {
        let file = fixture(name);
        assert!(file.windows(bytes.len()).any(|w| w == bytes), "{name}");
        assert!(std::str::from_utf8(&file).is_err(), "{name} is UTF-8");
    };
    has("jp_mufg_shift_jis.csv", b"\x93\xfa\x95\x74"); // 日付
    has("kr_kb_euc_kr.csv", b"\xc0\xfb\xbf\xe4"); // 적요
    has("cn_alipay_gb18030.csv", b"\xbd\xf0\xb6\xee"); // 金额
}

/// The columns found under the banks' own headers, and the texts decoded.
#[test]
fn the_columns_and_texts_of_each_bank() {
    let alipay = read("cn_alipay_gb18030.csv");
    let columns = &alipay.detected.columns;
    assert_eq!(columns[&Field::Date], "交易时间");
    assert_eq!(columns[&Field::Type], "收/支");
    assert_eq!(columns[&Field::Payee], "交易对方");
    assert_eq!(columns[&Field::Status], "交易状态");
    // A closed order (`交易关闭`) is not booked.
    assert_eq!(alipay.pending_skipped, 1);
    assert_eq!(alipay.rows[0].category.as_deref(), Some("餐饮美食"));
    assert_eq!(note(&alipay, 0), Some("午餐订单"));
    assert_eq!(
        alipay.rows[0].import_id.as_deref(),
        Some("2024010522001412345678901234")
    );

    let wechat = read("cn_wechat_pay_utf8_bom.csv");
    assert_eq!(wechat.detected.columns[&Field::Amount], "金额(元)");
    assert_eq!(wechat.detected.currency.as_deref(), Some("CNY"));

    let cmb = read("cn_cmb_gb18030.csv");
    assert_eq!(cmb.detected.columns[&Field::Credit], "收入");
    assert_eq!(cmb.detected.columns[&Field::Debit], "支出");
    assert_eq!(note(&cmb, 2), Some("星巴克"));

    let mufg = read("jp_mufg_shift_jis.csv");
    assert_eq!(mufg.detected.columns[&Field::Debit], "支払い金額");
    assert_eq!(mufg.detected.columns[&Field::Credit], "預かり金額");
    assert_eq!(note(&mufg, 0), Some("カード | ＡＭＡＺＯＮ．ＣＯ．ＪＰ"));
    // Half-width katakana decoded as such.
    assert_eq!(note(&mufg, 3), Some("口座振替３ | ﾄｳｷﾖｳﾃﾞﾝﾘﾖｸ"));

    let rakuten = read("jp_rakuten_card_shift_jis.csv");
    // A card statement prints charges positive.
    assert!(rakuten.detected.invert);
    assert_eq!(rakuten.rows[1].amount.to_string(), "-3980");

    let kanji = read("jp_bank_kanji_dates_shift_jis.csv");
    let amounts: Vec<String> = kanji.rows.iter().map(|r| r.amount.to_string()).collect();
    assert_eq!(amounts, ["-10000", "250000", "-8432"]);
    assert_eq!(note(&kanji, 2), Some("電気料金　東京電力"));

    let kb = read("kr_kb_euc_kr.csv");
    assert_eq!(kb.detected.columns[&Field::Payee], "보낸분/받는분");
    assert_eq!(note(&kb, 1), Some("급여 | 1월급여"));
}

/// Headers as other banks of the three countries write them.
#[test]
fn headers_of_more_banks() {
    let read = |csv: &str| parse(csv.as_bytes(), &Options::default()).unwrap();
    // Shinhan: units in parentheses, date and time apart.
    let shinhan = read(
        "거래일자,거래시간,적요,출금(원),입금(원),내용,잔액(원),거래점\n\
         2024-01-05,12:30:15,체크카드,\"4,500\",0,이마트24,\"95,500\",본점\n",
    );
    assert_eq!(shinhan.rows[0].amount.to_string(), "-4500");
    assert_eq!(shinhan.detected.currency.as_deref(), Some("KRW"));
    // SMBC: `お引出し`, `お預入れ`, `お取り扱い内容`.
    let smbc = read(
        "年月日,お引出し,お預入れ,お取り扱い内容,残高\n2024/01/05,,\"200,000\",給与,\"300,000\"\n",
    );
    assert_eq!(smbc.rows[0].amount.to_string(), "200000");
    // Rakuten Bank: one signed column in yen, dates in 年月日 with full-width digits.
    let rakuten_bank = read(
        "取引日,入出金(円),取引後残高(円),入出金内容\n２０２４年１月５日,\"-3,980\",\"96,020\",VISAデビット\n",
    );
    let row = &rakuten_bank.rows[0];
    assert_eq!(
        (row.date.to_string(), row.amount.to_string()),
        ("2024-01-05".into(), "-3980".into())
    );
    assert_eq!(rakuten_bank.detected.currency.as_deref(), Some("JPY"));
    // Korean dates written out: `2024년 1월 5일`.
    let korean_date = read("거래일,금액,내용\n2024년 1월 5일,-500,버스\n");
    assert_eq!(korean_date.rows[0].date.to_string(), "2024-01-05");
}
