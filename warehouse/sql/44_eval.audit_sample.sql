-- Every current scored answer with its place in the audit's draw: its hash, its inclusion probability, whether it
-- is drawn, how many of the elements the judge settled have a lawyer's value, and its two scores.
SELECT * FROM raw.audit_sample
