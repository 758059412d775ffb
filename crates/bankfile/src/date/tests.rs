//! The date syntax, reading and detection.

use super::*;
use time::macros::date;

#[test]
fn syntax_round_trips_and_reads() {
    for f in [
        "DD.MM.YYYY",
        "MM/DD/YYYY",
        "YYYY-MM-DD",
        "YYYYMMDD",
        "DD/MM/YY",
    ] {
        assert_eq!(f.parse::<DateFormat>().unwrap().to_string(), f);
    }
    assert!("YY".parse::<DateFormat>().is_err());
    assert!("YYYY-DD-MM".parse::<DateFormat>().is_err());
    let dmy: DateFormat = "DD/MM/YYYY".parse().unwrap();
    assert_eq!(dmy.read("03.11.2026"), Some(date!(2026 - 11 - 03)));
    assert_eq!(dmy.read("31/02/2026"), None);
    let iso = DateFormat::ISO;
    assert_eq!(iso.read("2024-01-05 10:22:33"), Some(date!(2024 - 01 - 05)));
    let yy: DateFormat = "MM/DD/YY".parse().unwrap();
    assert_eq!(yy.read("8/17/22"), Some(date!(2022 - 08 - 17)));
    for bad in [
        "DD MM YYYY",
        "DD.MM-YYYY",
        "DD..MM..YYYY",
        "DD.MM.YYYY.",
        ".DD.MM.YYYY",
    ] {
        assert!(bad.parse::<DateFormat>().is_err(), "{bad}");
    }
}

#[test]
fn named_months_as_banks_print_them() {
    for f in [
        "DD MMM YYYY",
        "DD-MMM-YY",
        "MMM DD, YYYY",
        "MMM-DD-YYYY",
        "YYYY-MMM-DD",
    ] {
        assert_eq!(f.parse::<DateFormat>().unwrap().to_string(), f);
    }
    assert_eq!(
        "dd.mmmm.yyyy".parse::<DateFormat>().unwrap().to_string(),
        "DD.MMM.YYYY"
    );
    for bad in [
        "DDMMMYYYY",
        "DD MMM  , YYYY",
        "DD_MMM_YYYY",
        "DD MMMMM YYYY",
        "YY MMM DD",
    ] {
        assert!(bad.parse::<DateFormat>().is_err(), "{bad}");
    }
    let dmy: DateFormat = "DD MMM YYYY".parse().unwrap();
    for cell in [
        "05 Jan 2024",
        "5 JAN 2024",
        " 05-Jan-2024 ",
        "05/jan/2024",
        "05. Jan. 2024",
        "5 January 2024",
        "05 janv. 2024",
        "05 Jan 2024 10:22",
        "05-Jan-2024 10:22:33 AM",
    ] {
        assert_eq!(dmy.read(cell), Some(date!(2024 - 01 - 05)), "{cell}");
    }
    for cell in [
        "05 Jan 24",
        "32 Jan 2024",
        "29 Feb 2023",
        "05 Jam 2024",
        "05 Jan",
        "Jan 05 2024",
    ] {
        assert_eq!(dmy.read(cell), None, "{cell}");
    }
    let yy: DateFormat = "DD-MMM-YY".parse().unwrap();
    assert_eq!(yy.read("29-FEB-24"), Some(date!(2024 - 02 - 29)));
    assert_eq!(yy.read("01-Dez-99"), Some(date!(1999 - 12 - 01)));
    let mdy: DateFormat = "MMM DD, YYYY".parse().unwrap();
    for cell in ["Mar 3, 2024", "March 03 2024", "MAR-03-2024", "Mär 3, 2024"] {
        assert_eq!(mdy.read(cell), Some(date!(2024 - 03 - 03)), "{cell}");
    }
    // The numeric formats read no named month, and the reverse.
    assert_eq!(DateFormat::ISO.read("2024-Jan-05"), None);
    assert_eq!(dmy.read("05.01.2024"), None);
}

#[test]
fn named_months_are_detected_with_the_separator_shown() {
    let shown = |cells: &[&str]| detect(cells).unwrap().unwrap().to_string();
    assert_eq!(shown(&["05 Jan 2024", "12 Feb 2024"]), "DD MMM YYYY");
    assert_eq!(shown(&["05-JAN-24", "12-FEB-24"]), "DD-MMM-YY");
    assert_eq!(shown(&["Jan 5, 2024", "Feb 12, 2024"]), "MMM DD, YYYY");
    assert_eq!(shown(&["Jan 5 2024"]), "MMM DD YYYY");
    assert_eq!(shown(&["05.Mär.2024", "01.Dez.2024"]), "DD.MMM.YYYY");
    assert_eq!(shown(&["2024-Jan-05"]), "YYYY-MMM-DD");
    // Day and month are never confused when the month is in words.
    assert_eq!(shown(&["01 Feb 2024", "03 Apr 2024"]), "DD MMM YYYY");
    for f in [
        "DD MMM YYYY",
        "DD-MMM-YY",
        "MMM DD, YYYY",
        "MMM DD YYYY",
        "DD.MMM.YYYY",
    ] {
        assert!(
            f.parse::<DateFormat>().is_ok(),
            "{f} is sent back as it is shown"
        );
    }
    assert!(looks_like_date("05 Jan 2024") && looks_like_date("Jan 5, 2024"));
    assert!(!looks_like_date("Total Jan 2024") && !looks_like_date("Balance 1 2"));
}

#[test]
fn detection_over_the_column() {
    let f = detect(&["01/02/2024", "13/02/2024", "2024-13-01"])
        .unwrap()
        .unwrap();
    assert_eq!(f.to_string(), "DD/MM/YYYY");
    let f = detect(&["08/17/2022", "08/01/2022"]).unwrap().unwrap();
    assert_eq!(f.to_string(), "MM/DD/YYYY");
    assert!(matches!(
        detect(&["01.02.2024", "03.04.2024"]),
        Err(FileError::AmbiguousDate { .. })
    ));
    assert_eq!(
        detect(&["01.01.2024"]).unwrap().unwrap().to_string(),
        "DD.MM.YYYY"
    );
    assert_eq!(
        detect(&["20240105"]).unwrap().unwrap().to_string(),
        "YYYYMMDD"
    );
    assert_eq!(detect(&["x"]).unwrap(), None);
    assert!(looks_like_date("2026-13-01") && !looks_like_date("Total"));
}
