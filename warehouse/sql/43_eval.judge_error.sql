-- The judge's error measured on the audit sample, per element kind: how often its automatic conclusion differs
-- from the lawyer's value, and in which direction.
SELECT * FROM raw.judge_error
