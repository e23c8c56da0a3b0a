"""``python -m codemods`` runs the jaxfix command."""

from .cli import main

main()
