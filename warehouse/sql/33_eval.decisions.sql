-- Every human decision, never erased: an undo only fills revoked_at.
SELECT d.system, d.code, d.version, d.attempt, d.target, d.decision, d.decided_by, d.decided_at,
       r.revoked_at, d.decision_id, d.note, r.revoked_by, d.benchmark, d.via
FROM raw.decisions d
LEFT JOIN (SELECT decision_id, min(revoked_at) AS revoked_at, arg_min(revoked_by, revoked_at) AS revoked_by
           FROM raw.revocations GROUP BY decision_id) r USING (decision_id)
