"""How jaxfix's transforms meet a repository: files, configuration, reports, the CLI.

A regular package (not a namespace one), so that this checkout's modules are
the ones imported even when another copy of jaxfix is installed.
"""
