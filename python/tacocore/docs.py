"""tacotoolbox.docs under tacocore: ``generate_markdown`` and ``generate_html`` (implemented in
tacocore._convert)."""

from ._convert import generate_html, generate_markdown

__all__ = ["generate_markdown", "generate_html"]
