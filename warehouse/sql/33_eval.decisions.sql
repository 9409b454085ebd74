-- Every human decision, never erased: an undo only fills revoked_at. `kind`: decision (one lawyer's review),
-- adjudication (settles reviewers who disagree), disagreement (reopens a conclusion); `via`: how the name was
-- given (cli --by, web, proxy, sample, migrated).
SELECT d.system, d.code, d.version, d.attempt, d.target, d.decision, d.decided_by, d.decided_at,
       r.revoked_at, d.decision_id, d.note, r.revoked_by, d.benchmark, d.via,
       coalesce(d.kind, 'decision') AS kind, r.revoked_via
FROM raw.decisions d
LEFT JOIN (SELECT decision_id, min(revoked_at) AS revoked_at, arg_min(revoked_by, revoked_at) AS revoked_by,
                  arg_min(via, revoked_at) AS revoked_via
           FROM raw.revocations GROUP BY decision_id) r USING (decision_id)
