-- The current version of every etalon and its status: archived (file removed), signed, or pool; a signed etalon
-- whose cited units changed in the corpus since it was signed is flagged `corpus_changed` (its signature stays,
-- awaiting re-confirmation: `etalon sign CODE` again).
SELECT h.benchmark, h.code, h.version, h.title, h.jurisdiction, h.branch, h.difficulty, h.type, h.methodology,
       CASE WHEN h.archived THEN 'archived' WHEN h.signed_by IS NOT NULL THEN 'signed' ELSE 'pool' END AS status,
       h.signed_by, h.signed_at, h.author, h.question_version, h.rubric_version, h.first_seen, h.file,
       (c.n IS NOT NULL AND h.signed_by IS NOT NULL) AS corpus_changed,
       CASE WHEN h.signed_by IS NOT NULL THEN c.units END AS changed_units
FROM bench.etalon_history h
LEFT JOIN (SELECT benchmark, code, version, count(*) AS n, string_agg(citation, '; ' ORDER BY citation) AS units
           FROM raw.corpus_changes GROUP BY ALL) c USING (benchmark, code, version)
WHERE h.is_current
