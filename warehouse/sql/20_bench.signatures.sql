-- The latest verified signature of every etalon version: a signature names one version, so a new version is
-- unsigned. Signature events whose seal does not verify never reach raw.signature_ledger (bench.rejected_signatures).
SELECT benchmark, code, version, signed_by, signed_at, via
FROM raw.signature_ledger
QUALIFY row_number() OVER (PARTITION BY benchmark, code, version ORDER BY signed_at DESC) = 1
