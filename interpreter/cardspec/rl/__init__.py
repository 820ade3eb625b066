"""Learning front ends (docs/rl.md, docs/actions.md): ``actions`` (the fixed integer action space),
``observation`` (fixed-length observations), ``pettingzoo`` (any ruleset as a PettingZoo AEC environment)
and ``openspiel`` (any ruleset as an OpenSpiel game). NumPy, PettingZoo and OpenSpiel are imported by
the module that needs them, not here.
"""
