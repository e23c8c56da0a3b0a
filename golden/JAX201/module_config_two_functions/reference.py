# The same computation written without a config object.
values = [-1.0, 0.5, 2.0]
code = [max(v, 0.0) * 3.0 for v in values]
print([round(v, 3) for v in code])
print([round(v / 3.0, 3) for v in code])
