"""Argument errors of the native module in Python's own words (issue 18, item 7).

nanobind answers a call whose arguments do not convert (a ``str`` where an ``int`` goes, an ``int``
beyond 64 bits, a negative count, an unknown keyword) with a ``TypeError`` that lists every C++
overload's signature. :func:`guard_module` wraps each function and method of ``_core`` so that such
a call raises instead, with a message naming the function and the argument:

- ``TypeError("DataFrame.read(): argument 'key' must be int or str, not float")``
- ``ValueError("read_arrays(): threads=-1 is out of range")`` (a number of the right type that the
  native side cannot hold: negative for a count, beyond 64 bits)
- ``ValueError("DataFrame.sql(): query is not valid Unicode text ...")`` (a ``str`` with lone
  surrogates where text is expected; a path argument takes them, as os.fsencode() does)
- ``TypeError("load() got an unexpected keyword argument 'sandboxx'")``

Only the failure path does any work; a call that converts goes straight through. Wrapping is done
once, by introspection, at import: a binding added later is covered without a line here.
"""

from __future__ import annotations

import functools
import inspect
import os
from typing import Any, Callable, Iterable, Optional

_INCOMPATIBLE = "incompatible function arguments"

# Declared (Python-side) type names of nanobind signatures -> the Python types they accept.
_ACCEPTS = {
    "int": (int,),
    "float": (int, float),
    "bool": (bool,),
    "str": (str,),
    "bytes": (bytes,),
    "None": (type(None),),
    # A path (std::filesystem::path): str, bytes or os.PathLike, as os.fsencode() takes them.
    "os.PathLike": (str, bytes, os.PathLike),
}


def _split_top(text: str, sep: str = ",") -> list[str]:
    """``text`` split at ``sep`` outside brackets."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    tail = text[start:].strip()
    if tail:
        parts.append(tail)
    return parts


def _parameters(signature: str) -> list[tuple[str, str, bool]]:
    """[(name, declared type, has default)] of one ``def f(a: int, b: str = \\0) -> R`` text."""
    start = signature.find("(")
    depth, end = 0, len(signature)
    for i in range(start, len(signature)):
        if signature[i] == "(":
            depth += 1
        elif signature[i] == ")":
            depth -= 1
            if depth == 0:
                end = i
                break
    out = []
    for part in _split_top(signature[start + 1:end]):
        if part in ("/", "*") or part.startswith("*"):
            continue
        name, _, rest = part.partition(":")
        declared, _, default = rest.partition("=")
        out.append((name.strip(), declared.strip() or "object", bool(default.strip())))
    return out


def _shown_type(declared: str) -> str:
    """A declared type as a user reads it: module paths dropped, C++ names as ``object``."""
    if "::" in declared:
        return "object"
    return declared.replace("tacocore._core.", "").replace("collections.abc.", "")


def _accepts(declared: str, value: Any) -> Optional[bool]:
    """Whether ``value``'s type fits ``declared`` (None: a type this module does not judge)."""
    options = [t.strip() for t in _split_top(declared, "|")]
    known = [o for o in options if o in _ACCEPTS]
    if not known or len(known) != len(options):
        return None
    for option in known:
        kinds = _ACCEPTS[option]
        if isinstance(value, bool) and bool not in kinds:
            continue
        if isinstance(value, kinds):
            return True
    return False


def _shown_value(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _explain(qualname: str, signatures: Iterable[str], args: tuple, kwargs: dict) -> Exception:
    """The Python-level error for a call nanobind refused."""
    overloads = [_parameters(s) for s in signatures]
    names = {p[0] for params in overloads for p in params}
    for key in kwargs:
        if key not in names:
            return TypeError(f"{qualname}() got an unexpected keyword argument '{key}'")
    fitting = [p for p in overloads if len(args) <= len(p)]
    if not fitting:
        has_self = 1 if overloads and overloads[0] and overloads[0][0][0] == "self" else 0
        most = max(len(p) for p in overloads) - has_self
        return TypeError(f"{qualname}() takes at most {most} positional arguments "
                         f"({len(args) - has_self} given)")
    # Each argument is judged against every overload that could take it: a TypeError when none
    # accepts its type, a ValueError when one does (so the value itself is what did not convert).
    bindings = []
    for params in fitting:
        bound = dict(zip((p[0] for p in params), args))
        bound.update(kwargs)
        bindings.append((params, bound))
    worst: Optional[Exception] = None
    for name in [p[0] for p in fitting[0]] + [k for k in kwargs if k not in (p[0] for p in fitting[0])]:
        if name == "self":
            continue
        declared = [q[1] for params, bound in bindings for q in params if q[0] == name and name in bound]
        if not declared:
            continue
        value = next(bound[name] for _, bound in bindings if name in bound)
        verdicts = [_accepts(d, value) for d in declared]
        if all(v is False for v in verdicts):
            allowed = sorted({_shown_type(d) for d in declared})
            return TypeError(f"{qualname}(): argument '{name}' must be {' or '.join(allowed)}, "
                             f"not {type(value).__name__}")
        if any(verdicts) and isinstance(value, (int, float)) and not isinstance(value, bool):
            worst = worst or ValueError(f"{qualname}(): {name}={_shown_value(value)} is out of "
                                        "range for this argument")
        if any(verdicts) and isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                worst = worst or ValueError(
                    f"{qualname}(): {name} is not valid Unicode text (it holds surrogate escapes "
                    "of undecodable bytes); pass bytes or os.fsencode(...) for a file name")
    if worst is None:
        for params, bound in bindings:
            missing = [p[0] for p in params if p[0] not in bound and not p[2] and p[0] != "self"]
            if missing:
                return TypeError(f"{qualname}() missing required argument '{missing[0]}'")
    if worst is not None:
        return worst
    given = ", ".join(type(a).__name__ for a in args)
    expected = "; ".join(
        "(" + ", ".join(f"{n}: {_shown_type(t)}" for n, t, _ in p if n != "self") + ")" for p in overloads)
    return TypeError(f"{qualname}(): arguments ({given}) do not match {expected}")


def _guarded(native: Callable, qualname: str) -> Callable:
    signatures = [s[0] for s in getattr(native, "__nb_signature__", ())]

    @functools.wraps(native)
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return native(*args, **kwargs)
        except TypeError as exc:
            if _INCOMPATIBLE not in str(exc):
                raise
            error = _explain(qualname, signatures, args, kwargs)
        raise error

    call.__tacocore_guarded__ = True
    return call


def _is_native(obj: Any) -> bool:
    return type(obj).__name__ in ("nb_func", "nb_method") and not getattr(obj, "__tacocore_guarded__", False)


def guard_module(module: Any) -> None:
    """Wraps every nanobind function of ``module`` and every method of its nanobind classes."""
    for name, obj in list(vars(module).items()):
        if _is_native(obj):
            setattr(module, name, _guarded(obj, name))
        elif inspect.isclass(obj) and type(obj).__name__ in ("nb_type", "nb_type_0"):
            _guard_class(obj)


def _guard_class(cls: type) -> None:
    for name, attr in list(vars(cls).items()):
        if name in ("__new__", "__init__") or name.startswith("__nb") or not _is_native(attr):
            continue  # construction: nanobind's type slots call these directly, not the attribute
        qualname = f"{cls.__name__}.{name}"
        guarded = _guarded(attr, qualname)
        # An nb_func in a class is a static method (def_static); an nb_method binds self.
        setattr(cls, name, staticmethod(guarded) if type(attr).__name__ == "nb_func" else guarded)


def index_backend(table: Any, key: Any) -> Any:
    """``table[key]`` for a backend table (pyarrow, pandas, polars), whose own errors for a
    hostile key are not in the hierarchy: an int beyond 64 bits is an IndexError, a ``str`` with
    surrogate escapes a KeyError (no column can have that name), as for any missing column."""
    try:
        return table[key]
    except OverflowError:
        raise IndexError(f"index {_shown_value(key)} is out of range") from None
    except UnicodeEncodeError:
        raise KeyError(f"no column named {key!r} (not valid Unicode text)") from None
