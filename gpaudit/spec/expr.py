"""Safe, exact arithmetic expressions.

Expression strings are parsed with :mod:`ast` (which never evaluates anything) and translated,
node by node from a whitelist, into sympy expressions.  Decimal literals become exact rationals
("0.1" is 1/10); a YAML float (already a binary double) becomes its exact binary value, and the
caller records that it did.
"""

from __future__ import annotations

import ast
import math
from fractions import Fraction
from typing import Mapping

import sympy as sp

from ..errors import FieldError

_FUNCS = {
    "sqrt": lambda *a: _arity("sqrt", a, 1) and sp.sqrt(a[0]),
    "exp": lambda *a: _arity("exp", a, 1) and sp.exp(a[0]),
    "log": lambda *a: _arity("log", a, 1) and sp.log(a[0]),
    "abs": lambda *a: _arity("abs", a, 1) and sp.Abs(a[0]),
    "min": lambda *a: _atleast("min", a) and sp.Min(*a),
    "max": lambda *a: _atleast("max", a) and sp.Max(*a),
    "norm": lambda *a: _atleast("norm", a) and sp.sqrt(sum(t**2 for t in a)),
}
_CONSTS = {"pi": sp.pi, "e": sp.E, "inf": sp.oo}


def _arity(name, args, n):
    if len(args) != n:
        raise FieldError(f"{name}() takes {n} argument(s), got {len(args)}")
    return True


def _atleast(name, args):
    if not args:
        raise FieldError(f"{name}() needs at least one argument")
    return True


def _check_power(a, b):
    """Refuse constant powers far outside float64's range before sympy evaluates them exactly."""
    if not (a.is_number and b.is_number) or a.has(sp.oo, -sp.oo) or b.has(sp.oo, -sp.oo):
        return
    try:
        fa, fb = abs(float(sp.N(a, 20))), abs(float(sp.N(b, 20)))
    except (TypeError, ValueError, OverflowError):
        raise FieldError("power out of range") from None
    if fa not in (0.0, 1.0) and fb * abs(math.log10(fa)) > 600:
        raise FieldError("power out of range (beyond 1e600)")


def exact_number(value) -> sp.Expr:
    """A YAML scalar number as an exact sympy number (floats keep their exact binary value)."""
    if isinstance(value, bool):
        raise FieldError("expected a number or expression, got a boolean")
    if isinstance(value, int):
        return sp.Integer(value)
    if isinstance(value, float):
        if value != value:
            raise FieldError("NaN is not a valid value")
        if value in (float("inf"), float("-inf")):
            return sp.oo if value > 0 else -sp.oo
        return sp.Rational(Fraction(value))
    raise FieldError(f"expected a number, got {type(value).__name__}")


class _Translator:
    def __init__(self, src: str, names: Mapping[str, sp.Expr], allow_bool: bool):
        self.src = src
        self.names = names
        self.allow_bool = allow_bool

    def visit(self, node):
        method = getattr(self, "v_" + type(node).__name__, None)
        if method is None:
            raise FieldError(f"unsupported syntax '{ast.get_source_segment(self.src, node) or type(node).__name__}'")
        return method(node)

    def v_Expression(self, node):
        return self.visit(node.body)

    def v_Constant(self, node):
        v = node.value
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise FieldError(f"unsupported literal {v!r}")
        if isinstance(v, int):
            return sp.Integer(v)
        text = ast.get_source_segment(self.src, node) or repr(v)
        return sp.Rational(text)  # exact decimal, e.g. "0.1" -> 1/10

    def v_Name(self, node):
        if node.id in self.names:
            return self.names[node.id]
        if node.id in _CONSTS:
            return _CONSTS[node.id]
        raise FieldError(f"unknown name '{node.id}'")

    def v_BinOp(self, node):
        a, b = self.visit(node.left), self.visit(node.right)
        op = type(node.op)
        if op is ast.Add:
            return a + b
        if op is ast.Sub:
            return a - b
        if op is ast.Mult:
            return a * b
        if op is ast.Div:
            if b == 0:
                raise FieldError("division by zero")
            return a / b
        if op is ast.Pow:
            _check_power(a, b)
            return a**b
        raise FieldError(f"unsupported operator in '{ast.get_source_segment(self.src, node)}'")

    def v_UnaryOp(self, node):
        a = self.visit(node.operand)
        if isinstance(node.op, ast.USub):
            return -a
        if isinstance(node.op, ast.UAdd):
            return a
        if isinstance(node.op, ast.Not) and self.allow_bool:
            return sp.Not(a)
        raise FieldError("unsupported unary operator")

    def v_Call(self, node):
        if not isinstance(node.func, ast.Name) or node.func.id not in _FUNCS or node.keywords:
            raise FieldError(f"unknown function in '{ast.get_source_segment(self.src, node)}'")
        return _FUNCS[node.func.id](*[self.visit(a) for a in node.args])

    def v_Compare(self, node):
        if not self.allow_bool:
            raise FieldError("comparisons are only allowed in piecewise conditions")
        ops = {ast.Lt: sp.Lt, ast.LtE: sp.Le, ast.Gt: sp.Gt, ast.GtE: sp.Ge}
        parts, left = [], self.visit(node.left)
        for op, comp in zip(node.ops, node.comparators):
            if type(op) not in ops:
                raise FieldError("only < <= > >= comparisons are allowed")
            right = self.visit(comp)
            parts.append(ops[type(op)](left, right))
            left = right
        return sp.And(*parts)

    def v_BoolOp(self, node):
        if not self.allow_bool:
            raise FieldError("'and'/'or' are only allowed in piecewise conditions")
        vals = [self.visit(v) for v in node.values]
        return sp.And(*vals) if isinstance(node.op, ast.And) else sp.Or(*vals)


def parse_expr(value, names: Mapping[str, sp.Expr] | None = None, *, allow_bool: bool = False):
    """Parse a YAML value (number or expression string) into an exact sympy expression."""
    names = names or {}
    if not isinstance(value, str):
        return exact_number(value)
    # '^' means power and must bind like '**' (Python's '^' is xor, weaker than '+')
    src = value.strip().replace("^", "**")
    if not src:
        raise FieldError("empty expression")
    if len(src) > 10000:
        raise FieldError("expression longer than 10000 characters")
    try:
        tree = ast.parse(src, mode="eval")
        result = _Translator(src, names, allow_bool).visit(tree)
    except (SyntaxError, ValueError) as err:
        if isinstance(err, FieldError):
            raise
        raise FieldError(f"cannot parse expression '{value}'") from None
    except (RecursionError, MemoryError):
        raise FieldError("expression too deeply nested") from None
    if isinstance(result, (bool, sp.logic.boolalg.BooleanAtom)) and not allow_bool:
        raise FieldError(f"expected a number, got '{value}'")
    if result is sp.nan or (isinstance(result, sp.Basic) and result.has(sp.zoo, sp.nan)):
        raise FieldError(f"expression '{value}' is undefined")
    bad = non_real_constant(result)
    if bad is not None:
        raise FieldError(f"the constant {bad} in '{value}' is not a real number")
    return result


def non_real_constant(expr):
    """The first constant sub-expression of expr whose value is not real (None if there is none).

    Expressions are real-valued functions of real inputs: a constant such as (-1)^(1/3), sqrt(-2)
    or log(-1) has no real value (sympy takes the principal complex branch), so a formula that
    contains one is out of the language, whatever the rest of it says."""
    if not isinstance(expr, sp.Basic):
        return None
    for sub in sp.preorder_traversal(expr):
        if not isinstance(sub, sp.Expr) or sub.free_symbols or not sub.is_number or sub.has(sp.oo, -sp.oo):
            continue
        real = sub.is_extended_real
        if real is None:
            try:
                im = sp.im(sp.N(sub, 40))
                real = bool(im == 0) if im.is_number else None
            except (TypeError, ValueError, ArithmeticError):
                real = None
        if real is False or sub.has(sp.I):
            return sub
    return None


def numeric_value(expr, field: str = "") -> sp.Expr:
    """Require that an expression is a real constant (possibly +inf); return it simplified."""
    if isinstance(expr, sp.logic.boolalg.Boolean) and not isinstance(expr, sp.Expr):
        raise FieldError("expected a number, got a condition", field)
    if expr.free_symbols:
        names = ", ".join(sorted(str(s) for s in expr.free_symbols))
        raise FieldError(f"expected a constant, but it depends on {names}", field)
    val = sp.nsimplify(expr) if expr.is_Float else expr
    if val.is_extended_real is False or val.has(sp.I):
        raise FieldError("value is not real", field)
    return val
