"""The import contracts import-linter has no type for (pyproject.toml's
``[tool.importlinter]`` names them in ``contract_types``)."""

from grimp import ImportGraph
from importlinter import Contract, ContractCheck, fields, output


class AcyclicModulesContract(Contract):
    """No module imports itself back through others: for each import, no chain of imports
    leads from the module imported back to the importer. A package importing its own
    modules (its ``__init__``) is no circle.

    Unlike import-linter's ``acyclic_siblings``, which also refuses two sibling packages
    that import each other (a context's own sub-packages, say), this looks at modules only,
    so a context's layout inside stays its own."""

    type_name = "acyclic_modules"

    packages = fields.ListField(subfield=fields.StringField())

    def check(self, graph: ImportGraph, verbose: bool) -> ContractCheck:
        circles = []
        for package in self.packages:  # type: ignore[attr-defined]
            modules = sorted({package, *graph.find_descendants(package)})
            for module in modules:
                for imported in sorted(graph.find_modules_directly_imported_by(module)):
                    if imported.startswith(module + ".") or imported not in modules:
                        continue
                    back = graph.find_shortest_chain(importer=imported, imported=module)
                    if back is not None:
                        circles.append(" -> ".join([module, *back]))
        return ContractCheck(kept=not circles, metadata={"circles": circles})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for circle in check.metadata["circles"]:
            output.print_error(f"- {circle}", bold=False)
            output.new_line()
