-- Every benchmark's settings as benchmark.yaml gives them: its own methodology's weights, thresholds, partial
-- credit and penalty, the per-methodology overrides (`scoring`), its shards, review and audit settings (the audit's
-- rate, minimum per stratum and recorded seed).
SELECT id, name, methodology, canary, shards, path,
       json_extract(settings, '$.weights') AS weights, json_extract(settings, '$.thresholds') AS thresholds,
       json_extract(settings, '$.partial_credit') AS partial_credit, json_extract(settings, '$.penalty') AS penalty,
       json_extract(settings, '$.scoring') AS scoring, json_extract(settings, '$.review') AS review,
       json_extract(settings, '$.audit') AS audit
FROM raw.benchmarks
