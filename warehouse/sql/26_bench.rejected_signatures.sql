-- Signature events that failed verification (forged, tampered or sealed with another key): they never count.
SELECT benchmark, code, version, signed_by, event_id, reason FROM raw.signature_rejections
