-- The current version of every etalon and its status: archived (file removed), signed, or pool.
SELECT benchmark, code, version, title, jurisdiction, branch, difficulty, type, methodology,
       CASE WHEN archived THEN 'archived' WHEN signed_by IS NOT NULL THEN 'signed' ELSE 'pool' END AS status,
       signed_by, signed_at, author, question_version, rubric_version, first_seen, file
FROM bench.etalon_history
WHERE is_current
