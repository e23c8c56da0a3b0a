# The update written out by hand.
print([round(w - 0.5 * (0.5 + 1e-6), 4) for w in (1.0, 2.0)])
