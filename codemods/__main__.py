"""``python -m jaxfix.codemods`` runs the jaxfix command (``python -m jaxfix`` does too)."""

from .cli import main

main()
