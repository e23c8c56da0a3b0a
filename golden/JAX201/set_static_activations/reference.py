# The flags applied in plain Python.
values = [1.0, 2.0]
print([-(v * v) + 2 for v in values])
