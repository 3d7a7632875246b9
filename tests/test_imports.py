"""The package's import graph: no module takes part in an import cycle.

Every import counts, at module level, inside a function or under ``TYPE_CHECKING``: a
cycle hidden in a function still ties the two modules together. The layers (which
package may import which) are import-linter's contracts in pyproject.toml, checked by
``lint-imports`` in ``make lint``; see CONTRIBUTING.md.
"""

from __future__ import annotations

import grimp


def import_cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Every group of modules that import each other, directly or not (Tarjan's strongly
    connected components), with any module that imports itself.
    """
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    for root in sorted(graph.modules):
        if root in order:
            continue
        # an explicit stack of (module, the modules it imports still to visit)
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        order[root] = low[root] = len(order)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, imported = work[-1]
            for other in imported:
                if other not in order:
                    order[other] = low[other] = len(order)
                    stack.append(other)
                    on_stack.add(other)
                    work.append(
                        (other, iter(sorted(graph.find_modules_directly_imported_by(other))))
                    )
                    break
                if other in on_stack:
                    low[module] = min(low[module], order[other])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[module])
                if low[module] == order[module]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == module:
                            break
                    if len(group) > 1 or module in graph.find_modules_directly_imported_by(module):
                        groups.append(sorted(group))
    return groups


def describe(graph: grimp.ImportGraph, group: list[str]) -> str:
    lines = [" <-> ".join(group)]
    for importer in group:
        for imported in group:
            for detail in graph.get_import_details(importer=importer, imported=imported):
                lines.append(
                    f"  {importer} -> {imported} "
                    f"(line {detail['line_number']}: {detail['line_contents']})"
                )
    return "\n".join(lines)


def test_no_module_takes_part_in_an_import_cycle() -> None:
    graph = grimp.build_graph("phase10", cache_dir=None)
    assert len(graph.modules) > 50  # the whole package was read
    cycles = import_cycles(graph)
    assert not cycles, "import cycles:\n" + "\n".join(describe(graph, c) for c in cycles)


def test_the_cycle_finder_finds_cycles() -> None:
    graph = grimp.ImportGraph()
    for module in ("p", "p.a", "p.b", "p.c", "p.d", "p.e"):
        graph.add_module(module)
    for importer, imported in (("p.a", "p.b"), ("p.b", "p.c"), ("p.c", "p.a"), ("p.d", "p.a")):
        graph.add_import(importer=importer, imported=imported)
    graph.add_import(importer="p.e", imported="p.e")
    assert import_cycles(graph) == [["p.a", "p.b", "p.c"], ["p.e"]]
