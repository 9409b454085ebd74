-- Every audit label, never erased: an undo only fills revoked_at. Labels are given blind (without the judge's
-- conclusion) on the audit sample's elements and never change a score; eval.judge_error and
-- eval.leaderboard_corrected count them.
SELECT a.system, a.code, a.version, a.attempt, a.target, a.label, a.decided_by, a.decided_at, r.revoked_at,
       a.decision_id, a.note, r.revoked_by, a.benchmark, a.via, r.revoked_via
FROM raw.audits a
LEFT JOIN (SELECT decision_id, min(revoked_at) AS revoked_at, arg_min(revoked_by, revoked_at) AS revoked_by,
                  arg_min(via, revoked_at) AS revoked_via
           FROM raw.revocations GROUP BY decision_id) r USING (decision_id)
