-- Every human decision, never erased: an undo only fills revoked_at. `kind`: decision (one lawyer's review),
-- adjudication (settles reviewers who disagree), disagreement (reopens a conclusion); `via`: how the name was
-- established (web, proxy, or a script's `cli --by`).
SELECT d.system, d.code, d.version, d.attempt, d.target, d.decision, d.decided_by, d.decided_at,
       r.revoked_at, d.decision_id, d.note, r.revoked_by, coalesce(d.kind, 'decision') AS kind, d.via,
       r.via AS revoked_via
FROM raw.decisions d
LEFT JOIN raw.revocations r USING (decision_id)
