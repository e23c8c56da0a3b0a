"""Text edits rules and repairs build: static_argnums/static_argnames, call arguments, imports,
`partial` bindings. Each keeps the code's own spelling."""
