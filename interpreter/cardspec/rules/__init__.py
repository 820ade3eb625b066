"""Rulesets as data: YAML read with the position of every node, ``extends:``, options and
``by_option``, the JSON Schema check. Under the engine, over the expression language (it
imports neither: a ruleset is read and checked here, compiled in ``cardspec.engine``).

One module per step of reading: ``yaml_pos`` (YAML with positions), ``paths`` (built-in names, a
name or path resolved to a file), ``merge`` (``extends:``), ``schemacheck`` (the JSON Schema check),
``options`` (options and ``by_option``), and ``loader`` (``Ruleset``, ``read_ruleset``: the steps in order).
"""
from .loader import Pos, Ruleset, read_ruleset, read_scenario_yaml
from .options import OptionError, by_option_nodes, coerce_option, is_by_option
from .paths import builtin_names, resolve_path, rulesets_dir, schema_path
from .schemacheck import schema

__all__ = ["OptionError", "Pos", "Ruleset", "builtin_names", "by_option_nodes", "coerce_option", "is_by_option", "read_ruleset",
           "read_scenario_yaml", "resolve_path", "rulesets_dir", "schema", "schema_path"]
