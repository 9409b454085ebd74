-- The latest signature of every etalon version: a signature names one version, so a new version is unsigned.
SELECT benchmark, code, version, signed_by, signed_at, via
FROM raw.signatures
QUALIFY row_number() OVER (PARTITION BY benchmark, code, version ORDER BY signed_at DESC) = 1
