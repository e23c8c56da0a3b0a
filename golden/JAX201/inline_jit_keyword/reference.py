# Clipping by hand.
print([min(max(v, -1.0), 1.0) for v in (-2.0, 0.5, 3.0)])
