"""The cost and size bounds of evaluation, known when a ruleset loads: the budget of one evaluation
(``COST_BUDGET``), of a secret rule (``RULE_BUDGET``), the largest integer (``INT_LIMIT``), what folding
may compute (``FOLD_BUDGET``), and the magnitudes that tell whether a value may grow past them. docs/dsl.md,
"Bounds"."""
from __future__ import annotations


#: The cost budget (docs/dsl.md, "Bounds"): an expression or definition whose worst-case cost, in elementary
#: steps (a name read, an operation, one item of a loop), is above this is refused at load. The built-ins'
#: largest is about 2,300 (tests/test_bounds.py prints them); 2 comprehensions nested over a 108-card deck
#: cost about 12,000; 3 nested over 52 cards about 140,000; 4 nested over 52 cards, 7 million: refused.
COST_BUDGET = 3_000_000


#: The listing budgets (docs/dsl.md, "Bounds", "Listing"; engine/listing.py computes the figures when a
#: game is compiled, hands as large as the deck): a decision step or turns action kind whose full listing
#: (``legal_actions()``) may hold more than ``LISTED_BUDGET`` actions, or where deciding one small choice
#: (a search for a legal completion of one chunk) may take more than ``CHOICE_BUDGET`` steps, is refused.
LISTED_BUDGET = 100_000_000
CHOICE_BUDGET = 3_000_000_000


#: A secret rule typed during play has its own, smaller budget: it runs once per card judged.
RULE_BUDGET = 5_000


#: Integers stored in the state (vars, counters) and in events stay within +-INT_LIMIT (2**53 - 1, the
#: largest integer JSON readers such as JavaScript hold exactly): a value beyond saturates at the limit.
INT_LIMIT = 2 ** 53 - 1


#: A comprehension that reads no state (``filter(c in deck where c.rank == 2)``) is computed once at load
#: when it costs at most this; above, it is left to run time (where the budget bounds it).
FOLD_BUDGET = 100_000


#: The most bits an int computed inside one expression may have (docs/dsl.md, "Bounds"): an operation
#: whose magnitude bound (``Code.mag``) may pass 2**MAX_INT_BITS is refused at load. The built-ins' largest
#: bound is about 210 bits (tests/test_bounds.py); 4,096 bits keep every operation on them a few
#: microseconds, where a chain of squarings of a state value (d1 = d0 * d0, d2 = d1 * d1, …) doubles the
#: bits at each step and took seconds per evaluation from the 18th (hostile-input review, 2026-12-02).
MAX_INT_BITS = 4096

#: The bits of a state value (``INT_LIMIT``): the S of a magnitude ``a * S**d + b``.
_S_BITS = INT_LIMIT.bit_length()


def _bits(x) -> int:
    try:
        return int(x).bit_length()
    except (OverflowError, ValueError):   # an infinite or undefined float bound: beyond any limit
        return 1 << 40


def mag_bits(mag) -> int:
    """An upper bound of the bits of an int of magnitude ``mag`` (``a * S**d + b``, S = 2**53)."""
    a, d, b = mag or (1, 1, 0)
    return max(_bits(a) + d * _S_BITS if a and d else _bits(a), _bits(b)) + 1


def mag_substitute(body, args):
    """Magnitude of a definition's value (its body's ``body``, found with every int input at most S) when
    it is called with int arguments of magnitudes ``args``: each input is then at most S**k, k the
    arguments' bits in units of S (at least 1), and the body's polynomial, whose coefficients are not
    negative, at most ``a * S**(d*k) + b``."""
    k = max([1] + [-(-mag_bits(m) // _S_BITS) for m in args])
    if k == 1:
        return body
    a, d, b = body or (1, 1, 0)
    return (a, d * k, b)


def mag_add(m1, m2):
    """Magnitude bound of ``x + y`` (or ``x - y``) from those of x and y (``Code.mag``)."""
    (a1, d1, b1), (a2, d2, b2) = m1 or (1, 1, 0), m2 or (1, 1, 0)
    return (a1 + a2, max(d1, d2), b1 + b2)


def mag_mul(m1, m2):
    """Magnitude bound of ``x * y``: (a1 S^d1 + b1)(a2 S^d2 + b2)."""
    (a1, d1, b1), (a2, d2, b2) = m1 or (1, 1, 0), m2 or (1, 1, 0)
    if d1 == 0 or a1 == 0:
        return (a2 * b1, d2 if a2 * b1 else 0, b1 * b2)
    if d2 == 0 or a2 == 0:
        return (a1 * b2, d1 if a1 * b2 else 0, b1 * b2)
    return (a1 * a2 + a1 * b2 + a2 * b1, d1 + d2, b1 * b2)


def may_grow(mag) -> bool:
    """Whether an int of magnitude ``mag``, stored and read back again and again, may grow without bound
    (``x * x``, ``x + x``, a constant beyond INT_LIMIT): such a store saturates (``_clamp``); a store of
    ``x + 1`` or of a bounded value does not need to."""
    a, d, b = mag or (1, 1, 0)
    return d >= 2 or (d == 1 and a > 1) or b > INT_LIMIT


def _const_mag(src: str):
    try:
        v = abs(int(src.strip("()")))
    except ValueError:
        return None
    return (0, 0, v)
