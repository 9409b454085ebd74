"""The Dagster definitions load, and the asset graph is the one the README draws."""

from pathlib import Path

from dagster import AssetKey

from pipelines.definitions import defs

SNAPSHOT = Path(__file__).with_name("asset_graph.txt")


def current_graph() -> list[str]:
    graph = defs.resolve_asset_graph()
    lines = []
    for key in sorted(graph.get_all_asset_keys(), key=lambda k: k.to_user_string()):
        node = graph.get(key)
        parents = sorted(p.to_user_string() for p in node.parent_keys)
        lines.append(f"{node.group_name}: {key.to_user_string()} <- {', '.join(parents)}".rstrip())
    return sorted(lines)


def test_the_asset_graph_is_the_one_the_readme_draws() -> None:
    expected = sorted(line for line in SNAPSHOT.read_text(encoding="utf-8").splitlines()
                      if line and not line.startswith("#"))
    assert current_graph() == [line.rstrip() for line in expected]


def test_every_cell_asset_is_partitioned_by_shard_and_system() -> None:
    graph = defs.resolve_asset_graph()
    for name in ("answers", "citations", "judgments", "scores"):
        dims = graph.get(AssetKey(name)).partitions_def.partitions_defs  # type: ignore[union-attr]
        assert [d.name for d in dims] == ["shard", "system"]


def test_sources_missing_from_the_corpus_are_reported_without_holding_back_the_shard() -> None:
    from assets.etalons import sources_in_corpus

    spec = next(iter(sources_in_corpus.check_specs))
    assert spec.asset_key == AssetKey("etalon_sources")
    assert not spec.blocking


def test_every_input_is_an_observable_source_whose_versions_the_ui_compares() -> None:
    graph = defs.resolve_asset_graph()
    inputs = [k for k in graph.get_all_asset_keys() if graph.get(k).is_external]
    assert inputs and all(graph.get(k).is_observable for k in inputs)


def test_no_asset_is_left_to_dagsters_own_automation() -> None:
    """The reconcile sensor plans from the inputs; an automation condition beside it would race it."""
    graph = defs.resolve_asset_graph()
    assert all(graph.get(k).automation_condition is None for k in graph.materializable_asset_keys)
