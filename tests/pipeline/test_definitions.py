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


def test_every_evaluation_asset_is_partitioned_by_cell() -> None:
    graph = defs.resolve_asset_graph()
    for name in ("answers", "citations", "judgments", "scores"):
        dims = graph.get(AssetKey(name)).partitions_def.partitions_defs  # type: ignore[union-attr]
        assert [d.name for d in dims] == ["etalon", "system"]


def test_etalon_sources_carry_a_blocking_check_on_the_corpus() -> None:
    from assets.etalons import sources_in_corpus

    spec = next(iter(sources_in_corpus.check_specs))
    assert spec.asset_key == AssetKey("etalon_sources")
    assert spec.blocking
    assert any(c.name == "sources_in_corpus" for c in defs.resolve_asset_graph().asset_check_keys)


def test_every_derived_asset_updates_itself_when_its_inputs_change() -> None:
    graph = defs.resolve_asset_graph()
    derived = [k for k in graph.materializable_asset_keys]
    assert derived and all(graph.get(k).automation_condition is not None for k in derived)
