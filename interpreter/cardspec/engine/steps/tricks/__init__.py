"""The ``tricks`` step (one mechanism for the trick family), a module per concept:

- ``step``: the ``Tricks`` step (its YAML keys are in that module's doc), the assembly of its generated
  functions and its flow: entering the step, playing a card, the text of a card;
- ``legality``: which cards a seat may lead or follow (``follow:``, ``exempt:``, ``led_suit:``,
  ``lead:``, ``play:``) and why a card is not legal;
- ``resolution``: a complete trick resolved: its winner (``wins:``, ``key:``, ``cancel:``), who takes it
  and leads next (``take:``, ``next_leader:``), carried cards, the ``trick`` event, ``after_trick:``;
- ``choose``: a decision inside a trick that is not a card (``choose:``), and the step's action space;
- ``fast``: the generated fast paths (random playouts, sorted hands, ``legal_texts``, ``text_fused``,
  ``id_fused``).

Importing the package registers the step kind (``@step_type("tricks")``, in ``step``). The names
below are importable from here as before the step was split.
"""
from .choose import AFTER_PLAY_CTX, CHOICE
from .legality import PLAY_CTX
from .resolution import AFTER_TRICK_CTX, DEFAULT_WINS, PAIR_CTX, TRICK_CTX, WIN_CTX
from .step import Tricks

__all__ = ["AFTER_PLAY_CTX", "AFTER_TRICK_CTX", "CHOICE", "DEFAULT_WINS", "PAIR_CTX", "PLAY_CTX", "TRICK_CTX",
           "WIN_CTX", "Tricks"]
