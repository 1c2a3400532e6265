"""A tiny package for the IDE-operation tests (the language-server fallback uses it too)."""
from .shapes import Circle, area_of

__all__ = ["Circle", "area_of"]
