"""Logging for tacocore through the standard ``logging`` module, as tacoreader's ``_logging``.

Every module logs to a child of the ``"tacocore"`` logger. Nothing is printed until the user asks:
``tacocore.verbose()`` (INFO), ``verbose("debug")``, ``verbose(False)``, or any configuration of
the standard library (``logging.basicConfig(level=logging.INFO)`` reaches them too, because the
package logger propagates until ``verbose`` takes it over).
"""

from __future__ import annotations

import logging
from typing import Optional, Union

DEFAULT_FORMAT = "%(levelname)s [%(name)s] %(message)s"
ROOT = "tacocore"

# Quiet by default: a library adds a NullHandler and leaves the rest to the application.
logging.getLogger(ROOT).addHandler(logging.NullHandler())


def get_logger(name: str) -> logging.Logger:
    """The logger of a tacocore module (``tacocore._reader`` -> "tacocore._reader")."""
    if not name.startswith(ROOT):
        name = ROOT if name == "__main__" else f"{ROOT}.{name}"
    return logging.getLogger(name)


def setup_basic_logging(level: int = logging.INFO, fmt: Optional[str] = None) -> None:
    """Prints tacocore's records at ``level`` and above on standard error (one handler, once)."""
    logger = logging.getLogger(ROOT)
    logger.setLevel(level)
    handlers = [h for h in logger.handlers if getattr(h, "_tacocore_verbose", False)]
    if not handlers:
        handler = logging.StreamHandler()
        handler._tacocore_verbose = True  # type: ignore[attr-defined]
        handler.setFormatter(logging.Formatter(fmt or DEFAULT_FORMAT))
        logger.addHandler(handler)
        handlers = [handler]
    for h in handlers:
        h.setLevel(level)
    logger.propagate = False


def disable_logging() -> None:
    """Silences every tacocore logger."""
    logging.getLogger(ROOT).setLevel(logging.CRITICAL + 1)


def verbose(level: Union[bool, str] = True) -> None:
    """Turns tacocore's log messages on or off (tacoreader's ``verbose``).

    ``True`` or ``"info"``: INFO and above; ``"debug"``: everything (each query tacocore runs);
    ``False``: nothing. Progress bars (tqdm) of long work follow the same switch: shown from
    INFO on. Raises ValueError for any other value.
    """
    if level is False:
        disable_logging()
    elif level is True or level == "info":
        setup_basic_logging(logging.INFO)
    elif level == "debug":
        setup_basic_logging(logging.DEBUG)
    else:
        raise ValueError(f"Invalid verbose level: {level}. Use True, 'info', 'debug', or False.")


def progress_enabled() -> bool:
    """Whether long work shows a progress bar: when tacocore logs at INFO or below."""
    return logging.getLogger(ROOT).isEnabledFor(logging.INFO) and bool(
        [h for h in logging.getLogger(ROOT).handlers if not isinstance(h, logging.NullHandler)])


def progress(iterable, total: Optional[int] = None, desc: str = ""):
    """``iterable`` wrapped in a tqdm bar when verbose is on (and tqdm is installed)."""
    if not progress_enabled():
        return iterable
    try:
        from tqdm.auto import tqdm
    except ImportError:
        get_logger(__name__).info("%s (install tqdm for a progress bar)", desc)
        return iterable
    return tqdm(iterable, total=total, desc=desc)
