"""``jaxfix server``: jaxfix as a language server (LSP over stdio), for editors.

`protocol` speaks the protocol (pygls, the optional ``jaxfix[server]`` extra);
`session` keeps each project warm and checks a buffer with the engine's own
per-file analysis; `positions` counts places as the protocol does; `suppress`
proves where a ``# jaxfix: ignore[CODE]`` comment can go.
"""
