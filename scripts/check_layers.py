"""The house's rules, read from the code: no import or include cycle, no
arrow from a lower layer to a higher one, no family reaching into another
family. Run by `make lint` (docs/architecture.md draws the layers).

C++ (the quoted #includes under cpp/, resolved as the compiler resolves
them: beside the file, then from cpp/), lowest layer first:

  core      cpp/core/        the engine
  refkit    cpp/refkit/      the reference libraries' arithmetic
  envs      cpp/envs/        a family's folder, or the list of families
  top       cpp/bindings/, cpp/xla/, cpp/tests/

Python (every import of the envpool_lite package, those inside functions
too; an import under `if TYPE_CHECKING:` is a type's name, not an arrow):

  core      envpool_lite._core, envpool_lite._version
  options   envpool_lite.options (the pool's options, the seed convention)
  refkit    envpool_lite.refkit
  seam      envpool_lite.families (its __init__: the Family hooks)
  envs      envpool_lite.families.<family> (a module, or a package)
  spec      envpool_lite.spec
  pool      envpool_lite.pool, .xla, .distributed
  faces     envpool_lite.gymnasium_api, .gym_api, .dm_api, .multiagent
  top       envpool_lite (its __init__)

A file may include or import its own layer or a lower one; in the envs
layer, a family only its own files (never the list of families,
cpp/envs/registration.h, or another family's folder or module); the list
of families may name them.
Exit status 1, with one line per broken rule, when any is broken.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CPP = ROOT / "cpp"
PACKAGE = ROOT / "python" / "envpool_lite"

CPP_LAYERS = ("core", "refkit", "envs", "top")
PY_LAYERS = ("core", "options", "refkit", "seam", "envs", "spec", "pool", "faces", "top")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


# --- C++ ---------------------------------------------------------------------


def cpp_files() -> list[Path]:
    return sorted(p for p in CPP.rglob("*") if p.suffix in (".h", ".cc"))


def cpp_layer(path: Path) -> tuple[str, str | None]:
    """(layer, family) of a file under cpp/."""
    parts = path.relative_to(CPP).parts
    if parts[0] in ("core", "refkit"):
        return parts[0], None
    if parts[0] == "envs":
        return "envs", parts[1] if len(parts) > 2 else None
    return "top", None


def cpp_graph() -> dict[Path, set[Path]]:
    """Each file's includes that are files of cpp/ (the others are the
    system's and the upstream libraries')."""
    graph: dict[Path, set[Path]] = {}
    for path in cpp_files():
        targets = set()
        for name in INCLUDE.findall(path.read_text(errors="replace")):
            for candidate in (path.parent / name, CPP / name):
                if candidate.is_file():
                    targets.add(candidate.resolve())
                    break
        graph[path.resolve()] = targets
    return graph


# --- Python ------------------------------------------------------------------


def py_modules() -> dict[str, Path]:
    modules = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def py_layer(module: str) -> tuple[str, str | None]:
    parts = module.split(".")
    if module in ("envpool_lite._core", "envpool_lite._version"):
        return "core", None
    if module == "envpool_lite.options":
        return "options", None
    if parts[1:2] == ["refkit"]:
        return "refkit", None
    if parts[1:2] == ["families"]:
        return ("seam", None) if len(parts) == 2 else ("envs", parts[2])
    if parts[1:2] == ["spec"]:
        return "spec", None
    if parts[1:2] and parts[1] in ("pool", "xla", "distributed"):
        return "pool", None
    if parts[1:2] and parts[1] in ("gymnasium_api", "gym_api", "dm_api", "multiagent"):
        return "faces", None
    return "top", None


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST, module: str, is_package: bool, modules: Mapping[str, Path]) -> Iterable[str]:
    """The envpool_lite modules a module imports (outside TYPE_CHECKING)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _is_type_checking(node):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".") if is_package else module.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module or ""
            # `from package import module` imports the module (the package's
            # __init__ runs first, as for every submodule: not an arrow of
            # this file's); `from module import name` imports the module.
            for alias in node.names:
                yield f"{prefix}.{alias.name}" if f"{prefix}.{alias.name}" in modules else prefix
        stack.extend(ast.iter_child_nodes(node))


def py_graph() -> dict[str, set[str]]:
    modules = py_modules()
    modules.setdefault("envpool_lite._core", PACKAGE / "_core.pyi")
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        if path.suffix != ".py":
            graph[module] = set()
            continue
        tree = ast.parse(path.read_text(), str(path))
        targets = {name for name in _imports(tree, module, path.name == "__init__.py", modules) if name in modules and name != module}
        graph[module] = targets
    return graph


# --- the rules -----------------------------------------------------------------


def cycles(graph: Mapping[object, set]) -> list[list]:
    """The strongly connected components of more than one node (Tarjan's
    algorithm, iterative)."""
    index: dict[object, int] = {}
    low: dict[object, int] = {}
    on_stack: set = set()
    stack: list = []
    out = []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root], key=str)))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in graph:
                    continue
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child], key=str))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    out.append(sorted(component, key=str))
    return out


def arrows(graph: Mapping[object, set], layer_of, layers: tuple[str, ...], name) -> list[str]:
    """The arrows that break a rule: upward, or from a family to another
    family's files (or, in C++, to the list of families)."""
    problems = []
    for source, targets in graph.items():
        s_layer, s_family = layer_of(source)
        for target in sorted(targets, key=str):
            t_layer, t_family = layer_of(target)
            if layers.index(t_layer) > layers.index(s_layer):
                problems.append(f"{name(source)} ({s_layer}) -> {name(target)} ({t_layer}): upward")
            elif s_layer == t_layer == "envs" and s_family is not None and s_family != t_family:
                problems.append(f"{name(source)} -> {name(target)}: " + (f"family {s_family} reaches into family {t_family}" if t_family else f"family {s_family} reaches into the list of families"))
    return problems


def check() -> list[str]:
    problems = []
    cg = cpp_graph()

    def cpp_name(p: Path) -> str:
        return str(p.relative_to(ROOT))

    problems += arrows(cg, cpp_layer, CPP_LAYERS, cpp_name)
    problems += ["C++ include cycle: " + " <-> ".join(map(cpp_name, c)) for c in cycles(cg)]
    pg = py_graph()
    problems += arrows(pg, py_layer, PY_LAYERS, str)
    problems += ["Python import cycle: " + " <-> ".join(c) for c in cycles(pg)]
    return problems


def main() -> int:
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    problems = check()
    for line in problems:
        print(f"check_layers: {line}")
    if problems:
        print(f"check_layers: {len(problems)} broken rule(s); the layers are in scripts/check_layers.py's docstring and docs/architecture.md")
        return 1
    print("check_layers: no cycle, no upward arrow, no family reaching into another")
    return 0


if __name__ == "__main__":
    sys.exit(main())
