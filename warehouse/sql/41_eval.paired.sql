SELECT * FROM raw.paired
