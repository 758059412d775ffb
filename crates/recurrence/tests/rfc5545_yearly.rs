//! RFC 5545 section 3.8.5.3's yearly examples (and the January one), with
//! DTSTART read as `start` (dates only).

mod common;
use common::{all, all_are, sched, window_is};

cases! {
    yearly_in_june_and_july_for_10: all_are("19970610", "FREQ=YEARLY;COUNT=10;BYMONTH=6,7",
        "19970610 19970710 19980610 19980710 19990610 19990710 20000610 20000710 20010610 20010710");
    every_other_year_in_january_to_march: all_are("19970310",
        "FREQ=YEARLY;INTERVAL=2;COUNT=10;BYMONTH=1,2,3",
        "19970310 19990110 19990210 19990310 20010110 20010210 20010310 20030110 20030210 20030310");
    every_20th_monday_of_the_year: window_is("19970519", "FREQ=YEARLY;BYDAY=20MO",
        "19970101", "19991231",
        "19970519 19980518 19990517");
    every_thursday_in_march: window_is("19970313", "FREQ=YEARLY;BYMONTH=3;BYDAY=TH",
        "19970101", "19991231",
        "19970313 19970320 19970327 19980305 19980312 19980319 19980326 \
        19990304 19990311 19990318 19990325");
    every_thursday_in_summer: window_is("19970605", "FREQ=YEARLY;BYDAY=TH;BYMONTH=6,7,8",
        "19970101", "19981231",
        "19970605 19970612 19970619 19970626 19970703 19970710 19970717 19970724 19970731 \
        19970807 19970814 19970821 19970828 \
        19980604 19980611 19980618 19980625 19980702 19980709 19980716 19980723 19980730 \
        19980806 19980813 19980820 19980827");
    us_presidential_election_day: window_is("19961105",
        "FREQ=YEARLY;INTERVAL=4;BYMONTH=11;BYDAY=TU;BYMONTHDAY=2,3,4,5,6,7,8",
        "19960101", "20041231",
        "19961105 20001107 20041102");
}

#[test]
fn every_day_in_january_for_3_years() {
    let yearly = sched(
        "19980101",
        "FREQ=YEARLY;UNTIL=20000131T140000Z;BYMONTH=1;BYDAY=SU,MO,TU,WE,TH,FR,SA",
    );
    let daily = sched("19980101", "FREQ=DAILY;UNTIL=20000131T140000Z;BYMONTH=1");
    let got = all(&yearly);
    assert_eq!(got.len(), 93);
    assert_eq!(got, all(&daily));
    assert!(got.iter().all(|d| d.month() == time::Month::January));
}
