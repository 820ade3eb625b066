"""The steps of a deal, one module per mechanism; ``base`` holds ``Step``, the ``step_type``
registry and ``build`` (a step from one YAML item of ``deal:``).

Importing this package fills the registry: each mechanism's module registers its step kind
with ``@step_type`` when it is imported here; ``base`` imports none of them. A new mechanism
is a new module here and one line below.
"""
from . import base  # noqa: F401  (Step, step_type, build)
from . import deal, passing, score, do  # noqa: F401  (shuffle and deal, pass, score, do)
from . import tricks  # noqa: F401  (tricks)
from . import bidding, trumps  # noqa: F401  (bid, trump)
from . import auction  # noqa: F401  (auction)
from . import turns  # noqa: F401  (turns)
from . import secret  # noqa: F401  (secret_rule, and the judge/rule_* builtins)
from . import sitout  # noqa: F401  (sits_out)
from . import redeal  # noqa: F401  (redeal)
