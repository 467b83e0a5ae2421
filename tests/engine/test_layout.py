"""The engine's files import each other without a cycle (rules.py and state.py sit under every rules file)."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine" / "viceroy"


def _imports() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in ENGINE.glob("*.py"):
        name = path.stem
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                if node.module:
                    found.add(node.module.split(".")[0])
                else:
                    found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("engine.viceroy."):
                found.add(node.module.split(".")[2])
            elif isinstance(node, ast.ImportFrom) and node.module == "engine.viceroy":
                found.update(alias.name for alias in node.names)
        graph[name] = {m for m in found if (ENGINE / f"{m}.py").exists() and m != name}
    return graph


def test_the_engine_files_import_each_other_without_a_cycle() -> None:
    graph = _imports()
    graph.pop("__init__", None)
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        assert name not in path, "import cycle: " + " -> ".join(path + [name])
        if name in done:
            return
        for other in sorted(graph.get(name, ())):
            visit(other, path + [name])
        done.add(name)

    for name in sorted(graph):
        visit(name, [])


def test_the_table_types_and_state_helpers_import_no_rules_file() -> None:
    graph = _imports()
    assert graph["rules"] <= {"errors"}
    assert graph["state"] <= {"cards", "pyramid", "errors"}
