"""Rulesets as data: YAML read with the position of every node, ``extends:``, options and
``by_option``, the JSON Schema check. Under the engine, over the expression language (it
imports neither: a ruleset is read and checked here, compiled in ``cardspec.engine``).
"""
from .loader import (OptionError, Pos, Ruleset, builtin_names, by_option_nodes, coerce_option, is_by_option, read_ruleset,
                     read_scenario_yaml, resolve_path, rulesets_dir, schema, schema_path)

__all__ = ["OptionError", "Pos", "Ruleset", "builtin_names", "by_option_nodes", "coerce_option", "is_by_option", "read_ruleset",
           "read_scenario_yaml", "resolve_path", "rulesets_dir", "schema", "schema_path"]
