"""JAX204 data-in-static-nnx-attribute: a Flax nnx Module attribute holds modules in a plain list, tuple or dict."""
