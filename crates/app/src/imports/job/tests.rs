//! A job's record of what went wrong.

use super::*;

fn running() -> Job {
    serde_json::from_value(serde_json::json!({
        "id": 1, "status": "running", "rows": 5000, "created": 0, "duplicates": 0,
        "errors": [], "startedAt": "2026-11-28T00:00:00Z", "finishedAt": null,
        "progress": {"chunks": 5, "nextChunk": 0, "resumeRow": 0,
                     "defaultCategoryId": null, "expiresAt": 0}
    }))
    .expect("a job")
}

#[test]
fn a_failed_job_says_why_after_as_many_row_errors_as_it_keeps() {
    let mut job = running();
    let bad = (1..=700).map(|row| RowError::new(row, "amount", "must not be 0"));
    job.add_errors(bad.collect());
    assert_eq!(job.errors.len(), MAX_JOB_ERRORS);
    job.fail(RowError::new(
        2001,
        "row",
        "the default category was deleted meanwhile",
    ));
    assert_eq!(job.status, JobStatus::Failed);
    assert!(job.finished_at.is_some());
    assert_eq!(job.errors.len(), MAX_JOB_ERRORS);
    let last = job.errors.last().expect("an error");
    assert_eq!((last.row, last.field.as_str()), (2001, "row"));
    assert_eq!(job.errors[MAX_JOB_ERRORS - 2].row, 499);
}
