"""Tools for ruleset authors: ``validate`` (every problem at file:line:col), ``explain`` (the rules in
words), ``diff`` (what a variant changes), ``scaffold`` (``cardspec new``), ``lsp`` (the editor's language
server) and ``scenario`` (a fixed position replayed and checked, DESIGN.md's scenario format).

Front ends: each imports the public API and the layers under it, never another front end's group but
``play.simulate`` (``diff`` compares statistics of two rulesets).
"""
