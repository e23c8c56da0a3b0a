"""One step of a walk over the stdlib ast, for the screens and the slicer.

They walk every statement they look at, so the step is theirs rather than
`ast.iter_child_nodes` (a generator per node, and every expression context).
"""

from __future__ import annotations

import ast


def child_nodes(node: ast.AST, skip: tuple[str, ...] = ()) -> list[ast.AST]:
    """`ast.iter_child_nodes` as a list, less the fields in `skip` and the expression
    contexts (``Load``, ``Store``, ``Del``: shared leaves no question is about; read
    ``node.ctx``). The screens walk every statement they look at: this is their step."""
    out: list[ast.AST] = []
    AST = ast.AST
    for field in node._fields:
        if field == "ctx" or field in skip:
            continue
        value = getattr(node, field, None)
        if isinstance(value, AST):
            out.append(value)
        elif type(value) is list:
            out.extend([v for v in value if isinstance(v, AST)])
    return out


def own_returns(function: ast.AST) -> list[ast.Return]:
    """The returns of a def itself, not of the defs, classes and lambdas nested in it."""
    returns: list[ast.Return] = []
    stack: list[ast.AST] = list(getattr(function, "body", ()))
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Return):
            returns.append(node)
        elif not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            stack.extend(ast.iter_child_nodes(node))
    return returns
