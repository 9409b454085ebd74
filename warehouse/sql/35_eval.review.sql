-- What waits for a human decision, on current scores only.
SELECT r.id, r.system, r.code, r.version, r.attempt, r.target, r.why, r.options
FROM raw.review_items r
JOIN bench.etalons e ON e.code = r.code AND e.version = r.version
