"""The audit of the judge: a random sample of what it settled, labelled blind by lawyers, and the leaderboard
corrected with those labels by prediction-powered inference (evaluation.ppi).

- `sample`: which answers are drawn (a hash of the recorded seed against the rate, topped up per stratum);
- `cells`: one answer's audit targets and its judge's and human scores;
- `estimates`: the tables behind eval.audit_sample, eval.leaderboard_corrected and eval.judge_error.
"""
