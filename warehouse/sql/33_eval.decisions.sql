-- Every human decision, never erased: an undo only fills revoked_at.
SELECT d.system, d.code, d.version, d.attempt, d.target, d.decision, d.decided_by, d.decided_at,
       r.revoked_at, d.decision_id, d.note, r.revoked_by
FROM raw.decisions d
LEFT JOIN raw.revocations r USING (decision_id)
