"""JAX001 unused-suppression: a suppression comment that silences nothing."""
