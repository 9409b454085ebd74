-- What waits for a human decision, on current cells only: the open items of the scores (the four situations and
-- the reviews they lead to), then the audit sample's items (situation `audit`) that have no lawyer's value yet.
-- An audit item leaves the moment its label is recorded: the label events are read here, not a stored copy.
SELECT r.id, r.system, r.code, r.version, r.attempt, r.target, r.why, r.options, r.benchmark, r.situation
FROM raw.review_items r
JOIN bench.etalons e ON e.benchmark = r.benchmark AND e.code = r.code AND e.version = r.version
                    AND e.status <> 'archived'
JOIN raw.systems y ON y.id = r.system
UNION ALL
SELECT a.id, a.system, a.code, a.version, a.attempt, a.target, a.why, a.options, a.benchmark, a.situation
FROM raw.audit_items a
JOIN bench.etalons e ON e.benchmark = a.benchmark AND e.code = a.code AND e.version = a.version
                    AND e.status <> 'archived'
JOIN raw.systems y ON y.id = a.system
WHERE NOT a.covered
  AND NOT EXISTS (SELECT 1 FROM raw.review_items o WHERE o.id = a.id AND o.benchmark = a.benchmark)
  AND NOT EXISTS (SELECT 1 FROM raw.audits l
                  WHERE l.system = a.system AND l.code = a.code AND l.version = a.version AND l.attempt = a.attempt
                    AND l.target = a.target
                    AND NOT EXISTS (SELECT 1 FROM raw.revocations u WHERE u.decision_id = l.decision_id))
