"""Pairwise mode: two answers judged side by side under the swap protocol (docs/methodologies.md, "The judge").

A judge that favours the first position produces a phantom winner when one system is always shown first. Each
pair is therefore judged in both orders and the positional verdicts are mapped back to the systems: the same
system winning both orders is a win; a tie in both orders is a tie; contradicting orders are an abstention
(the judge followed the position, not the answers); a tie in one order and a win in the other is kept apart as
`mixed`. Ties and abstentions are reported separately, never folded into wins.
"""

from __future__ import annotations

import polars as pl

from evaluation.analytics.common import require_columns

SWAP_COLUMNS = ("benchmark", "code", "system_a", "system_b", "order", "winner")
OUTCOMES = ("a", "b", "tie", "abstain", "mixed", "incomplete")
SUMMARY_SCHEMA: dict[str, pl.DataType] = {
    "benchmark": pl.Utf8(),
    "system_a": pl.Utf8(),
    "system_b": pl.Utf8(),
    "pairs": pl.Int64(),
    "a_wins": pl.Int64(),
    "b_wins": pl.Int64(),
    "ties": pl.Int64(),
    "abstentions": pl.Int64(),
    "mixed": pl.Int64(),
    "incomplete": pl.Int64(),
    "a_win_rate": pl.Float64(),
    "first_position_rate": pl.Float64(),
    "position_bias": pl.Float64(),
}


def swap_outcomes(verdicts: pl.DataFrame) -> pl.DataFrame:
    """One outcome per (benchmark, code, system_a, system_b) from positional verdicts.

    `order` is "ab" (system_a shown first) or "ba"; `winner` is "first", "second", "tie" or null (no
    verdict)."""
    require_columns(verdicts, "pairwise verdicts", SWAP_COLUMNS)
    bad = verdicts.filter(
        ~pl.col("order").is_in(["ab", "ba"])
        | ~pl.col("winner").is_in(["first", "second", "tie"]) & pl.col("winner").is_not_null()
    )
    if bad.height:
        row = bad.row(0, named=True)
        raise ValueError(
            f"pairwise verdicts: row for etalon {row['code']} has order={row['order']!r}, "
            f"winner={row['winner']!r}; expected order 'ab'|'ba' and winner 'first'|'second'|'tie'"
        )
    mapped = verdicts.with_columns(
        pl.when(pl.col("winner") == "tie")
        .then(pl.lit("tie"))
        .when((pl.col("winner") == "first") == (pl.col("order") == "ab"))
        .then(pl.lit("a"))
        .otherwise(pl.lit("b"))
        .alias("_who")
    )
    keys = ["benchmark", "code", "system_a", "system_b"]
    pivot = mapped.group_by(keys).agg(
        pl.col("_who").filter(pl.col("order") == "ab").first().alias("ab"),
        pl.col("_who").filter(pl.col("order") == "ba").first().alias("ba"),
        pl.col("winner").filter(pl.col("order") == "ab").first().alias("ab_position"),
        pl.col("winner").filter(pl.col("order") == "ba").first().alias("ba_position"),
    )
    ab, ba = pl.col("ab"), pl.col("ba")
    outcome = (
        pl.when(ab.is_null() | ba.is_null())
        .then(pl.lit("incomplete"))
        .when(ab == ba)
        .then(ab)
        .when((ab == "tie") | (ba == "tie"))
        .then(pl.lit("mixed"))
        .otherwise(pl.lit("abstain"))
    )
    return pivot.with_columns(outcome.alias("outcome")).sort(keys)


def swap_summary(verdicts: pl.DataFrame) -> pl.DataFrame:
    """Per (benchmark, system_a, system_b): wins, ties, abstentions counted apart; the share of decided
    positional verdicts that chose the first position, and the position bias (that share minus 0.5)."""
    outcomes = swap_outcomes(verdicts)
    positions = pl.concat_list("ab_position", "ba_position")
    table = (
        outcomes.with_columns(positions.alias("_pos"))
        .group_by("benchmark", "system_a", "system_b")
        .agg(
            pl.len().cast(pl.Int64).alias("pairs"),
            *[
                (pl.col("outcome") == o).sum().cast(pl.Int64).alias(name)
                for o, name in (
                    ("a", "a_wins"),
                    ("b", "b_wins"),
                    ("tie", "ties"),
                    ("abstain", "abstentions"),
                    ("mixed", "mixed"),
                    ("incomplete", "incomplete"),
                )
            ],
            (pl.col("_pos").explode() == "first").sum().alias("_first"),
            pl.col("_pos").explode().is_in(["first", "second"]).sum().alias("_decided"),
        )
    )
    decided = pl.col("a_wins") + pl.col("b_wins")
    return (
        table.with_columns(
            pl.when(decided > 0).then(pl.col("a_wins") / decided).otherwise(None).alias("a_win_rate"),
            pl.when(pl.col("_decided") > 0)
            .then(pl.col("_first") / pl.col("_decided"))
            .otherwise(None)
            .alias("first_position_rate"),
        )
        .with_columns((pl.col("first_position_rate") - 0.5).alias("position_bias"))
        .select(list(SUMMARY_SCHEMA))
        .cast(pl.Schema(SUMMARY_SCHEMA))
        .sort("benchmark", "system_a", "system_b")
    )
