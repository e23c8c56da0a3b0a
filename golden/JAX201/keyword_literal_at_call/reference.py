# Plain Python on the host: no jit, the options read directly.
x = [0.0, 1.0, 2.0, 3.0, 4.0]
mean = sum(x) / len(x)
print([round((v - mean) / 2.0, 3) for v in x])
print([round(v / 1.0, 3) for v in x])
