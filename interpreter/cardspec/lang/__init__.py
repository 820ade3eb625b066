"""The expression language: the grammar, its parser, name and type checking, code generation.

The layer under the rules and the engine: it knows no ruleset and no game. Higher layers
take its names from here (``from cardspec.lang import compile_expr, Env, INT``), not from
the module that defines them, so the modules inside may change without touching them.
"""
from .checker import (ANY, BOOL, BUILTINS, CARD, COLOR, INT, STR, SUIT, Binding, Code, DslError, Env, NoZone,
                  RuleFault, UnsafeName, builtin, compile_expr, elem, inline_body, list_of, literal_src, name_problem,
                  parse, py_param, rank_strength_helper, runtime_helpers)

__all__ = ["ANY", "BOOL", "BUILTINS", "CARD", "COLOR", "INT", "STR", "SUIT", "Binding", "Code", "DslError", "Env",
           "NoZone", "RuleFault", "UnsafeName", "builtin", "compile_expr", "elem", "inline_body", "list_of",
           "literal_src", "name_problem", "parse", "py_param", "rank_strength_helper", "runtime_helpers"]
