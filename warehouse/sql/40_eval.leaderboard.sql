SELECT * FROM raw.leaderboard
