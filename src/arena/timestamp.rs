//! The time stamps of a match's records and page: today's date and the time now, in UTC, written
//! as Japanese records write them (`2026/11/27`).

/// Today's date as `YYYY/MM/DD` (UTC), for record headers.
pub(crate) fn today() -> String {
    let (y, m, d, _) = utc_now();
    format!("{y:04}/{m:02}/{d:02}")
}

/// The time now as `YYYY/MM/DD HH:MM:SS UTC`.
pub(crate) fn now_text() -> String {
    let (y, m, d, secs) = utc_now();
    format!("{y:04}/{m:02}/{d:02} {:02}:{:02}:{:02} UTC", secs / 3600, secs / 60 % 60, secs % 60)
}

/// (year, month, day, seconds into the day), UTC.
fn utc_now() -> (i64, i64, i64, i64) {
    civil(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs()) as i64)
}

/// (year, month, day, seconds into the day) of `secs` seconds after 1970-01-01 00:00 UTC.
fn civil(secs: i64) -> (i64, i64, i64, i64) {
    let days = secs.div_euclid(86_400);
    // Howard Hinnant's civil-from-days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + (m <= 2) as i64;
    (y, m, d, secs.rem_euclid(86_400))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_since_1970_are_the_civil_date_and_time_of_day() {
        // Expected values from Python's datetime.fromtimestamp(secs, timezone.utc).
        assert_eq!(civil(0), (1970, 1, 1, 0));
        assert_eq!(civil(951_782_400), (2000, 2, 29, 0), "a leap day of a century divisible by 400");
        assert_eq!(civil(4_107_542_399), (2100, 2, 28, 86_399), "2100 is not a leap year");
        assert_eq!(civil(1_798_419_661), (2026, 12, 28, 3661));
    }
}
