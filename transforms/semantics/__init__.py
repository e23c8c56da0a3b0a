"""One model of how JAX traces a program, which every rule queries: the vocabulary of JAX APIs,
name and call resolution, tracing routes, and what a value is (static, traced, an array, hashable)."""
