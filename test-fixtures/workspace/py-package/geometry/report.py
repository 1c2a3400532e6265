"""Uses Circle, and has one type error for diagnostics (a str where a float is expected)."""
from .shapes import Circle, area_of


def describe(radius: float) -> str:
    circle = Circle(radius)
    return f"area {area_of(circle):.2f}"


bad: float = describe(1.0)  # TODO(types): describe returns str
