"""``python -m jaxfix`` runs the jaxfix command."""

from jaxfix.codemods.cli import main

main()
