"""The package re-exports one branch; the other is imported from its module."""
from .branches import run_false
