-- One row per scored answer. `indicative` follows the etalon's signature at query time: signing an etalon
-- makes its existing scores count without re-scoring them. `is_current`: the etalon's current version, the
-- etalon not archived, the system still configured.
SELECT s.system, s.benchmark, s.code, s.version, s.attempt, s.methodology, s.score, s.verdict, s.status,
       (e.status IS DISTINCT FROM 'signed' OR e.version IS DISTINCT FROM s.version) AS indicative,
       s.components, s.open_items, s.notes, s.rule, s.corpus_version, s.scored_at, s.jurisdiction, s.branch,
       s.difficulty, s.type, s.tokens_in, s.tokens_out, s.cost, s.confidence, s.approved_by,
       (e.version IS NOT DISTINCT FROM s.version AND e.status IS DISTINCT FROM 'archived'
        AND y.id IS NOT NULL) AS is_current
FROM raw.scores s
LEFT JOIN bench.etalons e USING (benchmark, code)
LEFT JOIN raw.systems y ON y.id = s.system
