"""An expression of the language in English words: ``in_words("card.color != last.color")`` →
"the card's colour is not the last card's colour".

For a person reading a rule rather than code (issue 35: an induction game's dealer picks a secret rule by
its words and sees it revealed in words; ``cardspec explain`` lists such rules in the same words). It reads
the tree the grammar gives (``syntax.parse``), so any expression that parses has words; it does not
check names or types (that is the checker's work), and a part it has no phrase for keeps its own text in
backticks. Names read as the game's words: ``card`` "the card", ``last`` "the last card", a rank
constant ``J`` "jack", ``colour_range`` "colour range"; ``X.rank < Y.rank`` "X's rank is lower than Y's
rank", ``X.suit == Y.suit`` "X has the same suit as Y", ``E % 2 == 0`` "E is even", ``v in [2, 3]`` "v is
2 or 3", ``if C then A else B`` "if C, A; otherwise B".

Examples from two games: an induction game's secret rule (``if card.suit == last.suit then card.rank <
last.rank else card.rank > last.rank`` → "if the card has the same suit as the last card, the card's rank
is lower than the last card's rank; otherwise the card's rank is higher than the last card's rank"), and a
trick game's condition (``count(stock) > 0 and not hearts_broken`` → "the number of cards in stock is
greater than 0 and not hearts broken").
"""
from __future__ import annotations

from lark import Token, Tree

from .syntax import parse
from .types import DslError

__all__ = ["in_words"]

#: The words of names every card game shares (the context of a secret rule, colours, rank letters).
NAME_WORDS = {
    "card": "the card", "last": "the last card", "line": "the line", "seat": "the seat", "dealer": "the dealer",
    "J": "jack", "Q": "queen", "K": "king", "A": "ace", "T": "10",
    "true": "true", "false": "false",
}
ATTR_WORDS = {"color": "colour", "colour": "colour", "suit": "suit", "rank": "rank", "points": "points",
              "value": "value"}
RANK_WORDS = {"2": "2", "3": "3", "4": "4", "5": "5", "6": "6", "7": "7", "8": "8", "9": "9", "T": "10", "10": "10",
              "J": "jack", "Q": "queen", "K": "king", "A": "ace"}
SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
ORDERED = {"<": "is lower than", ">": "is higher than", "<=": "is at most", ">=": "is at least"}
NUMERIC = {"<": "is less than", ">": "is greater than", "<=": "is at most", ">=": "is at least"}
ARITH = {"+": "plus", "-": "minus", "*": "times", "/": "divided by", "%": "modulo"}


def in_words(text: str) -> str:
    """``text`` (an expression of the language, str) in English words (str). Raises ``DslError`` when it
    does not parse (the same error the checker gives, with its column)."""
    tree = parse(" ".join(str(text).split()))
    if _kind(tree) == "true":
        return "always"
    return _Say().say(tree)


def _kind(t):
    """A tree's rule name without the grammar's trailing underscore (``if_`` → ``if``); None for a token."""
    return str(t.data).rstrip("_") if isinstance(t, Tree) else None


def _possessive(phrase: str) -> str:
    return phrase + ("'" if phrase.endswith("s") and not phrase.endswith("'s") else "'s")


class _Say:
    def say(self, t) -> str:
        if isinstance(t, Token):
            return self.token(t)
        f = getattr(self, "t_" + t.data.rstrip("_"), None)
        return f(t) if f else self.code(t)

    # ---- atoms --------------------------------------------------------------------------------------
    def token(self, tok) -> str:
        if tok.type == "NAME":
            return NAME_WORDS.get(str(tok), str(tok).replace("_", " "))
        return str(tok)

    def code(self, t) -> str:
        """A part without a phrase: its own text (rebuilt from the tree's tokens), in backticks."""
        toks = [str(x) for x in (t.scan_values(lambda v: isinstance(v, Token)) if isinstance(t, Tree) else [t])]
        return "`" + " ".join(toks) + "`"

    def t_int(self, t):
        return str(t.children[0])

    def t_string(self, t):
        return "“" + str(t.children[0])[1:-1] + "”"

    def t_true(self, t):
        return "true"

    def t_false(self, t):
        return "false"

    def t_name(self, t):
        return self.token(t.children[0])

    def t_card(self, t):
        code = str(t.children[0])
        if code == "JK":
            return "the joker"
        rank, suit = code[:-1], code[-1]
        return f"the {RANK_WORDS.get(rank, rank)} of {SUIT_WORDS.get(suit, suit)}"

    def t_list(self, t):
        return _listed([self.say(c) for c in t.children], "and")

    def t_attr(self, t):
        obj, name = t.children
        return f"{_possessive(self.say(obj))} {ATTR_WORDS.get(str(name), str(name).replace('_', ' '))}"

    def t_index(self, t):
        obj, key = t.children
        return f"{self.say(obj)} of {self.say(key)}"

    def t_neg(self, t):
        return "minus " + self.say(t.children[0])

    def t_call(self, t):
        name, args = str(t.children[0]), t.children[1:]
        if any(_kind(a) in ("where_arg", "for_arg", "for_where_arg", "by_arg") for a in args):
            return self.code(t)
        said = [self.say(a) for a in args]
        if name == "count" and len(args) == 1:
            return f"the number of cards in {said[0]}"
        if name == "abs" and len(args) == 1 and _kind(args[0]) == "binop" and str(args[0].children[1]) == "-":
            a, _, b = args[0].children
            return f"the distance between {self.say(a)} and {self.say(b)}"
        if name in ("min", "max") and said:
            return f"the {'least' if name == 'min' else 'greatest'} of {_listed(said, 'and')}"
        return f"{name.replace('_', ' ')} of {_listed(said, 'and')}" if said else name.replace("_", " ")

    # ---- arithmetic ---------------------------------------------------------------------------------
    def t_binop(self, t):
        a, op, b = t.children
        return f"{self.operand(a)} {ARITH.get(str(op), str(op))} {self.operand(b)}"

    def operand(self, t) -> str:
        s = self.say(t)
        return f"({s})" if _kind(t) in ("binop", "if", "or", "and", "compare") else s

    # ---- conditions ---------------------------------------------------------------------------------
    def t_compare(self, t):
        a, op, b = t.children
        op = str(op)
        if _kind(a) == "compare" and _kind(b) == "compare" and op in ("==", "!="):
            pair = f"{self.say(a)}; {self.say(b)}"
            return ("both or neither of these hold: " if op == "==" else "exactly one of these holds: ") + pair
        parity = self.parity(a, op, b)
        if parity:
            return parity
        if op in ("==", "!=") and _kind(a) == "attr" and _kind(b) == "attr" and str(a.children[1]) == str(b.children[1]):
            field = ATTR_WORDS.get(str(a.children[1]), str(a.children[1]).replace("_", " "))
            if op == "==":
                return f"{self.say(a.children[0])} has the same {field} as {self.say(b.children[0])}"
            return f"{self.say(a.children[0])} has a different {field} from {self.say(b.children[0])}"
        named = self.named_rank(a, op, b)
        if named:
            return named
        left, right = self.say(a), self.say(b)
        if op == "==":
            return f"{left} is {right}"
        if op == "!=":
            return f"{left} is not {right}"
        ranked = any(_kind(x) == "attr" and str(x.children[1]) == "rank" for x in (a, b))
        return f"{left} {(ORDERED if ranked else NUMERIC)[op]} {right}"

    def named_rank(self, a, op, b):
        """``X.rank == A`` "X is an ace", ``X.rank >= J`` "X is a jack or higher", ``X.color == red`` "X is red"."""
        if _kind(a) == "attr" and str(a.children[1]) == "rank" and _kind(b) == "int" and op in ("==", "!="):
            n = str(b.children[0])
            an = "an" if n in ("8", "11", "18") else "a"
            return f"{self.say(a.children[0])} is {'' if op == '==' else 'not '}{an} {n}"
        if _kind(a) != "attr" or _kind(b) != "name":
            return None
        field, value = str(a.children[1]), str(b.children[0].children[0] if isinstance(b.children[0], Tree)
                                                  else b.children[0])
        who = self.say(a.children[0])
        if field == "rank" and value in ("J", "Q", "K", "A"):
            word = RANK_WORDS[value]
            an = "an" if word[0] in "aeiou" else "a"
            return {"==": f"{who} is {an} {word}", "!=": f"{who} is not {an} {word}",
                    "<": f"{who} is lower than {an} {word}", ">": f"{who} is higher than {an} {word}",
                    "<=": f"{who} is {an} {word} or lower", ">=": f"{who} is {an} {word} or higher"}[op]
        if field in ("color", "colour") and value in ("red", "black") and op in ("==", "!="):
            return f"{who} is {'' if op == '==' else 'not '}{value}"
        return None

    def parity(self, a, op, b):
        """``E % 2 == 0`` "E is even"; ``E % 2 != F % 2`` "E and F are not both even or both odd"."""
        def mod2(x):
            return _kind(x) == "binop" and str(x.children[1]) == "%" and _kind(x.children[2]) == "int" \
                and str(x.children[2].children[0]) == "2"
        if mod2(a) and _kind(b) == "int" and str(b.children[0]) in ("0", "1") and op in ("==", "!="):
            even = (str(b.children[0]) == "0") == (op == "==")
            return f"{self.operand(a.children[0])} is {'even' if even else 'odd'}"
        if mod2(a) and mod2(b) and op in ("==", "!="):
            x, y = self.operand(a.children[0]), self.operand(b.children[0])
            return f"{x} and {y} are {'both even or both odd' if op == '==' else 'one even and one odd'}"
        return None

    def t_in(self, t):
        a, b = t.children
        if _kind(b) == "list":
            return f"{self.say(a)} is {_listed([self.say(c) for c in b.children], 'or')}"
        return f"{self.say(a)} is in {self.say(b)}"

    def t_not_in(self, t):
        a, b = t.children
        if _kind(b) == "list":
            return f"{self.say(a)} is not {_listed([self.say(c) for c in b.children], 'or')}"
        return f"{self.say(a)} is not in {self.say(b)}"

    def t_not(self, t):
        inner = t.children[0]
        if _kind(inner) == "compare" and str(inner.children[1]) in ("==", "!="):
            a, op, b = inner.children
            flipped = Tree("compare", [a, Token("COMP_OP", "!=" if str(op) == "==" else "=="), b])
            return self.t_compare(flipped)
        s = self.say(inner)
        return f"not {s}" if _kind(inner) in ("name", "attr", "call", "index") else f"it is not so that {s}"

    def t_and(self, t):
        return " and ".join(self.clause(c, "or") for c in _flatten(t, "and"))

    def t_or(self, t):
        return " or ".join(self.clause(c, "and") for c in _flatten(t, "or"))

    def clause(self, t, other) -> str:
        s = self.say(t)
        return f"({s})" if _kind(t) in (other, "if") else s

    def t_if(self, t):
        c, a, b = t.children
        return f"if {self.say(c)}, {self.say(a)}; otherwise {self.say(b)}"


def _flatten(t, kind) -> list:
    out = []
    for c in t.children:
        out.extend(_flatten(c, kind) if _kind(c) == kind else [c])
    return out


def _listed(items: list, word: str) -> str:
    """``a, b or c``."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {word} " + items[-1]


if __name__ == "__main__":   # pragma: no cover - a quick look: python -m cardspec.lang.words "EXPR"
    import sys
    try:
        print(in_words(" ".join(sys.argv[1:])))
    except DslError as e:
        print(e)
