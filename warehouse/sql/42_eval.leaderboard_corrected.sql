-- The leaderboard corrected for the judge's errors: per benchmark, methodology, system and signature state, the
-- judge-only figures and the prediction-powered ones that the audit sample's labels correct, with the audit's size.
SELECT * FROM raw.leaderboard_corrected
