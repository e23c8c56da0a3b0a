# Max pooling by hand.
values = [1.0, 5.0, 2.0, 8.0, 3.0, 0.0]
print([max(values[i : i + 2]) for i in range(0, len(values), 2)])
