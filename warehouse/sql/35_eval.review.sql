-- What waits for a human decision, on current cells only.
SELECT r.id, r.system, r.code, r.version, r.attempt, r.target, r.why, r.options, r.benchmark, r.situation
FROM raw.review_items r
JOIN bench.etalons e ON e.benchmark = r.benchmark AND e.code = r.code AND e.version = r.version
                    AND e.status <> 'archived'
JOIN raw.systems y ON y.id = r.system
