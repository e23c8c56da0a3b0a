"""The pieces every layer uses: findings and fixes as text edits, the parsed module, the Rule base,
suppression, the guards every fix passes. Nothing here knows JAX."""
